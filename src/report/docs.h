// Rule documentation: `pgconflint explain` and the generated docs/rules/
// pages (kept in sync with rules/*.toml by tests/unit/docs_test.cc).
#ifndef PGCONFLINT_REPORT_DOCS_H_
#define PGCONFLINT_REPORT_DOCS_H_

#include <string>

#include "core/rules/rules.h"

namespace pgconflint {

/// One rule's page: what it does, why it matters, bad and good examples with
/// the finding the bad one produces, fix safety, versions, references.
std::string RuleDocMarkdown(const RuleInfo& rule, const RuleSet& rules);

/// The index page listing every rule.
std::string RuleIndexMarkdown(const RuleSet& rules);

/// Writes README.md and <name>.md for every rule into `dir` (created if
/// needed), each atomically (core/base/atomic_write.h). False with *error on failure.
bool WriteRuleDocs(const RuleSet& rules, const std::string& dir, std::string* error);

}  // namespace pgconflint

#endif  // PGCONFLINT_REPORT_DOCS_H_
