// The project configuration file, `.pgconflint.toml`, found by walking up
// from each checked file (like ruff and Squawk):
//
//   pg-version = 18
//   fail-on = "warning"
//   select = ["PGC"]                 # codes, names or code prefixes; default all
//   ignore = ["PGC204", "setting-overridden"]
//   extra-rules = ["policies"]       # directories or files of [[rule]] entries
//   include = ["deploy/pg/*.conf"]   # more configuration files (pre-commit, --force-exclude)
//   exclude = ["legacy/"]            # never checked when given with --force-exclude
//   allow-outside-includes = false   # read includes outside the checked tree
//   cluster = "data"                 # what SQL scripts run against (default: the only data directory)
//   [severity]
//   PGC303 = "warning"
//   [per-file-ignores]
//   "conf.d/*.conf" = ["PGC303"]
//   [format]
//   align = false                    # `format`: line up the '=' of consecutive settings
//   [profile]
//   ram = "64GB"
//   cpus = 16
//   storage = "nvme"
//   [profile.tablespaces]
//   archive = "cold-object"
#ifndef PGCONFLINT_CORE_WORKSPACE_PROJECT_CONFIG_H_
#define PGCONFLINT_CORE_WORKSPACE_PROJECT_CONFIG_H_

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/base/file_system.h"
#include "core/rules/profile.h"
#include "core/rules/rules.h"

namespace pgconflint {

struct ProjectConfig {
  std::string path;  // the file it was read from; "" for none
  std::optional<int> pg_version;
  std::optional<std::string> fail_on;
  std::vector<std::string> select;  // empty = every rule
  std::vector<std::string> ignore;
  std::map<std::string, Severity> severity;  // code or name -> severity
  std::vector<std::pair<std::string, std::vector<std::string>>> per_file_ignores;  // glob -> selectors
  std::vector<std::string> extra_rules;  // absolute paths
  std::vector<std::string> extension_catalogs;  // absolute paths (docs/extension-catalog.md)
  Profile profile;
  bool recommendation_hints = true;  // `check` quotes `recommend` for far-off settings
  /// Globs relative to the config file's directory: files that are
  /// configuration besides postgresql.conf, postgresql.auto.conf and
  /// conf.d/*.conf (`include`), and files never checked when a tool passes
  /// them with --force-exclude (`exclude`).
  std::vector<std::string> include, exclude;
  /// Read included files (and extra-rules) outside the tree being checked
  /// (core/model/settings_source.h); false: they are PGC305 and not read.
  bool allow_outside_includes = false;
  /// The data directory or postgresql.conf that SQL scripts run against
  /// (absolute); "": the tree's only data directory, if it has one.
  std::string cluster;
  /// `pgconflint format` and the editor's formatting: pad names so that the
  /// '=' of consecutive settings line up (core/conf/format.h).
  bool format_align = false;
};

/// The nearest .pgconflint.toml at or above `start` (a file or directory),
/// absolute; "" if none.
std::string FindProjectConfig(const FileSystem& fs, const std::string& start);

/// Reads `path` through `fs`; false with *error ("FILE:LINE: cause") on a
/// missing or malformed file.
bool LoadProjectConfig(const FileSystem& fs, const std::string& path, ProjectConfig* out, std::string* error);

/// Whether the absolute path `abs` matches one of `globs` (relative to the
/// config file's directory; fnmatch, '*' crossing '/'; a glob without '/'
/// also matches the file name; "dir/" everything below dir).
bool MatchesGlobs(const ProjectConfig& config, const std::vector<std::string>& globs, const std::string& abs);

/// Whether `selector` (a code, a kebab name, a code prefix such as "PGC2",
/// or "ALL") selects `rule`.
bool SelectorMatches(const std::string& selector, const RuleInfo& rule);

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_WORKSPACE_PROJECT_CONFIG_H_
