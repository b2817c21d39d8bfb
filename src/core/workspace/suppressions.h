// Suppressions: `# pgconflint: disable=...` directives applied to an
// analysis' diagnostics, with PGC901-PGC903 for directives that match no
// finding, name no rule, or say nothing understood.
#ifndef PGCONFLINT_CORE_WORKSPACE_SUPPRESSIONS_H_
#define PGCONFLINT_CORE_WORKSPACE_SUPPRESSIONS_H_

#include "core/model/analysis.h"
#include "core/rules/rules.h"

namespace pgconflint {

/// Removes the diagnostics the files' directives suppress (PGC9xx findings
/// are never suppressed) and adds PGC901-PGC903. Linear in the number of
/// diagnostics and directives.
void ApplySuppressions(const RuleSet& rules, Analysis* a);

/// The fix that suppresses `d` (a comment line above its line), or false when
/// it has no line or is itself about a suppression.
bool SuppressionFix(const Analysis& a, const Diagnostic& d, Fix* out);

/// The fix that suppresses `d`'s rule in its whole file (a `disable-file`
/// comment as the first line), or false as SuppressionFix. Like it, the
/// comment silences `d` and matches it, so it never makes a PGC901.
bool SuppressionFileFix(const Analysis& a, const Diagnostic& d, Fix* out);

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_WORKSPACE_SUPPRESSIONS_H_
