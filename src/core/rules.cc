// Lookup over the generated rule table.
#include "core/rules.h"

#include <cstdlib>

#include "core/catalog.h"

namespace pgconflint {
namespace generated {
extern const RuleInfo kBuiltinRules[];
}

std::string_view SeverityName(Severity s) {
  switch (s) {
    case Severity::kError: return "error";
    case Severity::kWarning: return "warning";
    case Severity::kInfo: return "info";
  }
  return "error";
}

bool ParseSeverity(std::string_view s, Severity* out) {
  if (s == "error") *out = Severity::kError;
  else if (s == "warning") *out = Severity::kWarning;
  else if (s == "info") *out = Severity::kInfo;
  else return false;
  return true;
}

Severity RuleInfo::default_severity() const {
  Severity s = Severity::kError;
  ParseSeverity(severity, &s);
  return s;
}

Fatality RuleInfo::fatality() const {
  std::string_view f = fatal;
  if (f == "yes") return Fatality::kYes;
  if (f == "per-server") return Fatality::kPerServer;
  return Fatality::kNo;
}

std::span<const RuleInfo> BuiltinRules() {
  return {generated::kBuiltinRules, static_cast<size_t>(kBuiltinRuleCount)};
}

const RuleInfo& Rule(RuleId id) {
  const RuleInfo& r = generated::kBuiltinRules[static_cast<int>(id)];
  if (r.id != id) std::abort();  // the generator keeps the table in enum order
  return r;
}

const RuleInfo* FindRule(std::string_view code_or_name) {
  std::string key = AsciiLower(code_or_name);
  for (const RuleInfo& r : BuiltinRules())
    if (AsciiLower(r.code) == key || r.name == key) return &r;
  return nullptr;
}

}  // namespace pgconflint
