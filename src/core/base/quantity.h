// Quantities: numbers with a dimension (bytes or milliseconds), spelled with
// postgresql.conf's units. The one unit table of the project, the one strict
// parser (for rule conditions, profile facts and the build-time generator)
// and the formatters every output uses. No catalog dependency: the generator
// that builds the catalogs links this file too.
#ifndef PGCONFLINT_CORE_BASE_QUANTITY_H_
#define PGCONFLINT_CORE_BASE_QUANTITY_H_

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace pgconflint {

/// The dimension of a number: none, bytes (memory) or milliseconds (time).
enum class Dim { kNone, kBytes, kMs };

/// One unit as postgresql.conf spells it (case-sensitive, as the server).
struct Unit {
  const char* name;  // "kB", "min"
  Dim dim;           // kBytes or kMs
  int64_t amount;    // the unit's size in bytes (memory) or microseconds (time)
};

/// The units of `dim`, largest first (TB GB MB kB B; d h min s ms us), as in
/// the server's conversion tables: each unit's "next smaller unit" is the
/// following entry. Empty for Dim::kNone.
std::span<const Unit> UnitsOf(Dim dim);

/// The unit spelled exactly `name` ("kB"; "KB" and "kb" are not units), or null.
const Unit* FindUnit(std::string_view name);

/// The unit's size in the dimension's base: bytes, or milliseconds (1us = 0.001).
double UnitFactor(const Unit& unit);

/// The units of `dim`, smallest first, for messages: "B, kB, MB, GB or TB".
std::string UnitChoices(Dim dim);

/// A number with its dimension. Memory is in bytes, time in milliseconds.
struct Quantity {
  double value = 0;
  Dim dim = Dim::kNone;
};

/// Splits "128kB" into its number (128) and unit (kB; null when there is
/// none). The text is a decimal number (optional sign, fraction and exponent:
/// "-1", "0.5", "1e3", ".5") directly followed by an optional unit; nothing
/// else (no blanks, hex, "nan" or "inf"). False with *error (one line naming
/// the valid units when the unit is unknown) otherwise, or when the number
/// overflows a double.
bool SplitQuantity(std::string_view text, double* number, const Unit** unit, std::string* error);

/// Parses "128kB", "5min", "0.4" into bytes, milliseconds or a plain number.
/// Refuses what SplitQuantity refuses and results that overflow to infinity.
bool ParseQuantity(std::string_view text, Quantity* out, std::string* error);

/// Parses a quantity that must have dimension `dim`: a memory or time unit is
/// required for kBytes and kMs ("needs a unit: B, kB, MB, GB or TB"), and
/// forbidden for kNone. *out is in bytes, milliseconds or plain.
bool ParseQuantityOf(std::string_view text, Dim dim, double* out, std::string* error);

/// Human display, for messages and derived values: "128kB", "1.5GB", "1min",
/// "250ms", "0.4". Bytes use the largest unit of at least 1 that gives a
/// whole number, or one decimal from 10 of a unit on; time the largest exact
/// unit from seconds up.
std::string FormatHuman(double value, Dim dim);

/// SHOW's spelling: `count` base units of `unit_amount` bytes or microseconds
/// each, in the largest unit that divides the amount exactly ("1536kB",
/// "102MB", "1min"). Zero divides by every unit ("0TB"): callers that print
/// zero otherwise handle it first. REQUIRES: dim is kBytes or kMs.
std::string FormatExactUnit(int64_t count, int64_t unit_amount, Dim dim);

/// A size in postgresql.conf spelling, rounded down to whole megabytes (in
/// TB, GB or MB, whichever is exact) from 1MB on, else to whole kilobytes:
/// 1.5GB -> "1536MB", 64GB -> "64GB", 300000 -> "292kB". Negative and
/// non-finite input prints "0kB".
std::string FormatConfSize(double bytes);

/// A whole number as C's "%.0f" prints it (any magnitude), without the sign
/// of a negative zero: 3 -> "3", -0.0 -> "0", 2.5 -> "2".
std::string FormatWhole(double v);

/// A plain number: whole numbers as FormatWhole, others as C's "%g" ("0.25").
std::string FormatNumber(double v);

/// C's "%g", as the server prints reals ("0.9", "1e+10").
std::string FormatReal(double v);

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_BASE_QUANTITY_H_
