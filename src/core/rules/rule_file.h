// The rule-file reader: TOML text with [[rule]] entries, as in rules/*.toml.
// The one reader of rule declarations, linked into the build-time generator
// (the built-in rules) and into the runtime (--rules, extra-rules). A rule is
// checked completely when it loads: required keys and their types, unknown
// keys, code and kebab-case name, severity, outcome, versions, category,
// duplicates, the `when` condition, every {placeholder} of message and help,
// every anchor, and every name and function these use. Errors name the file
// and the line of the offending key, and suggest the closest known name.
#ifndef PGCONFLINT_CORE_RULES_RULE_FILE_H_
#define PGCONFLINT_CORE_RULES_RULE_FILE_H_

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/rules/expr.h"
#include "core/rules/rule_names.h"

namespace pgconflint {

enum class Severity { kError, kWarning, kInfo };

std::string_view SeverityName(Severity s);
/// Parses "error" / "warning" / "info"; false if it is none of them.
bool ParseSeverity(std::string_view s, Severity* out);

/// What the server does with a configuration that has a finding. The one
/// fact a finding's severity, its `fatal` flag, the summary and the exit code
/// derive from: every refusal is an error.
enum class Outcome : uint8_t {
  kRefusesStart,   // the server does not start (postgres -C fails; a bad pg_hba.conf at start-up)
  kRefusesReload,  // a reload refuses the file and keeps the old values (pg_ident.conf: not loaded)
  kErrorsWhenRun,  // the statement fails when it runs (SQL)
  kIgnoresLine,    // the server reads the file and skips this line
  kAdvisory,       // the server does what the file says; the finding is advice
};

/// Whether the server refuses something: the finding is an error whatever
/// the rule or the project configuration says.
constexpr bool IsRefusal(Outcome o) {
  return o == Outcome::kRefusesStart || o == Outcome::kRefusesReload || o == Outcome::kErrorsWhenRun;
}
/// "refuses-start", "refuses-reload", "errors-when-run", "ignores-line", "advisory".
std::string_view OutcomeName(Outcome o);
/// What the server does, as a sentence ending: "PostgreSQL refuses to start".
std::string_view OutcomeSentence(Outcome o);
/// Parses an OutcomeName; false if it is none of them.
bool ParseOutcome(std::string_view s, Outcome* out);

/// What applying a rule's fix takes (the rule's `fix_safety`).
enum class FixKind : uint8_t {
  kNone,          // the rule declares none
  kSafe,          // may be applied without review
  kNeedsRestart,  // the change takes a restart
  kReview,        // a reader must decide
};
/// "", "safe", "needs-restart", "review".
std::string_view FixKindName(FixKind k);

/// The majors a rule applies to: [min, max], max 99 meaning "and later".
struct MajorRange {
  int min = 0;
  int max = 99;
  constexpr bool Contains(int major) const { return major >= min && major <= max; }
  /// "14 and later", "14 to 16", "17", "every major".
  std::string Text() const;
};

/// Parses a rule's `versions`: "14-18", "18-" (open-ended: up to 99), "17",
/// or "" (every major: 0-99). Majors are 1 to 99; false when malformed.
bool ParseVersionRange(std::string_view text, int* min_major, int* max_major);

/// One [[rule]] entry as declared. Keys that are absent hold their default
/// (user rules: outcome "advisory", severity "warning" (a refusal: "error"),
/// category "policy").
struct RuleDecl {
  std::string file;  // the path given to ParseRuleFile
  int line = 0;      // of the [[rule]] header
  std::map<std::string, int, std::less<>> key_lines;  // key -> line of its value
  std::string code, name, severity, category, outcome, summary, why, fix, versions, bad, good;
  std::string fatal;  // user rules only: the older spelling of outcome ("yes", "no", "per-server")
  std::string when, message, help, evaluator, fix_safety, example_profile;
  std::string example_kind;  // how the examples are read: "" or "conf", "sql", "snapshot", "drift"
  std::string example_context;  // what the examples run against: sql: the cluster's postgresql.auto.conf;
                                // drift: the server snapshot
  std::vector<std::string> anchors;  // parameters to report at, in order: "name" or "name|guard"
  std::vector<std::string> references;
  int example_pg_version = 0;  // 0: the default major
  int min_major = 0, max_major = 99;
  // Typed once the entry is read: the severity of its advice, the outcome of
  // its findings (per_finding: each finding states its own), its fix's kind.
  Severity severity_level = Severity::kWarning;
  Outcome outcome_value = Outcome::kAdvisory;
  bool per_finding = false;
  FixKind fix_kind = FixKind::kNone;
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

#endif  // PGCONFLINT_CORE_RULES_RULE_FILE_H_
