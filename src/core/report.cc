// Output formats. The JSON format is a contract (version 1): add fields, never
// rename or remove them.
#include "core/report.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <sstream>

#include "core/quantity.h"
#include "core/value.h"

namespace pgconflint {
namespace {

using nlohmann::json;
using ordered_json = nlohmann::ordered_json;

bool EqualsName(std::string_view a, std::string_view b) { return AsciiLower(a) == AsciiLower(b); }

struct Style {
  bool on;
  std::string operator()(const char* code, const std::string& s) const {
    return on ? std::string("\x1b[") + code + "m" + s + "\x1b[0m" : s;
  }
};

const char* SeverityColor(Severity s) {
  switch (s) {
    case Severity::kError: return "1;31";
    case Severity::kWarning: return "1;33";
    case Severity::kInfo: return "1;36";
  }
  return "1";
}

std::string FilePath(const Analysis& a, const Diagnostic& d) {
  return d.file >= 0 ? a.files[d.file].source.path() : a.root;
}

// Tabs are shown as 4 spaces; returns the display width of `s`.
std::string ExpandTabs(std::string_view s, size_t* width) {
  std::string out;
  size_t w = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c == '\t') {
      out += "    ";
      w += 4;
    } else {
      out += static_cast<char>(c);
      if ((c & 0xC0) != 0x80) ++w;
    }
  }
  *width = w;
  return out;
}

void RenderFull(const Analysis& a, const Diagnostic& d, const Style& st, std::ostringstream& o) {
  const RuleInfo& r = *d.rule;
  std::string sev(SeverityName(d.severity));
  o << st(SeverityColor(d.severity), sev + "[" + r.code + "]") << st("1", ": " + d.message) << "\n";
  std::string pad = " ";
  if (d.file < 0) {
    o << " --> " << a.root << "\n";
  } else {
    const SourceFile& src = a.files[d.file].source;
    Position p = src.PositionOf(d.range.begin);
    Position e = src.PositionOf(d.range.end);
    std::string num = std::to_string(p.line);
    pad = std::string(num.size(), ' ');
    o << pad << st("1;34", "--> ") << src.path() << ":" << p.line << ":" << p.column << "\n";
    o << pad << st("1;34", " |") << "\n";
    std::string_view line = src.LineText(p.line);
    size_t before_width = 0, span_width = 0;
    std::string shown = ExpandTabs(line, &before_width);
    // The caret starts under the first character of the range.
    uint32_t line_start = d.range.begin - (p.column - 1);
    size_t col_bytes = 0;
    for (uint32_t i = line_start; i < d.range.begin; ++i) ++col_bytes;
    ExpandTabs(line.substr(0, std::min(col_bytes, line.size())), &before_width);
    uint32_t end = e.line == p.line ? d.range.end : d.range.begin + 1;
    ExpandTabs(src.text().substr(d.range.begin, end > d.range.begin ? end - d.range.begin : 0), &span_width);
    o << st("1;34", num + " |") << " " << shown << "\n";
    o << pad << st("1;34", " |") << " " << std::string(before_width, ' ')
      << st(SeverityColor(d.severity), std::string(std::max<size_t>(span_width, 1), '^')) << "\n";
  }
  if (!d.help.empty()) o << pad << st("1;34", " = ") << st("1", "help") << ": " << d.help << "\n";
  std::vector<IncludeSite> chain = a.IncludeChain(d.file);
  for (auto it = chain.rbegin(); it != chain.rend(); ++it)
    o << pad << st("1;34", " = ") << "note: included from " << a.files[it->file].source.path() << ":" << it->line
      << "\n";
  if (d.fatal) o << pad << st("1;34", " = ") << "note: PostgreSQL refuses to start with this (fatal)\n";
  o << "\n";
}

void RenderConcise(const Analysis& a, const Diagnostic& d, std::ostringstream& o) {
  Position p{1, 1};
  if (d.file >= 0) p = a.files[d.file].source.PositionOf(d.range.begin);
  o << FilePath(a, d) << ":" << p.line << ":" << p.column << ": " << SeverityName(d.severity) << ": "
    << d.message << " [" << d.rule->code << "]\n";
}

ordered_json SettingJson(const Analysis& a, const EffectiveConfig& eff, const Setting& s) {
  ordered_json j;
  j["name"] = s.name;
  j["raw"] = s.raw;
  j["value"] = s.value ? ordered_json(*s.value) : ordered_json(nullptr);
  std::optional<std::string> e = EffectiveValue(eff, s);
  j["effective"] = e ? ordered_json(*e) : ordered_json(nullptr);
  j["unit"] = s.param && s.param->unit[0] ? ordered_json(s.param->unit) : ordered_json(nullptr);
  j["context"] = s.param ? ordered_json(std::string(ContextName(s.param->context))) : ordered_json(nullptr);
  const SourceFile& src = a.files[s.file].source;
  Position p = src.PositionOf(s.name_range.begin);
  j["file"] = src.path();
  j["line"] = p.line;
  j["column"] = p.column;
  j["applied"] = s.applied;
  if (s.param && !EqualsName(s.param->name, s.name)) j["parameter"] = s.param->name;
  return j;
}

}  // namespace

Summary Summarize(const std::vector<Analysis>& analyses) {
  Summary s;
  for (const Analysis& a : analyses)
    for (const Diagnostic& d : a.diagnostics) {
      if (d.severity == Severity::kError) ++s.errors;
      else if (d.severity == Severity::kWarning) ++s.warnings;
      else ++s.info;
    }
  return s;
}

std::string Render(const std::vector<Analysis>& analyses, int pg_version, const ReportOptions& options) {
  std::ostringstream o;
  Summary sum = Summarize(analyses);
  if (options.format == Format::kJson) {
    ordered_json j;
    j["version"] = 1;
    j["tool"] = {{"name", "pgconflint"}, {"version", options.tool_version}};
    j["pg_version"] = pg_version;
    ordered_json roots = ordered_json::array(), diags = ordered_json::array();
    for (const Analysis& a : analyses) {
      ordered_json r;
      r["path"] = a.root;
      r["fatal"] = a.fatal();
      if (a.failure != Analysis::Failure::kNone) r["error"] = a.failure_message;
      ordered_json settings = ordered_json::array();
      if (a.catalog && a.failure == Analysis::Failure::kNone) {
        EffectiveConfig eff(a);
        for (const Setting& s : a.settings) settings.push_back(SettingJson(a, eff, s));
      }
      r["settings"] = std::move(settings);
      roots.push_back(std::move(r));
      for (const Diagnostic& d : a.diagnostics) {
        const RuleInfo& info = *d.rule;
        ordered_json dj;
        dj["root"] = a.root;
        Position p{1, 1}, e{1, 1};
        if (d.file >= 0) {
          p = a.files[d.file].source.PositionOf(d.range.begin);
          e = a.files[d.file].source.PositionOf(d.range.end);
        }
        dj["file"] = FilePath(a, d);
        dj["line"] = p.line;
        dj["column"] = p.column;
        dj["end_line"] = e.line;
        dj["end_column"] = e.column;
        dj["severity"] = std::string(SeverityName(d.severity));
        dj["fatal"] = d.fatal;
        dj["code"] = info.code;
        dj["name"] = info.name;
        dj["parameter"] = d.parameter.empty() ? ordered_json(nullptr) : ordered_json(d.parameter);
        dj["message"] = d.message;
        dj["help"] = d.help;
        ordered_json chain = ordered_json::array();
        for (const IncludeSite& s : a.IncludeChain(d.file))
          chain.push_back({{"file", a.files[s.file].source.path()}, {"line", s.line}});
        dj["include_chain"] = std::move(chain);
        diags.push_back(std::move(dj));
      }
    }
    j["roots"] = std::move(roots);
    j["diagnostics"] = std::move(diags);
    j["summary"] = {{"roots", analyses.size()}, {"errors", sum.errors}, {"warnings", sum.warnings}, {"info", sum.info}};
    return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  }
  Style st{options.color};
  for (const Analysis& a : analyses) {
    for (const Diagnostic& d : a.diagnostics) {
      if (options.format == Format::kFull) RenderFull(a, d, st, o);
      else RenderConcise(a, d, o);
    }
  }
  if (options.format == Format::kFull) {
    int fatal_roots = 0;
    for (const Analysis& a : analyses) fatal_roots += a.fatal();
    auto plural = [](int n, const char* w) { return std::to_string(n) + " " + w + (n == 1 ? "" : "s"); };
    o << st("1", "Found " + plural(sum.errors, "error") + ", " + plural(sum.warnings, "warning") + ", " +
                     std::to_string(sum.info) + " info") +
             " in " + plural(static_cast<int>(analyses.size()), "root") + " (PostgreSQL " +
             std::to_string(pg_version) + ")";
    if (fatal_roots) o << "; PostgreSQL would refuse to start with " << plural(fatal_roots, "root");
    o << ".\n";
  }
  return o.str();
}

std::optional<std::string> EffectiveValue(const EffectiveConfig& eff, const Setting& s) {
  if (!s.applied || !s.value) return std::nullopt;
  if (!s.param) return s.value;
  // Only the deciding line of a parameter is in effect.
  if (eff.SettingFor(s.param->name) != &s) return std::nullopt;
  std::optional<DerivedValue> d = eff.Derived(s.param->name);
  if (!d || d->value.kind != ExprValue::Kind::kNumber) return s.value;
  double v = d->value.number;
  if (d->value.dim != Dim::kNone && s.param->unit_amount > 0) v /= s.param->unit_amount;
  return s.param->type == VarType::kReal ? FormatReal(v) : FormatWhole(v);
}

std::string RenderShow(const Analysis& a, const std::vector<std::string>& names, bool as_json,
                       std::vector<std::string>* unknown) {
  EffectiveConfig eff(a);
  const Catalog& cat = *a.catalog;
  std::vector<std::string> list = names;
  if (list.empty()) {
    for (const Setting& s : a.settings)
      if (s.param && eff.SettingFor(s.param->name) == &s &&
          std::find(list.begin(), list.end(), s.param->name) == list.end())
        list.push_back(s.param->name);
    for (const std::string& d : eff.DerivedNames()) {
      if (d == "max_backends") continue;
      if (std::find(list.begin(), list.end(), d) == list.end()) list.push_back(d);
    }
  }
  ordered_json arr = ordered_json::array();
  std::ostringstream o;
  size_t width = 0;
  for (const std::string& n : list) width = std::max(width, n.size());
  for (const std::string& n : list) {
    const Parameter* p = cat.Find(n);
    if (!p) {
      // A derived value that is no parameter (max_backends).
      std::optional<DerivedValue> d = eff.Derived(n);
      if (!d) {
        unknown->push_back(n);
        continue;
      }
      if (as_json) {
        arr.push_back({{"name", n}, {"configured", nullptr}, {"unit", nullptr}, {"source", nullptr},
                       {"effective", d->value.Display()}, {"effective_note", d->explanation}, {"context", nullptr}});
      } else {
        o << n << std::string(width - std::min(width, n.size()) + 2, ' ') << d->value.Display() << "  (" << d->explanation
          << ")\n";
      }
      continue;
    }
    const Setting* s = eff.SettingFor(p->name);
    std::string configured = eff.Configured(p->name).value_or("");
    std::string shown = configured;
    if ((p->type == VarType::kInteger) && p->unit_kind != UnitKind::kNone)
      shown = FormatWithUnit(strtod(configured.c_str(), nullptr), *p);
    std::string source = s ? a.files[s->file].source.path() + ":" + std::to_string(s->line) : "default";
    std::optional<DerivedValue> d = eff.Derived(p->name);
    std::string effective = d ? d->value.Display() : shown;
    if (as_json) {
      ordered_json j;
      j["name"] = p->name;
      j["configured"] = configured;
      j["unit"] = p->unit[0] ? ordered_json(p->unit) : ordered_json(nullptr);
      j["source"] = s ? ordered_json({{"file", a.files[s->file].source.path()}, {"line", s->line}}) : ordered_json(nullptr);
      j["effective"] = effective;
      j["effective_note"] = d ? ordered_json(d->explanation) : ordered_json(nullptr);
      j["context"] = std::string(ContextName(p->context));
      arr.push_back(std::move(j));
      continue;
    }
    o << p->name << std::string(width - std::min(width, std::string(p->name).size()) + 2, ' ') << shown;
    if (effective != shown) o << "  -> effective " << effective;
    o << "  (" << source;
    if (d && d->explanation != "as configured" && d->explanation != "set explicitly") o << "; " << d->explanation;
    o << ")\n";
  }
  if (as_json) return arr.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  return o.str();
}

std::string RenderParams(const Catalog& catalog, const std::vector<std::string>& names, bool as_json,
                         std::vector<std::string>* unknown) {
  std::vector<const Parameter*> params;
  if (names.empty()) {
    for (const Parameter& p : catalog.parameters()) params.push_back(&p);
  } else {
    for (const std::string& n : names) {
      const Parameter* p = catalog.Find(n);
      if (!p)
        if (const char* t = catalog.AliasTarget(n)) p = catalog.Find(t);
      if (p) params.push_back(p);
      else unknown->push_back(n);
    }
  }
  auto nullable = [](const char* s, bool present = true) {
    return present && s[0] ? ordered_json(s) : ordered_json(nullptr);
  };
  if (as_json) {
    ordered_json arr = ordered_json::array();
    for (const Parameter* p : params) {
      ordered_json j;
      j["name"] = p->name;
      j["vartype"] = std::string(VarTypeName(p->type));
      j["unit"] = nullable(p->unit);
      j["context"] = std::string(ContextName(p->context));
      j["min_val"] = nullable(p->min_val);
      j["max_val"] = nullable(p->max_val);
      if (p->type == VarType::kEnum) {
        ordered_json ev = ordered_json::array();
        for (const char* v : p->enumvals) ev.push_back(v);
        j["enumvals"] = std::move(ev);
      } else {
        j["enumvals"] = nullptr;
      }
      j["boot_val"] = p->has_boot_val ? ordered_json(p->boot_val) : ordered_json(nullptr);
      j["category"] = p->category;
      j["short_desc"] = p->short_desc;
      j["extra_desc"] = nullable(p->extra_desc);
      ordered_json majors = ordered_json::array();
      for (int m = 14; m < 14 + 8; ++m)
        if (p->majors & (1u << (m - 14))) majors.push_back(m);
      j["majors"] = std::move(majors);
      j["in_pg_settings"] = p->in_pg_settings;
      if (p->type == VarType::kEnum) {
        ordered_json hidden = ordered_json::object();
        for (const HiddenEnumValue& h : p->hidden_enumvals) hidden[h.spelling] = h.canonical;
        j["hidden_enumvals"] = std::move(hidden);
        ordered_json build = ordered_json::array();
        for (const char* v : p->build_dependent_enumvals) build.push_back(v);
        j["build_dependent_enumvals"] = std::move(build);
      }
      arr.push_back(std::move(j));
    }
    return arr.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  }
  std::ostringstream o;
  for (const Parameter* p : params) {
    o << p->name << " (" << VarTypeName(p->type);
    if (p->unit[0]) o << ", unit " << p->unit;
    o << ", context " << ContextName(p->context) << ")\n";
    o << "  " << p->short_desc << "\n";
    if (p->extra_desc[0]) o << "  " << p->extra_desc << "\n";
    if (p->has_boot_val) o << "  default: " << (p->boot_val[0] ? p->boot_val : "''");
    if (p->type == VarType::kInteger && p->unit_kind != UnitKind::kNone && p->has_boot_val)
      o << " (" << FormatWithUnit(std::strtod(p->boot_val, nullptr), *p) << ")";
    o << "\n";
    if (p->min_val[0]) o << "  range: " << p->min_val << " .. " << p->max_val << "\n";
    if (p->type == VarType::kEnum) {
      o << "  values:";
      for (const char* v : p->enumvals) o << " " << v;
      for (const char* v : p->build_dependent_enumvals) o << " " << v << "(build-dependent)";
      o << "\n";
    }
    o << "  category: " << p->category << "\n  majors:";
    for (int m = 14; m < 22; ++m)
      if (p->majors & (1u << (m - 14))) o << " " << m;
    o << "\n\n";
  }
  return o.str();
}

}  // namespace pgconflint
