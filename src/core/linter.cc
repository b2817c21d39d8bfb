// The check pipeline and comment directives.
#include "core/linter.h"

#include <fnmatch.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstring>

#include "core/catalog.h"
#include "core/recommendation_hints.h"
#include "core/rule_engine.h"

namespace pgconflint {

struct Linter::Loaded {
  ProjectConfig config;
  RuleSet rules;
};

Linter::Linter(LintOptions options) : options_(std::move(options)) {}
Linter::~Linter() = default;

bool Linter::LoadFor(const std::string& root, const Loaded** out, std::string* error) {
  std::string path = options_.config_path;
  if (path.empty() && options_.use_config) path = FindProjectConfig(root);
  auto it = loaded_.find(path);
  if (it != loaded_.end()) {
    *out = it->second.get();
    return true;
  }
  auto l = std::make_unique<Loaded>();
  if (!path.empty() && !LoadProjectConfig(path, &l->config, error)) return false;
  for (const auto& [k, v] : options_.profile_facts)
    if (!SetProfileFact(&l->config.profile, k, v, error)) return false;
  std::vector<std::string> rule_paths = l->config.extra_rules;
  rule_paths.insert(rule_paths.end(), options_.rule_paths.begin(), options_.rule_paths.end());
  for (const std::string& p : rule_paths) {
    struct stat st;
    if (stat(p.c_str(), &st) != 0) {
      *error = p + ": " + strerror(errno);
      return false;
    }
    if (!(S_ISDIR(st.st_mode) ? l->rules.AddDirectory(p, error) : l->rules.AddFile(p, error))) return false;
  }
  *out = l.get();
  loaded_[path] = std::move(l);
  return true;
}

namespace {

bool Selected(const std::vector<std::string>& selectors, const RuleInfo& r) {
  for (const std::string& s : selectors)
    if (SelectorMatches(s, r)) return true;
  return false;
}

// A view into `s` without surrounding blanks (never a temporary).
std::string_view Trim(std::string_view s) {
  size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string_view::npos) return {};
  size_t e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

struct Directive {
  enum class Kind { kLine, kNext, kFile } kind;
  int file;
  uint32_t line;       // the line it applies to (kLine, kNext)
  Range range;         // the comment, for PGC901-903
  std::vector<std::string> selectors;
  std::vector<bool> used;
};

void AddMeta(Analysis* a, const RuleSet& rules, RuleId id, int file, Range range, std::string msg,
             std::string help) {
  Diagnostic d = MakeDiagnostic(*rules.Find(Rule(id).code), {file, range}, std::move(msg), std::move(help));
  d.fatal = false;
  a->diagnostics.push_back(std::move(d));
}

}  // namespace

int PgVersionDirective(const std::string& text) {
  size_t pos = 0;
  while ((pos = text.find("pgconflint:", pos)) != std::string::npos) {
    size_t hash = text.rfind('#', pos);
    size_t nl = text.rfind('\n', pos);
    pos += 11;
    if (hash == std::string::npos || (nl != std::string::npos && hash < nl)) continue;
    size_t v = text.find("pg-version=", pos);
    size_t eol = text.find('\n', pos);
    if (v != std::string::npos && (eol == std::string::npos || v < eol)) return atoi(text.c_str() + v + 11);
  }
  return 0;
}

void ApplySuppressions(const RuleSet& rules, Analysis* a) {
  std::vector<Directive> directives;
  for (int f = 0; f < static_cast<int>(a->files.size()); ++f) {
    const LoadedFile& file = a->files[f];
    for (const CommentLine& c : file.parsed.comments) {
      std::string_view text = file.source.Slice(c.range);
      text.remove_prefix(1);  // '#'
      std::string body(Trim(text));
      if (body.rfind("pgconflint:", 0) != 0) continue;
      body = body.substr(11);
      body = body.substr(0, body.find('#'));  // a reason may follow after another '#'
      std::string_view rest = body;
      bool any = false;
      while (!(rest = Trim(rest)).empty()) {
        size_t sp = rest.find_first_of(" \t");
        std::string item(rest.substr(0, sp));
        rest = sp == std::string_view::npos ? std::string_view() : rest.substr(sp);
        size_t eq = item.find('=');
        std::string key = item.substr(0, eq), value = eq == std::string::npos ? "" : item.substr(eq + 1);
        if (key == "pg-version" && !value.empty()) {
          any = true;
          if (!Catalog::ForMajor(atoi(value.c_str())))
            AddMeta(a, rules, RuleId::kMalformedSuppression, f, c.range,
                    "pg-version=" + value + " names no supported major", "use one of 14..18");
          continue;
        }
        if ((key != "disable" && key != "disable-file") || value.empty()) {
          AddMeta(a, rules, RuleId::kMalformedSuppression, f, c.range,
                  "malformed pgconflint directive \"" + item + "\"",
                  "write `# pgconflint: disable=PGC202` (this line, or the next setting when the comment "
                  "stands alone), `disable-file=CODE` or `pg-version=17`");
          any = true;
          continue;
        }
        any = true;
        Directive d;
        d.kind = key == "disable-file" ? Directive::Kind::kFile : c.own_line ? Directive::Kind::kNext : Directive::Kind::kLine;
        d.file = f;
        d.range = c.range;
        d.line = c.line;
        if (d.kind == Directive::Kind::kNext) {
          // The next line with a setting, or with a syntax error.
          d.line = 0;
          for (const SettingLine& s : file.parsed.settings)
            if (s.line > c.line) {
              d.line = s.line;
              break;
            }
          for (const SyntaxError& e : file.parsed.errors)
            if (e.line > c.line && (d.line == 0 || e.line < d.line)) {
              d.line = e.line;
              break;
            }
        }
        size_t start = 0;
        while (start <= value.size()) {
          size_t comma = value.find(',', start);
          std::string sel(Trim(std::string_view(value).substr(start, comma == std::string::npos ? std::string::npos : comma - start)));
          if (!sel.empty()) {
            bool known = false;
            for (const RuleInfo* r : rules.rules()) known |= SelectorMatches(sel, *r);
            if (known) d.selectors.push_back(sel);
            else
              AddMeta(a, rules, RuleId::kUnknownRuleInSuppression, f, c.range,
                      "the directive names \"" + sel + "\", which is no rule code, name or prefix",
                      "see `pgconflint explain --list`");
          }
          if (comma == std::string::npos) break;
          start = comma + 1;
        }
        d.used.assign(d.selectors.size(), false);
        directives.push_back(std::move(d));
      }
      if (!any)
        AddMeta(a, rules, RuleId::kMalformedSuppression, f, c.range, "empty pgconflint directive",
                "write `# pgconflint: disable=PGC202`");
    }
  }
  if (directives.empty()) return;
  std::vector<Diagnostic> kept;
  for (Diagnostic& d : a->diagnostics) {
    bool suppressed = false;
    if (d.file >= 0 && std::string_view(d.rule->code).substr(0, 4) != "PGC9") {
      uint32_t line = a->files[d.file].source.LineOf(d.range.begin);
      for (Directive& dir : directives) {
        if (dir.file != d.file) continue;
        if (dir.kind != Directive::Kind::kFile && dir.line != line) continue;
        for (size_t i = 0; i < dir.selectors.size(); ++i)
          if (SelectorMatches(dir.selectors[i], *d.rule)) {
            dir.used[i] = true;
            suppressed = true;
          }
      }
    }
    if (!suppressed) kept.push_back(std::move(d));
  }
  a->diagnostics = std::move(kept);
  for (const Directive& dir : directives)
    for (size_t i = 0; i < dir.selectors.size(); ++i)
      if (!dir.used[i])
        AddMeta(a, rules, RuleId::kUnusedSuppression, dir.file, dir.range,
                "the suppression of \"" + dir.selectors[i] + "\" matches no finding" +
                    (dir.kind == Directive::Kind::kNext && dir.line == 0 ? " (no setting follows it)" : ""),
                "remove it, so that it cannot hide a future finding");
}

Analysis LintText(const std::string& name, const std::string& text, const Catalog& catalog,
                  const RuleSet& rules, const Profile& profile, const std::string& display_base) {
  AnalyzeOptions ao;
  ao.catalog = &catalog;
  ao.display_base = display_base;
  Analysis a = AnalyzeText(name, text, ao);
  EngineOptions eo;
  eo.rules = &rules;
  eo.profile = &profile;
  RunRules(eo, &a);
  AddRecommendationHints(eo, &a);
  a.fatal_before_filters = a.fatal();
  ApplySuppressions(rules, &a);
  return a;
}

bool Linter::Lint(const std::string& root, Analysis* out, std::string* error) {
  const Loaded* l = nullptr;
  if (!LoadFor(root, &l, error)) return false;
  last_config_ = &l->config;
  int major = options_.pg_version ? options_.pg_version : l->config.pg_version.value_or(Catalog::DefaultMajor());
  AnalyzeOptions ao;
  ao.catalog = Catalog::ForMajor(major);
  ao.display_base = options_.display_base;
  *out = Analyze(root, ao);
  // `# pgconflint: pg-version=N` in the root file wins over the default and
  // the config file, not over an explicit --pg-version.
  if (!options_.pg_version && !out->files.empty()) {
    int d = PgVersionDirective(out->files[0].source.text());
    if (d && d != major && Catalog::ForMajor(d)) {
      major = d;
      ao.catalog = Catalog::ForMajor(major);
      *out = Analyze(root, ao);
    }
  }
  last_major_ = major;
  EngineOptions eo;
  eo.rules = &l->rules;
  eo.profile = &l->config.profile;
  eo.running = options_.running;
  eo.recommendation_hints = l->config.recommendation_hints;
  RunRules(eo, out);
  AddRecommendationHints(eo, out);
  out->fatal_before_filters = out->fatal();
  ApplySuppressions(l->rules, out);
  // Selection: --select replaces the config's list; --ignore adds to it.
  std::vector<std::string> select = options_.select.empty() ? l->config.select : options_.select;
  std::vector<std::string> ignore = l->config.ignore;
  ignore.insert(ignore.end(), options_.ignore.begin(), options_.ignore.end());
  // per-file-ignores globs are relative to the config file's directory.
  const std::string base = l->config.path.substr(0, l->config.path.rfind('/') + 1);
  std::vector<Diagnostic> kept;
  for (Diagnostic& d : out->diagnostics) {
    if (!select.empty() && !Selected(select, *d.rule)) continue;
    if (Selected(ignore, *d.rule)) continue;
    if (d.file >= 0 && !l->config.per_file_ignores.empty()) {
      const LoadedFile& f = out->files[d.file];
      bool skip = false;
      for (const auto& [glob, sels] : l->config.per_file_ignores) {
        std::string rel = f.abs_path;
        if (!base.empty() && rel.compare(0, base.size(), base) == 0) rel = rel.substr(base.size());
        if ((fnmatch(glob.c_str(), rel.c_str(), 0) == 0 || fnmatch(glob.c_str(), f.source.path().c_str(), 0) == 0) &&
            Selected(sels, *d.rule))
          skip = true;
      }
      if (skip) continue;
    }
    for (const auto& [sel, sev] : l->config.severity)
      if (SelectorMatches(sel, *d.rule)) d.severity = sev;
    kept.push_back(std::move(d));
  }
  out->diagnostics = std::move(kept);
  // Re-sort: rules and directives appended their findings at the end.
  out->SortDiagnostics();
  return true;
}

}  // namespace pgconflint
