// Applying directives to diagnostics.
#include "core/workspace/suppressions.h"

#include <map>

#include "core/model/directives.h"
#include "core/workspace/project_config.h"

namespace pgconflint {
namespace {

struct Active {
  Directive directive;
  int file;
  std::vector<bool> used;  // per selector
};

void AddMeta(Analysis* a, const RuleSet& rules, RuleId id, int file, Range range, std::string msg,
             std::string help) {
  Diagnostic d = MakeDiagnostic(*rules.Find(Rule(id).code), {file, range}, std::move(msg), std::move(help));
  a->Add(std::move(d));
}

bool IsMeta(const Diagnostic& d) { return std::string_view(d.rule->code).substr(0, 4) == "PGC9"; }

// Collects every file's directives; reports malformed ones and unknown rules.
std::vector<Active> Collect(const RuleSet& rules, Analysis* a) {
  std::vector<Active> active;
  for (int f = 0; f < static_cast<int>(a->files.size()); ++f) {
    FileDirectives fd = ReadDirectives(a->files[f].source.text(), a->files[f].parsed);
    for (const MalformedDirective& m : fd.malformed)
      AddMeta(a, rules, RuleId::kMalformedSuppression, f, m.comment,
              m.item.empty() ? "empty pgconflint directive" : "malformed pgconflint directive \"" + m.item + "\"",
              "write `# pgconflint: disable=PGC202` (this line, or the next setting when the comment stands "
              "alone), `disable-file=CODE`, `pg-version=17`, or `file-type=conf|hba|ident` on the first line; a "
              "reason may follow the codes");
    for (Directive& d : fd.directives) {
      if (d.kind == Directive::Kind::kPgVersion) {
        if (!d.pg_version || !Catalog::ForMajor(d.pg_version))
          AddMeta(a, rules, RuleId::kMalformedSuppression, f, d.comment,
                  "pg-version=" + d.version_text + " names no supported major", "use one of " + SupportedMajorsText());
        continue;
      }
      std::vector<std::string> known;
      for (const std::string& sel : d.selectors) {
        bool ok = false;
        for (const RuleInfo* r : rules.rules()) ok = ok || SelectorMatches(sel, *r);
        if (ok) known.push_back(sel);
        else
          AddMeta(a, rules, RuleId::kUnknownRuleInSuppression, f, d.comment,
                  "the directive names \"" + sel + "\", which is no rule code, name or prefix",
                  "see `pgconflint explain --list`");
      }
      d.selectors = std::move(known);
      std::vector<bool> used(d.selectors.size(), false);
      active.push_back({std::move(d), f, std::move(used)});
    }
  }
  return active;
}

}  // namespace

void ApplySuppressions(const RuleSet& rules, Analysis* a) {
  std::vector<Active> active = Collect(rules, a);
  if (active.empty()) return;
  // Index: (file, line) -> directives for that line; file -> file-wide ones.
  std::map<std::pair<int, uint32_t>, std::vector<size_t>> by_line;
  std::map<int, std::vector<size_t>> by_file;
  for (size_t i = 0; i < active.size(); ++i) {
    const Active& x = active[i];
    if (x.directive.kind == Directive::Kind::kDisableFile) by_file[x.file].push_back(i);
    else if (x.directive.line) by_line[{x.file, x.directive.line}].push_back(i);
  }
  std::vector<Diagnostic> kept;
  kept.reserve(a->diagnostics.size());
  for (Diagnostic& d : a->diagnostics) {
    bool suppressed = false;
    if (d.file >= 0 && !IsMeta(d)) {
      auto match = [&](const std::vector<size_t>& list) {
        for (size_t i : list) {
          Active& x = active[i];
          for (size_t k = 0; k < x.directive.selectors.size(); ++k)
            if (SelectorMatches(x.directive.selectors[k], *d.rule)) {
              x.used[k] = true;
              suppressed = true;
            }
        }
      };
      auto l = by_line.find({d.file, a->files[d.file].source.LineOf(d.range.begin)});
      if (l != by_line.end()) match(l->second);
      auto f = by_file.find(d.file);
      if (f != by_file.end()) match(f->second);
    }
    if (!suppressed) kept.push_back(std::move(d));
  }
  a->diagnostics = std::move(kept);
  for (const Active& x : active)
    for (size_t k = 0; k < x.directive.selectors.size(); ++k)
      if (!x.used[k])
        AddMeta(a, rules, RuleId::kUnusedSuppression, x.file, x.directive.comment,
                "the suppression of \"" + x.directive.selectors[k] + "\" matches no finding" +
                    (x.directive.kind == Directive::Kind::kDisableNext && x.directive.line == 0
                         ? " (no setting follows it)"
                         : ""),
                "remove it, so that it cannot hide a future finding");
}

bool SuppressionFix(const Analysis& a, const Diagnostic& d, Fix* out) {
  if (d.file < 0 || IsMeta(d)) return false;
  const LoadedFile& file = a.files[d.file];
  const std::string& text = file.source.text();
  // A comment on its own line applies to the next line with a setting or a
  // syntax error: right for a diagnostic on such a line; any other line needs
  // a file-wide directive.
  uint32_t line = file.source.LineOf(d.range.begin);
  bool on_setting = false;
  for (const SettingLine& s : file.parsed.settings) on_setting = on_setting || s.line == line;
  for (const SyntaxError& e : file.parsed.errors) on_setting = on_setting || e.line == line;
  if (!on_setting) return SuppressionFileFix(a, d, out);
  size_t begin = d.range.begin == 0 ? std::string::npos : text.rfind('\n', d.range.begin - 1);
  begin = begin == std::string::npos ? 0 : begin + 1;
  // Keep the line's indentation so the comment sits with the setting.
  size_t indent = begin;
  while (indent < text.size() && (text[indent] == ' ' || text[indent] == '\t')) ++indent;
  std::string comment = text.substr(begin, indent - begin) + "# pgconflint: disable=" + d.rule->code + "\n";
  uint32_t at = static_cast<uint32_t>(begin);
  *out = MakeFix(std::string("disable ") + d.rule->code + " for this line", FixSafety::kUnsafe, {d.file, {at, at}},
                 comment);
  return true;
}

bool SuppressionFileFix(const Analysis& a, const Diagnostic& d, Fix* out) {
  if (d.file < 0 || IsMeta(d)) return false;
  *out = MakeFix(std::string("disable ") + d.rule->code + " for this file", FixSafety::kUnsafe, {d.file, {0, 0}},
                 std::string("# pgconflint: disable-file=") + d.rule->code + "\n");
  return true;
}

}  // namespace pgconflint
