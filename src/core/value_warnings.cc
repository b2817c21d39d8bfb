// PGC203-PGC205: values the server accepts but that do not mean what they
// seem to.
#include "core/value_warnings.h"

#include <cctype>
#include <cmath>

namespace pgconflint {
namespace {

std::string Quote(std::string_view s) { return "\"" + std::string(s) + "\""; }

void Warn(Analysis* a, RuleId rule, const Setting& s, std::string message, std::string help) {
  a->Add(MakeDiagnostic(Rule(rule), {s.file, s.value_range}, std::move(message), std::move(help), s.param->name));
}

void Rounded(Analysis* a, const Setting& s, const ParsedValue& v) {
  const Parameter& p = *s.param;
  bool to_zero = v.number == 0 && v.exact != 0;
  Warn(a, RuleId::kValueRounded, s,
       Quote(s.raw) + " is rounded to " + FormatWithUnit(v.number, p) + (to_zero ? ", and 0 often means disabled" : ""),
       "write a whole number of " + std::string(p.unit[0] ? p.unit : "units") + ", the value PostgreSQL will use");
}

void OctalOrHex(Analysis* a, const Setting& s, const ParsedValue& v) {
  const Parameter& p = *s.param;
  bool perms = std::string_view(p.short_desc).find("permissions") != std::string_view::npos;
  if (perms && !v.hex) return;  // file modes are written in octal on purpose
  std::string decimal = s.raw;
  decimal.erase(0, decimal.find_first_not_of("+-0xX"));
  Warn(a, RuleId::kOctalOrHexLiteral, s,
       Quote(s.raw) + (v.octal ? " has a leading zero, so it is octal: " : " is hexadecimal: ") +
           FormatWithUnit(v.number, p),
       v.octal ? "write " + (decimal.empty() ? std::string("0") : decimal) + " if you meant decimal, or " +
                     FormatWithUnit(v.number, p) + " if not"
               : "write the decimal number " + FormatWithUnit(v.number, p));
}

void WithoutUnit(Analysis* a, const Setting& s, const ParsedValue& v) {
  const Parameter& p = *s.param;
  bool blocks = isdigit(static_cast<unsigned char>(p.unit[0]));
  std::string meaning = blocks ? s.raw + " blocks of " + p.unit : s.raw + p.unit;
  std::string shown = FormatWithUnit(v.adjusted ? std::rint(v.exact) : v.number, p);
  Diagnostic d = MakeDiagnostic(Rule(RuleId::kValueWithoutUnit), {s.file, s.value_range},
                                Quote(s.raw) + " has no unit, so it means " + meaning +
                                    (shown != s.raw + p.unit ? " (" + shown + ")" : ""),
                                "write it with a unit: '" + shown + "'", p.name);
  // The same value spelled with its unit: the server reads exactly the same.
  if (!v.adjusted && !v.rounded)
    d.fixes.push_back(MakeFix("write '" + shown + "'", FixSafety::kSafe, {s.file, s.value_range}, "'" + shown + "'"));
  a->Add(std::move(d));
}

}  // namespace

void WarnAboutValue(const Setting& s, const ParsedValue& v, Analysis* a) {
  const Parameter& p = *s.param;
  if (v.rounded) Rounded(a, s, v);
  if (v.octal || v.hex) OctalOrHex(a, s, v);
  if (p.type == VarType::kInteger && p.unit_kind != UnitKind::kNone && !v.has_unit && v.number != 0 &&
      v.number != -1)
    WithoutUnit(a, s, v);
  if (v.adjusted)
    Warn(a, RuleId::kValueRounded, s, Quote(s.raw) + " is " + v.adjustment + " by the server",
         "write the value the server will use");
}

}  // namespace pgconflint
