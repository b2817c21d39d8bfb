// The rule registry: every diagnostic pgconflint can emit is declared once in
// rules/*.toml (code, kebab-case name, severity, category, docs, examples) and
// compiled into this table by pgconflint_embed.
#ifndef PGCONFLINT_CORE_RULES_RULES_H_
#define PGCONFLINT_CORE_RULES_RULES_H_

#include <deque>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/base/file_system.h"
#include "core/rules/rule_file.h"
#include "core/rules/rule_ids.h"

namespace pgconflint {

/// One rule's declaration, typed: built-in rules in the generated table and
/// user rules (RuleSet::AddText) are both made from a RuleDecl's typed parts
/// (core/rules/rule_file.h reads and checks every key once). Strings are never null.
struct RuleInfo {
  RuleId id;             // kUnnamed for a rule C++ does not name
  const char* code;      // "PGC201"
  const char* name;      // "invalid-value"
  Severity severity;     // of the findings that are advice or about skipped lines; a refusal is always an error
  const char* category;  // "syntax", "names", "values", "includes", ...
  Outcome outcome;       // what the server does with a finding of this rule, unless per_finding
  bool per_finding;      // each finding states its outcome (the server's build or host, or the line, decide)
  const char* summary;   // one line: what it finds
  const char* why;       // why it matters (markdown)
  const char* fix;       // what to do
  MajorRange versions;   // the majors it applies to; no finding of it is reported for another
  const char* bad;       // a configuration file that must fire the rule
  const char* good;      // a configuration file that must not
  int example_pg_version;  // 0 = the default major
  const char* const* references;  // null-terminated
  // Declarative rules (rules/*.toml and --rules files): a condition over the
  // effective configuration and the profile; see core/rules/expr.h.
  const char* when;        // "" for rules emitted by C++ code
  const char* message;     // template: {expression} placeholders
  const char* help;        // template for the help line
  const char* anchor;      // newline-separated parameters to report at, in order, each
                           // optionally guarded: "name|condition"
  const char* evaluator;   // a custom evaluator's name (rule_engine.cc), or ""
  FixKind fix_safety;      // what applying its fix takes
  const char* example_profile;  // profile facts for the examples: "ram=4GB,cpus=4"
  const char* example_kind;     // what the examples are: "" or "conf" (a file), "sql", "snapshot", "drift"
  const char* example_context;  // sql: the cluster's postgresql.auto.conf; drift: the snapshot ("" = none)
  bool builtin;
};

/// A built-in rule's condition as the build parsed it (generated with the
/// table; empty for a rule without `when`).
struct ConditionImage {
  std::span<const ExprNodeImage> nodes;
  std::span<const char* const> identifiers;
};

/// Every built-in rule, in code order.
std::span<const RuleInfo> BuiltinRules();
/// The rule C++ names `id` (not kUnnamed).
const RuleInfo& Rule(RuleId id);
/// Finds a built-in rule by code ("PGC201", case-insensitive) or name ("invalid-value"); null if none.
const RuleInfo* FindRule(std::string_view code_or_name);

/// How the runtime reads rule files: names checked against the catalogs of
/// every supported major. `builtin`: as rules/*.toml (see RuleFileOptions).
RuleFileOptions RuntimeRuleFileOptions(bool builtin);

/// The rules of one run: the built-in ones plus user rule files (`--rules`,
/// `extra-rules` in .pgconflint.toml), which use the same TOML format. Owns
/// the user rules' strings. Not copyable (RuleInfo pointers stay valid).
class RuleSet {
 public:
  RuleSet();
  RuleSet(const RuleSet&) = delete;
  RuleSet& operator=(const RuleSet&) = delete;
  ~RuleSet();

  /// Adds the [[rule]] entries of a TOML file on the real disk, validated as rule_file.h says;
  /// false with *error ("FILE:LINE: cause", the line of the offending key),
  /// and then no rule of the file is added. Only regular files are read.
  bool AddFile(const std::string& path, std::string* error);
  /// Adds every *.toml file of a directory, in name order.
  bool AddDirectory(const std::string& dir, std::string* error);
  /// AddDirectory for a directory, else AddFile.
  bool AddPath(const std::string& path, std::string* error);
  /// The same, reading through `fs`.
  bool AddFile(const FileSystem& fs, const std::string& path, std::string* error);
  bool AddDirectory(const FileSystem& fs, const std::string& dir, std::string* error);
  bool AddPath(const FileSystem& fs, const std::string& path, std::string* error);
  /// AddFile for text already read; `path` names it in errors.
  bool AddText(std::string_view text, const std::string& path, std::string* error);

  const std::vector<const RuleInfo*>& rules() const { return all_; }
  /// By code (case-insensitive) or name; null if none.
  const RuleInfo* Find(std::string_view code_or_name) const;
  /// The compiled `when` of a declarative rule (null for C++-emitted ones).
  const CompiledExpr* Condition(const RuleInfo* rule) const;

 private:
  const char* Keep(std::string s);
  std::deque<std::string> strings_;
  std::deque<RuleInfo> user_rules_;
  std::deque<std::vector<const char*>> user_refs_;
  std::vector<const RuleInfo*> all_;
  // Built-in conditions by RuleId; user rules' by rule, and their lower-cased
  // codes and names (hashed: a rule file may hold many rules).
  std::vector<std::shared_ptr<const CompiledExpr>> builtin_conditions_;
  std::unordered_map<const RuleInfo*, std::shared_ptr<const CompiledExpr>> user_conditions_;
  std::unordered_map<std::string, const RuleInfo*> user_keys_;
};

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_RULES_RULES_H_
