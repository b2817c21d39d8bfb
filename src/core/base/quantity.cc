// The unit table, the quantity parser and the number formatters.
#include "core/base/quantity.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace pgconflint {
namespace {

// postgresql.conf's units, as guc.c's conversion tables spell them: memory
// first then time, each largest first.
constexpr Unit kUnits[] = {
    {"TB", Dim::kBytes, int64_t{1} << 40}, {"GB", Dim::kBytes, int64_t{1} << 30},
    {"MB", Dim::kBytes, int64_t{1} << 20}, {"kB", Dim::kBytes, int64_t{1} << 10},
    {"B", Dim::kBytes, 1},
    {"d", Dim::kMs, 86400000000},          {"h", Dim::kMs, 3600000000},
    {"min", Dim::kMs, 60000000},           {"s", Dim::kMs, 1000000},
    {"ms", Dim::kMs, 1000},                {"us", Dim::kMs, 1},
};
constexpr size_t kMemoryCount = 5;

constexpr double kKB = 1024.0;
constexpr double kMB = 1024.0 * 1024;

const char kNotANumber[] = "not a number";
const char kCaseNote[] = " (case-sensitive, as in postgresql.conf)";

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// Reads the decimal number at the start of `text`: optional sign, digits with
// an optional fraction, an optional exponent. *rest is what follows.
bool ScanNumber(std::string_view text, double* number, std::string_view* rest, std::string* error) {
  size_t i = 0, n = text.size();
  if (i < n && (text[i] == '+' || text[i] == '-')) ++i;
  int digits = 0;
  for (; i < n && IsDigit(text[i]); ++i) ++digits;
  if (i < n && text[i] == '.')
    for (++i; i < n && IsDigit(text[i]); ++i) ++digits;
  if (digits == 0) {
    *error = kNotANumber;
    return false;
  }
  // An exponent needs digits; otherwise the 'e' starts the unit (and strtod
  // would not read it either).
  if (i < n && (text[i] == 'e' || text[i] == 'E')) {
    size_t j = i + 1;
    if (j < n && (text[j] == '+' || text[j] == '-')) ++j;
    if (j < n && IsDigit(text[j])) {
      while (j < n && IsDigit(text[j])) ++j;
      i = j;
    }
  }
  std::string literal(text.substr(0, i));
  *number = std::strtod(literal.c_str(), nullptr);
  if (!std::isfinite(*number)) {  // overflow (ERANGE with HUGE_VAL)
    *error = "number too large";
    return false;
  }
  *rest = text.substr(i);
  return true;
}

std::string AllUnitChoices() {
  return UnitChoices(Dim::kBytes) + " (memory); " + UnitChoices(Dim::kMs) + " (time)";
}

std::string Printf(const char* format, double v) {
  char buf[64];
  int len = std::snprintf(buf, sizeof buf, format, v);
  if (len < static_cast<int>(sizeof buf)) return buf;
  std::string out(static_cast<size_t>(len) + 1, '\0');  // "%.0f" of 1e300
  std::snprintf(out.data(), out.size(), format, v);
  out.resize(static_cast<size_t>(len));
  return out;
}

std::string Int128(__int128 v) {
  if (v == 0) return "0";
  bool negative = v < 0;
  std::string digits;
  for (; v != 0; v /= 10) {
    int d = static_cast<int>(v % 10);
    digits.insert(digits.begin(), static_cast<char>('0' + (d < 0 ? -d : d)));
  }
  return negative ? "-" + digits : digits;
}

// The number part of human display (as rule messages have always shown it):
// whole numbers in full below 1e15, otherwise four significant digits.
std::string HumanNumber(double v) {
  if (std::fabs(v) < 1e15 && v == std::floor(v)) return FormatWhole(v);
  return Printf("%.4g", v);
}

}  // namespace

std::span<const Unit> UnitsOf(Dim dim) {
  std::span<const Unit> all(kUnits);
  switch (dim) {
    case Dim::kBytes: return all.first(kMemoryCount);
    case Dim::kMs: return all.subspan(kMemoryCount);
    case Dim::kNone: break;
  }
  return {};
}

const Unit* FindUnit(std::string_view name) {
  for (const Unit& u : kUnits)
    if (name == u.name) return &u;
  return nullptr;
}

double UnitFactor(const Unit& unit) {
  // One division, so that 1us is the correctly rounded 0.001.
  return unit.dim == Dim::kMs ? static_cast<double>(unit.amount) / 1000.0 : static_cast<double>(unit.amount);
}

std::string UnitChoices(Dim dim) {
  std::span<const Unit> units = UnitsOf(dim);
  std::string out;
  for (size_t i = units.size(); i-- > 0;) {
    if (!out.empty()) out += i == 0 ? " or " : ", ";
    out += units[i].name;
  }
  return out;
}

bool SplitQuantity(std::string_view text, double* number, const Unit** unit, std::string* error) {
  std::string_view rest;
  if (!ScanNumber(text, number, &rest, error)) return false;
  *unit = nullptr;
  if (rest.empty()) return true;
  *unit = FindUnit(rest);
  if (*unit) return true;
  *error = "unknown unit \"" + std::string(rest) + "\"; valid units are " + AllUnitChoices() + kCaseNote;
  return false;
}

bool ParseQuantity(std::string_view text, Quantity* out, std::string* error) {
  double number;
  const Unit* unit;
  if (!SplitQuantity(text, &number, &unit, error)) return false;
  double value = unit ? number * UnitFactor(*unit) : number;
  if (!std::isfinite(value)) {
    *error = "number too large";
    return false;
  }
  *out = {value, unit ? unit->dim : Dim::kNone};
  return true;
}

bool ParseQuantityOf(std::string_view text, Dim dim, double* out, std::string* error) {
  double number;
  std::string_view rest;
  if (!ScanNumber(text, &number, &rest, error)) {
    if (*error == kNotANumber && dim == Dim::kBytes) *error += "; expected a size such as 64GB";
    if (*error == kNotANumber && dim == Dim::kMs) *error += "; expected a duration such as 5min";
    return false;
  }
  if (dim == Dim::kNone) {
    if (!rest.empty()) {
      *error = "expected a plain number, without \"" + std::string(rest) + "\"";
      return false;
    }
    *out = number;
    return true;
  }
  if (rest.empty()) {
    *error = "needs a unit: " + UnitChoices(dim) + kCaseNote;
    return false;
  }
  const Unit* unit = FindUnit(rest);
  if (!unit || unit->dim != dim) {
    *error = (unit ? "\"" + std::string(rest) + "\" is not a " + (dim == Dim::kBytes ? "memory" : "time") + " unit"
                   : "unknown unit \"" + std::string(rest) + "\"") +
             "; valid units are " + UnitChoices(dim) + kCaseNote;
    return false;
  }
  *out = number * UnitFactor(*unit);
  if (!std::isfinite(*out)) {
    *error = "number too large";
    return false;
  }
  return true;
}

std::string FormatHuman(double value, Dim dim) {
  if (dim == Dim::kBytes) {
    for (const Unit& u : UnitsOf(Dim::kBytes)) {
      double f = UnitFactor(u);
      if (f < kKB || std::fabs(value) < f) continue;
      double q = value / f;
      if (q == std::floor(q)) return FormatWhole(q) + u.name;
      if (std::fabs(value) >= 10 * f) return Printf("%.1f", q) + u.name;
    }
    return HumanNumber(value) + "B";
  }
  if (dim == Dim::kMs) {
    for (const Unit& u : UnitsOf(Dim::kMs)) {
      double f = UnitFactor(u);
      if (f < 1000) break;  // seconds are the smallest unit shown instead of ms
      if (value != 0 && std::fmod(value, f) == 0) return HumanNumber(value / f) + u.name;
    }
    return HumanNumber(value) + "ms";
  }
  return HumanNumber(value);
}

std::string FormatExactUnit(int64_t count, int64_t unit_amount, Dim dim) {
  __int128 amount = static_cast<__int128>(count) * unit_amount;
  for (const Unit& u : UnitsOf(dim))
    if (amount % u.amount == 0) return Int128(amount / u.amount) + u.name;
  return Int128(amount);  // dim is kNone
}

std::string FormatConfSize(double bytes) {
  if (!(bytes >= 0) || !std::isfinite(bytes)) return "0kB";
  double mb = std::floor(bytes / kMB);
  if (mb < 1) return FormatWhole(std::floor(bytes / kKB)) + "kB";
  if (std::fmod(mb, kMB) == 0) return FormatWhole(mb / kMB) + "TB";
  if (std::fmod(mb, kKB) == 0) return FormatWhole(mb / kKB) + "GB";
  return FormatWhole(mb) + "MB";
}

std::string FormatWhole(double v) {
  if (v == 0) v = 0;  // -0.0 prints as "0", as an integer would
  return Printf("%.0f", v);
}

std::string FormatNumber(double v) { return v == std::floor(v) ? FormatWhole(v) : Printf("%g", v); }

std::string FormatReal(double v) { return Printf("%g", v); }

}  // namespace pgconflint
