// Value parsing as parse_and_validate_value does it (guc.c): the same C library
// conversions (strtol base 0, strtod), the same unit tables and rounding, the
// same range checks and messages. Per-parameter check hooks are in hooks.cc.
#include "core/knowledge/value.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <strings.h>

#include "core/base/quantity.h"
#include "core/base/strings.h"

namespace pgconflint {
namespace {

constexpr int kMaxUnitLen = 3;

const char kMemoryHint[] =
    "Valid units for this parameter are \"B\", \"kB\", \"MB\", \"GB\", and \"TB\".";
const char kTimeHint[] =
    "Valid units for this parameter are \"us\", \"ms\", \"s\", \"min\", \"h\", and \"d\".";

// Base unit of `param` in bytes or microseconds.
int64_t BaseAmount(const Parameter& param) {
  return param.unit_kind == UnitKind::kMemory ? static_cast<int64_t>(param.unit_amount)
                                              : static_cast<int64_t>(std::llround(param.unit_amount * 1000));
}

// Multiplier from `unit` to the base unit, computed as one division so that it
// is the correctly rounded double (as the server's constant expressions are).
double Multiplier(int64_t unit, int64_t base) {
  if (unit >= base && unit % base == 0) return static_cast<double>(unit / base);
  if (base % unit == 0) return 1.0 / static_cast<double>(base / unit);
  return static_cast<double>(unit) / static_cast<double>(base);
}

bool IsCSpace(char c) { return isspace(static_cast<unsigned char>(c)) != 0; }

// convert_to_base_unit: `rest` is what follows the number.
// `exact` receives the converted amount before the next-smaller-unit rounding.
bool ConvertToBaseUnit(double value, const char* rest, const Parameter& param, double* out,
                       double* exact) {
  char unit[kMaxUnitLen + 1];
  int len = 0;
  while (*rest && !IsCSpace(*rest) && len < kMaxUnitLen) unit[len++] = *rest++;
  unit[len] = '\0';
  while (IsCSpace(*rest)) ++rest;
  if (*rest) return false;  // unit too long, or junk after it
  // The server's tables list units largest first, like UnitsOf.
  std::span<const Unit> table = UnitsOf(UnitDim(param));
  const size_t n = table.size();
  int64_t base = BaseAmount(param);
  for (size_t i = 0; i < n; ++i) {
    if (strcmp(unit, table[i].name) != 0) continue;
    double v = value * Multiplier(table[i].amount, base);
    *exact = v;
    // A fractional amount is rounded to a whole number of the next smaller unit.
    if (i + 1 < n) {
      double next = Multiplier(table[i + 1].amount, base);
      v = std::rint(v / next) * next;
    }
    *out = v;
    return true;
  }
  return false;
}

std::string InvalidValueMessage(const Parameter& param, std::string_view value) {
  return "invalid value for parameter " + DoubleQuoted(param.name) + ": " + DoubleQuoted(value);
}

// The unit as the server prints it in range messages: "kB", "8kB", "ms".
std::string UnitSuffix(const Parameter& param) {
  return param.unit[0] ? std::string(" ") + param.unit : std::string();
}



// Shared by integers and reals once the number is read (parse_int and
// parse_real do the same): rejects what strtol/strtod could not read, then
// converts an optional unit to the base unit. `end` is where the number ended.
bool FinishNumber(const Parameter& param, const std::string& text, const char* end, double* val, ParsedValue* out) {
  if (end == text.c_str() || errno == ERANGE || std::isnan(*val)) {
    out->problem = ValueProblem::kInvalid;
    out->message = InvalidValueMessage(param, text);
    return false;
  }
  while (IsCSpace(*end)) ++end;
  out->exact = *val;
  if (!*end) return true;
  out->problem = ValueProblem::kInvalid;
  out->message = InvalidValueMessage(param, text);
  if (param.unit_kind == UnitKind::kNone) return false;  // no hint, as the server
  out->has_unit = true;
  if (!ConvertToBaseUnit(*val, end, param, val, &out->exact)) {
    out->hint = param.unit_kind == UnitKind::kMemory ? kMemoryHint : kTimeHint;
    return false;
  }
  out->problem = ValueProblem::kNone;
  out->message.clear();
  return true;
}

void ParseInteger(int major, const Parameter& param, const std::string& text, ParsedValue* out) {
  const char* s = text.c_str();
  char* end = nullptr;
  errno = 0;
  double val = static_cast<double>(strtol(s, &end, 0));
  // As parse_int: a decimal point, an exponent or an overflow means "re-read as
  // a float"; strtol with base 0 has already read 0x as hex and 0 as octal.
  if (*end == '.' || *end == 'e' || *end == 'E' || errno == ERANGE) {
    errno = 0;
    val = strtod(s, &end);
  } else {
    const char* p = s;
    while (IsCSpace(*p)) ++p;
    if (*p == '+' || *p == '-') ++p;
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X') && end > p + 1) out->hex = true;
    else if (p[0] == '0' && end > p + 1) out->octal = true;
  }
  if (!FinishNumber(param, text, end, &val, out)) return;
  val = std::rint(val);
  if (val > 2147483647.0 || val < -2147483648.0) {
    out->problem = ValueProblem::kInvalid;
    out->message = InvalidValueMessage(param, text);
    out->hint = "Value exceeds integer range.";
    return;
  }
  out->number = val;
  out->rounded = val != out->exact;
  if (val < param.min || val > param.max) {
    out->problem = ValueProblem::kOutOfRange;
    out->message = OutOfRangeMessage(major, param, FormatWhole(val), param.min_val, param.max_val);
    return;
  }
  out->normalized = FormatWhole(val);
}

void ParseRealValue(int major, const Parameter& param, const std::string& text, ParsedValue* out) {
  const char* s = text.c_str();
  char* end = nullptr;
  errno = 0;
  double val = strtod(s, &end);
  if (!FinishNumber(param, text, end, &val, out)) return;
  out->exact = val;  // reals are not rounded: only the unit conversion counts
  out->number = val;
  if (val < param.min || val > param.max) {
    out->problem = ValueProblem::kOutOfRange;
    out->message = OutOfRangeMessage(major, param, FormatReal(val), FormatReal(param.min), FormatReal(param.max));
    return;
  }
  out->normalized = FormatReal(val);
}

void ParseEnum(const Parameter& param, const std::string& text, ParsedValue* out) {
  for (const char* v : param.enumvals) {
    if (strcasecmp(v, text.c_str()) == 0) {
      out->normalized = v;
      // Values sharing an internal number print as the first of them (on -> pglz).
      for (const HiddenEnumValue& o : param.enumval_output)
        if (strcmp(o.spelling, v) == 0) out->normalized = o.canonical;
      return;
    }
  }
  for (const HiddenEnumValue& h : param.hidden_enumvals) {
    if (strcasecmp(h.spelling, text.c_str()) == 0) {
      out->normalized = h.canonical;
      return;
    }
  }
  for (const char* v : param.build_dependent_enumvals) {
    if (strcasecmp(v, text.c_str()) == 0) {
      out->normalized = v;
      return;
    }
  }
  out->problem = ValueProblem::kInvalid;
  out->message = InvalidValueMessage(param, text);
  std::string hint = "Available values: ";
  for (size_t i = 0; i < param.enumvals.size(); ++i) {
    if (i) hint += ", ";
    hint += param.enumvals[i];
  }
  out->hint = hint + ".";
}

}  // namespace

bool ParseBool(std::string_view value, bool* result) {
  size_t len = value.size();
  if (len == 0) return false;
  auto prefix_of = [&](const char* word, size_t min_len) {
    size_t n = std::max(len, min_len);
    if (n > strlen(word)) return false;
    return strncasecmp(std::string(value).c_str(), word, n) == 0;
  };
  switch (value[0]) {
    case 't': case 'T':
      if (prefix_of("true", 1)) return *result = true, true;
      break;
    case 'f': case 'F':
      if (prefix_of("false", 1)) return *result = false, true;
      break;
    case 'y': case 'Y':
      if (prefix_of("yes", 1)) return *result = true, true;
      break;
    case 'n': case 'N':
      if (prefix_of("no", 1)) return *result = false, true;
      break;
    case 'o': case 'O':
      // "on" and "off" need two characters: a lone "o" is ambiguous.
      if (prefix_of("on", 2)) return *result = true, true;
      if (prefix_of("off", 2)) return *result = false, true;
      break;
    case '1':
      if (len == 1) return *result = true, true;
      break;
    case '0':
      if (len == 1) return *result = false, true;
      break;
    default:
      break;
  }
  return false;
}

Dim UnitDim(const Parameter& param) {
  switch (param.unit_kind) {
    case UnitKind::kMemory: return Dim::kBytes;
    case UnitKind::kTime: return Dim::kMs;
    case UnitKind::kNone: break;
  }
  return Dim::kNone;
}

std::string ShownWithUnit(const Parameter& param, const std::string& value) {
  if (param.type != VarType::kInteger || param.unit_kind == UnitKind::kNone) return value;
  char* end = nullptr;
  double v = strtod(value.c_str(), &end);
  return end && *end == '\0' && end != value.c_str() ? FormatWithUnit(v, param) : value;
}

std::string FormatWithUnit(double value, const Parameter& param) {
  // Beyond int64's range (a snapshot's "1e30" or "inf"), the cast would be
  // undefined, and no integer parameter takes such a value: as written.
  if (param.unit_kind == UnitKind::kNone || !(std::fabs(value) < 9e18)) return FormatWhole(std::trunc(value));
  int64_t v = static_cast<int64_t>(value);
  if (v == -1) return "-1";  // the "automatic"/"disabled" sentinel has no unit
  if (v == 0) return "0";  // as SHOW: units only for positive values
  return FormatExactUnit(v, BaseAmount(param), UnitDim(param));
}

std::string OutOfRangeMessage(int major, const Parameter& param, const std::string& value, const std::string& min,
                              const std::string& max) {
  const std::string unit = UnitSuffix(param), bound = major >= 17 ? unit : "";
  return value + unit + " is outside the valid range for parameter " + DoubleQuoted(param.name) + " (" + min + bound +
         " .. " + max + bound + ")";
}

ParsedValue ParseValue(const Catalog& catalog, const Parameter& param, std::string_view value) {
  ParsedValue out;
  std::string text(value);
  switch (param.type) {
    case VarType::kBool: {
      bool b;
      if (!ParseBool(text, &b)) {
        out.problem = ValueProblem::kInvalid;
        out.message = "parameter " + DoubleQuoted(param.name) + " requires a Boolean value";
      } else {
        out.normalized = b ? "on" : "off";
      }
      break;
    }
    case VarType::kInteger: ParseInteger(catalog.major(), param, text, &out); break;
    case VarType::kReal: ParseRealValue(catalog.major(), param, text, &out); break;
    case VarType::kEnum: ParseEnum(param, text, &out); break;
    case VarType::kString: out.normalized = text; break;
  }
  return out;
}

}  // namespace pgconflint
