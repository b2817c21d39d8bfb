// The whole `check` pipeline for one root: project configuration, analysis,
// rules, suppressions in comments, rule selection and severity overrides.
#ifndef PGCONFLINT_CORE_LINTER_H_
#define PGCONFLINT_CORE_LINTER_H_

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/analysis.h"
#include "core/profile.h"
#include "core/project_config.h"
#include "core/rules.h"

namespace pgconflint {

struct LintOptions {
  int pg_version = 0;           // 0: from the config file, else the default major
  bool use_config = true;       // --no-config turns it off
  std::string config_path;      // --config FILE: use it for every root
  std::vector<std::pair<std::string, std::string>> profile_facts;  // flags, applied over the config's
  std::vector<std::string> rule_paths;  // --rules DIR|FILE
  std::vector<std::string> select;      // --select, replaces the config's when non-empty
  std::vector<std::string> ignore;      // --ignore, added to the config's
  const std::map<std::string, std::string>* running = nullptr;  // --running FILE
  std::string display_base;
};

/// Lints roots; keeps the configuration files and rule sets it loaded, so the
/// analyses' rule pointers stay valid as long as the Linter lives.
class Linter {
 public:
  explicit Linter(LintOptions options);
  ~Linter();

  /// Lints `root`. Returns false with *error for a configuration problem
  /// (a malformed .pgconflint.toml or rule file, a bad profile fact): exit 2.
  bool Lint(const std::string& root, Analysis* out, std::string* error);

  /// The configuration that applied to the last linted root.
  const ProjectConfig& config() const { return *last_config_; }
  int pg_version() const { return last_major_; }

 private:
  struct Loaded;
  bool LoadFor(const std::string& root, const Loaded** out, std::string* error);
  LintOptions options_;
  std::map<std::string, std::unique_ptr<Loaded>> loaded_;  // by config path ("" = none)
  const ProjectConfig* last_config_ = nullptr;
  int last_major_ = 0;
};

/// Applies `# pgconflint:` comment directives of the analysed files to its
/// diagnostics, adding PGC901-PGC903 for unused, unknown and malformed ones.
void ApplySuppressions(const RuleSet& rules, Analysis* a);

/// Analysis, rules and suppressions over configuration text named `name` (for
/// rule examples, docs and editors): no config file, no selection.
/// Paths below `display_base` (absolute) are shown relative to it.
Analysis LintText(const std::string& name, const std::string& text, const Catalog& catalog,
                  const RuleSet& rules, const Profile& profile, const std::string& display_base = "");

/// The `pg-version=N` directive of the root file's comments, or 0.
int PgVersionDirective(const std::string& root_text);

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_LINTER_H_
