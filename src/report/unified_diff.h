// Unified diffs of a file's text before and after edits, for
// `check --diff` (what --fix would change).
#ifndef PGCONFLINT_REPORT_UNIFIED_DIFF_H_
#define PGCONFLINT_REPORT_UNIFIED_DIFF_H_

#include <string>

namespace pgconflint {

/// `diff -u` of `before` and `after` with 3 lines of context, labelled
/// a/`path` and b/`path`; "" when they are equal. Lines keep their
/// terminators (CRLF shows as is); a last line without a newline is followed
/// by "\ No newline at end of file".
std::string UnifiedDiff(const std::string& path, const std::string& before, const std::string& after);

}  // namespace pgconflint

#endif  // PGCONFLINT_REPORT_UNIFIED_DIFF_H_
