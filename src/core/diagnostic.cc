// The diagnostic builder.
#include "core/diagnostic.h"

namespace pgconflint {

Diagnostic MakeDiagnostic(const RuleInfo& rule, Location where, std::string message, std::string help,
                          std::string parameter) {
  Diagnostic d;
  d.rule = &rule;
  d.severity = rule.default_severity();
  d.fatal = rule.fatality() == Fatality::kYes;
  d.file = where.file;
  d.range = where.range;
  d.parameter = std::move(parameter);
  d.message = std::move(message);
  d.help = std::move(help);
  return d;
}

Fix MakeFix(std::string title, FixSafety safety, Location where, std::string text) {
  Fix f;
  f.title = std::move(title);
  f.safety = safety;
  f.edits.push_back({where, std::move(text)});
  return f;
}

}  // namespace pgconflint
