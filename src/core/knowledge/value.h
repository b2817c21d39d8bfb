// Value parsing with PostgreSQL's exact semantics (parse_and_validate_value):
// integers (hex, octal, fractions, exponents, units, round-half-even), reals,
// booleans, enums, strings and the per-parameter checks a server applies.
#ifndef PGCONFLINT_CORE_KNOWLEDGE_VALUE_H_
#define PGCONFLINT_CORE_KNOWLEDGE_VALUE_H_

#include <string>
#include <string_view>

#include "core/knowledge/catalog.h"
#include "core/base/quantity.h"

namespace pgconflint {

/// Why a value was refused.
enum class ValueProblem {
  kNone,
  kInvalid,     // type, unit, enum, boolean or list syntax (PGC201)
  kOutOfRange,  // outside min..max (PGC202)
};

/// The result of parsing one value for one parameter.
struct ParsedValue {
  ValueProblem problem = ValueProblem::kNone;
  /// What `postgres -C NAME` prints for the value; empty when refused.
  std::string normalized;
  /// The server's message and detail/hint when refused (PostgreSQL's wording).
  std::string message;
  std::string hint;

  // Facts for the warnings (integer and real parameters).
  double number = 0;          // the value in the base unit, after rounding
  double exact = 0;           // the value in the base unit before any rounding
  bool rounded = false;       // rounding changed the value
  bool has_unit = false;      // the text carried a unit
  bool octal = false;         // leading 0 followed by a digit
  bool hex = false;           // 0x prefix
  bool adjusted = false;      // the server silently changes it (e.g. wal_buffers 2 -> 4)
  bool host_dependent = false;  // refused only by this machine's facts (locale, time zone, stack)
  std::string adjustment;     // how, for the message

  bool ok() const { return problem == ValueProblem::kNone; }
};

/// Parses `value` (already unescaped) as PostgreSQL would for `param` of
/// `catalog`: type, unit, rounding and range. The per-parameter check hooks
/// are applied on top by CheckValue (core/knowledge/hooks.h).
ParsedValue ParseValue(const Catalog& catalog, const Parameter& param, std::string_view value);

/// The server's refusal of `value` (in the base unit) outside [min, max]:
/// "10 kB is outside the valid range for parameter "work_mem" (64 kB ..
/// 2147483647 kB)"; the bounds carry the unit from 17 on, not before
/// (checked on real 16, 17 and 18 servers).
std::string OutOfRangeMessage(int major, const Parameter& param, const std::string& value, const std::string& min,
                              const std::string& max);

/// PostgreSQL's boolean spelling rules (parse_bool_with_len). Sets *result.
bool ParseBool(std::string_view value, bool* result);

/// The dimension of `param`'s values in expressions: bytes, milliseconds or none.
Dim UnitDim(const Parameter& param);

/// The display of an integer in the base unit with the largest exact unit
/// ("1536kB", "102MB", "1min"), as SHOW prints it.
std::string FormatWithUnit(double value, const Parameter& param);

/// A value in the parameter's base unit (as `postgres -C` and pg_settings
/// give it) shown with its unit: "16384" of work_mem is "16MB". Values of
/// other types, and text that is not a number, unchanged.
std::string ShownWithUnit(const Parameter& param, const std::string& value);

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_KNOWLEDGE_VALUE_H_
