// The rule-file reader: TOML text with [[rule]] entries, as in rules/*.toml.
// The one reader of rule declarations, linked into the build-time generator
// (the built-in rules) and into the runtime (--rules, extra-rules). A rule is
// checked completely when it loads: required keys and their types, unknown
// keys, code and kebab-case name, severity, fatal, versions, category,
// duplicates, the `when` condition, every {placeholder} of message and help,
// every anchor, and every name and function these use. Errors name the file
// and the line of the offending key, and suggest the closest known name.
#ifndef PGCONFLINT_CORE_RULE_FILE_H_
#define PGCONFLINT_CORE_RULE_FILE_H_

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/expr.h"
#include "core/rule_names.h"

namespace pgconflint {

enum class Severity { kError, kWarning, kInfo };

std::string_view SeverityName(Severity s);
/// Parses "error" / "warning" / "info"; false if it is none of them.
bool ParseSeverity(std::string_view s, Severity* out);

/// Whether PostgreSQL refuses to start with a file that has this finding.
enum class Fatality { kNo, kYes, kPerServer };
/// Parses "no" / "yes" / "per-server"; false if it is none of them.
bool ParseFatality(std::string_view s, Fatality* out);

/// Parses a rule's `versions`: "14-18", "18-" (open-ended: up to 99), "17",
/// or "" (every major: 0-99). Majors are 1 to 99; false when malformed.
bool ParseVersionRange(std::string_view text, int* min_major, int* max_major);

/// One [[rule]] entry as declared. Keys that are absent hold their default
/// (user rules: severity "warning", category "policy", fatal "no").
struct RuleDecl {
  std::string file;  // the path given to ParseRuleFile
  int line = 0;      // of the [[rule]] header
  std::map<std::string, int, std::less<>> key_lines;  // key -> line of its value
  std::string code, name, severity, category, fatal, summary, why, fix, versions, bad, good;
  std::string when, message, help, evaluator, fix_safety, example_profile;
  std::string example_kind;  // how the examples are read: "" or "conf", "sql", "snapshot", "drift"
  std::string example_context;  // what the examples run against: sql: the cluster's postgresql.auto.conf;
                                // drift: the server snapshot
  std::vector<std::string> anchors;  // parameters to report at, in order: "name" or "name|guard"
  std::vector<std::string> references;
  int example_pg_version = 0;  // 0: the default major
  int min_major = 0, max_major = 99;
  std::shared_ptr<const CompiledExpr> condition;  // the compiled `when`; null when there is none

  /// The line of `key`, or of the entry when the key is absent.
  int Line(std::string_view key) const;
};

struct RuleFileOptions {
  /// Built-in rules (rules/*.toml) document themselves (summary, why, bad,
  /// good, references) and may name a custom evaluator instead of `when`;
  /// user rules need `when` and `message` and may not use the PGC prefix.
  bool builtin = false;
  /// The parameters of every supported major. REQUIRES: non-null.
  const ParameterNames* parameters = nullptr;
  /// The supported majors; example_pg_version must be one of them.
  std::vector<int> majors;
  /// Who has a code or name outside the declarations being read ("built-in
  /// rule PGC201"), or "" when it is free. May be empty.
  std::function<std::string(std::string_view code_or_name)> taken;
  /// Checks an example_profile ("ram=4GB,cpus=4"); null: not checked (the
  /// generator, which cannot link the profile; the runtime checks built-in
  /// rules in tests/unit/rules_test.cc).
  std::function<bool(const std::string& facts, std::string* error)> check_profile;
};

/// Parses the [[rule]] entries of `text`, the contents of `path`, and appends
/// them to *out. False with *error ("PATH:LINE: cause") at the first problem;
/// *out is then unchanged. Codes and names must be unique across *out and
/// options.taken. Never throws for any input.
bool ParseRuleFile(std::string_view text, const std::string& path, const RuleFileOptions& options,
                   std::vector<RuleDecl>* out, std::string* error);

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_RULE_FILE_H_
