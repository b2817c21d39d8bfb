// The rule registry: every diagnostic pgconflint can emit is declared once in
// rules/*.toml (code, kebab-case name, severity, category, docs, examples) and
// compiled into this table by pgconflint_embed.
#ifndef PGCONFLINT_CORE_RULES_H_
#define PGCONFLINT_CORE_RULES_H_

#include <span>
#include <string_view>

#include "rule_ids.h"  // generated

namespace pgconflint {

enum class Severity { kError, kWarning, kInfo };

std::string_view SeverityName(Severity s);
/// Parses "error" / "warning" / "info"; false if it is none of them.
bool ParseSeverity(std::string_view s, Severity* out);

/// Whether PostgreSQL refuses to start with a file that has this finding.
enum class Fatality { kNo, kYes, kPerServer };

/// One rule's declaration. Strings are never null.
struct RuleInfo {
  RuleId id;
  const char* code;      // "PGC201"
  const char* name;      // "invalid-value"
  const char* severity;  // "error" | "warning" | "info"
  const char* category;  // "syntax", "names", "values", "includes", ...
  const char* fatal;     // "yes" | "no" | "per-server"
  const char* summary;   // one line: what it finds
  const char* why;       // why it matters (markdown)
  const char* fix;       // what to do
  const char* versions;  // e.g. "14-18"
  const char* bad;       // a configuration file that must fire the rule
  const char* good;      // a configuration file that must not
  int example_pg_version;  // 0 = the default major
  const char* const* references;  // null-terminated

  Severity default_severity() const;
  Fatality fatality() const;
};

/// Every built-in rule, in code order; Rules()[static_cast<int>(id)] is `id`'s entry.
std::span<const RuleInfo> BuiltinRules();
const RuleInfo& Rule(RuleId id);
/// Finds a rule by code ("PGC201", case-insensitive) or name ("invalid-value"); null if none.
const RuleInfo* FindRule(std::string_view code_or_name);

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_RULES_H_
