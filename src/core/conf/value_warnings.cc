// PGC203-PGC205: values the server accepts but that do not mean what they
// seem to.
#include "core/conf/value_warnings.h"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <string_view>
#include <vector>

#include "core/base/quantity.h"
#include "core/base/strings.h"

namespace pgconflint {
namespace {

void Warn(Analysis* a, RuleId rule, const Setting& s, std::string message, std::string help) {
  a->Add(MakeDiagnostic(Rule(rule), {s.file, s.value_range}, std::move(message), std::move(help), s.param->name));
}

void Rounded(Analysis* a, const Setting& s, const ParsedValue& v) {
  const Parameter& p = *s.param;
  bool to_zero = v.number == 0 && v.exact != 0;
  Warn(a, RuleId::kValueRounded, s,
       DoubleQuoted(s.raw) + " is rounded to " + FormatWithUnit(v.number, p) + (to_zero ? ", and 0 often means disabled" : ""),
       "write a whole number of " + std::string(p.unit[0] ? p.unit : "units") + ", the value PostgreSQL will use");
}

void OctalOrHex(Analysis* a, const Setting& s, const ParsedValue& v) {
  const Parameter& p = *s.param;
  bool perms = std::string_view(p.short_desc).find("permissions") != std::string_view::npos;
  if (perms && !v.hex) return;  // file modes are written in octal on purpose
  std::string decimal = s.raw;
  decimal.erase(0, decimal.find_first_not_of("+-0xX"));
  Warn(a, RuleId::kOctalOrHexLiteral, s,
       DoubleQuoted(s.raw) + (v.octal ? " has a leading zero, so it is octal: " : " is hexadecimal: ") +
           FormatWithUnit(v.number, p),
       v.octal ? "write " + (decimal.empty() ? std::string("0") : decimal) + " if you meant decimal, or " +
                     FormatWithUnit(v.number, p) + " if not"
               : "write the decimal number " + FormatWithUnit(v.number, p));
}

// A unit a comment names: a word ("seconds", "MB") or a quantity ("30s",
// "512MB"), read case-insensitively.
struct Mention {
  double factor;        // the unit's size in the dimension's base (bytes, ms)
  bool has_number;
  double number;
  std::string spelled;  // as written
};

struct UnitWord {
  const char* word;  // lower case
  const char* unit;  // postgresql.conf spelling
  bool needs_number; // a single letter counts only right after a number ("30s")
};
constexpr UnitWord kUnitWords[] = {
    {"us", "us", true},       {"microsecond", "us", false},  {"microseconds", "us", false},
    {"ms", "ms", false},      {"msec", "ms", false},         {"msecs", "ms", false},
    {"millisecond", "ms", false}, {"milliseconds", "ms", false},
    {"s", "s", true},         {"sec", "s", false},           {"secs", "s", false},
    {"second", "s", false},   {"seconds", "s", false},       {"min", "min", false},
    {"mins", "min", false},   {"minute", "min", false},      {"minutes", "min", false},
    {"h", "h", true},         {"hour", "h", false},          {"hours", "h", false},
    {"d", "d", true},         {"day", "d", false},           {"days", "d", false},
    {"b", "B", true},         {"byte", "B", false},          {"bytes", "B", false},
    {"kb", "kB", false},      {"kib", "kB", false},          {"kilobytes", "kB", false},
    {"mb", "MB", false},      {"mib", "MB", false},          {"megabytes", "MB", false},
    {"gb", "GB", false},      {"gib", "GB", false},          {"gigabytes", "GB", false},
    {"tb", "TB", false},      {"tib", "TB", false},          {"terabytes", "TB", false},
};

// The units of dimension `dim` that `comment` names.
std::vector<Mention> UnitMentions(std::string_view comment, Dim dim) {
  std::vector<Mention> out;
  size_t i = 0;
  while (i < comment.size()) {
    size_t start = i;
    bool has_number = false;
    double number = 0;
    if (isdigit(static_cast<unsigned char>(comment[i]))) {
      number = strtod(std::string(comment.substr(i, 32)).c_str(), nullptr);
      while (i < comment.size() && (isdigit(static_cast<unsigned char>(comment[i])) || comment[i] == '.')) ++i;
      has_number = true;
      while (i < comment.size() && comment[i] == ' ') ++i;
    }
    size_t w = i;
    while (i < comment.size() && isalpha(static_cast<unsigned char>(comment[i]))) ++i;
    std::string word = AsciiLower(comment.substr(w, i - w));
    if (i == start) ++i;  // neither a number nor a word
    for (const UnitWord& u : kUnitWords) {
      if (word != u.word || (u.needs_number && !has_number)) continue;
      const Unit* unit = FindUnit(u.unit);
      if (unit && unit->dim == dim)
        out.push_back({UnitFactor(*unit), has_number, number, std::string(comment.substr(start, i - start))});
    }
  }
  return out;
}

// The comment after the setting on its line, without the '#'.
std::string_view TrailingComment(const Analysis& a, const Setting& s) {
  const LoadedFile& f = a.files[s.file];
  for (const CommentLine& c : f.parsed.comments)
    if (c.line == s.line && !c.own_line) return f.source.Slice(c.range).substr(1);
  return {};
}

// Why a bare number surprises here ("" when it does not): a count of blocks,
// or a comment that names another unit of the same kind and no quantity that
// matches the value.
std::string Surprise(const Analysis& a, const Setting& s, const ParsedValue& v) {
  const Parameter& p = *s.param;
  if (isdigit(static_cast<unsigned char>(p.unit[0]))) return "a count of " + std::string(p.unit) + " blocks";
  const Dim dim = UnitDim(p);
  const Unit* base = FindUnit(p.unit);
  if (!base) return "";
  std::vector<Mention> mentions = UnitMentions(TrailingComment(a, s), dim);
  const double value = v.number * p.unit_amount;  // bytes or ms
  bool names_base = false;
  std::string other;
  for (const Mention& m : mentions) {
    if (m.has_number && std::fabs(m.number * m.factor - value) <= 0.005 * std::fabs(value)) return "";
    if (m.factor == UnitFactor(*base)) names_base = true;
    else if (other.empty()) other = m.spelled;
  }
  if (names_base || other.empty()) return "";
  return "the comment says \"" + other + "\", but a bare number is in " + p.unit;
}

void WithoutUnit(Analysis* a, const Setting& s, const ParsedValue& v) {
  const Parameter& p = *s.param;
  std::string surprise = Surprise(*a, s, v);
  if (surprise.empty()) return;
  bool blocks = isdigit(static_cast<unsigned char>(p.unit[0]));
  std::string meaning = blocks ? s.raw + " blocks of " + p.unit : s.raw + p.unit;
  std::string shown = FormatWithUnit(v.adjusted ? std::rint(v.exact) : v.number, p);
  Diagnostic d = MakeDiagnostic(Rule(RuleId::kValueWithoutUnit), {s.file, s.value_range},
                                DoubleQuoted(s.raw) + " has no unit, so it means " + meaning +
                                    (shown != s.raw + p.unit ? " (" + shown + ")" : "") +
                                    (blocks ? "" : ": " + surprise),
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
    Warn(a, RuleId::kValueRounded, s, DoubleQuoted(s.raw) + " is " + v.adjustment + " by the server",
         "write the value the server will use");
}

}  // namespace pgconflint
