// Rendering the configuration plan of a change (`pgconflint diff`): text for
// a terminal or a CI log, markdown for the pull-request comment (tables, a
// Mermaid chart of the memory budget with a plain table beside it, at most
// 65,000 characters), JSON for tools.
#ifndef PGCONFLINT_REPORT_CHANGE_REPORT_H_
#define PGCONFLINT_REPORT_CHANGE_REPORT_H_

#include <ostream>
#include <string>
#include <vector>

#include "core/review/change_plan.h"
#include "report/reporter.h"

namespace pgconflint {

struct ChangeReportOptions {
  std::string base_label, head_label;  // "origin/main", "HEAD" or the two directories
  std::string base_before, base_after;  // absolute directories the two revisions' paths are shown relative to
  std::string marker;                   // markdown: an HTML comment that finds the PR comment again
  ReportOptions report;
};

/// Renders `roots` in `format`: "text", "markdown" or "json".
/// REQUIRES: a known format.
void RenderChange(const std::vector<RootChange>& roots, const std::string& format, const ChangeReportOptions& options,
                  std::ostream& out);

/// The formats RenderChange knows, in --help order.
const std::vector<std::string>& ChangeFormats();

}  // namespace pgconflint

#endif  // PGCONFLINT_REPORT_CHANGE_REPORT_H_
