// The table of output formats. A format's render function is defined in its
// own file and declared here, next to its entry.
#include "report/reporter.h"

namespace pgconflint {

void RenderFull(const std::vector<Analysis>& analyses, const ReportOptions& options, std::ostream& out);
void RenderConcise(const std::vector<Analysis>& analyses, const ReportOptions& options, std::ostream& out);
void RenderJson(const std::vector<Analysis>& analyses, const ReportOptions& options, std::ostream& out);

namespace {

constexpr Reporter kReporters[] = {
    {"full", "rustc-style: the source line with a caret under the range, help and notes", RenderFull},
    {"concise", "one line per diagnostic: file:line:col: severity: message [CODE]", RenderConcise},
    {"json", "the versioned JSON contract (docs/json-format.md)", RenderJson},
};

}  // namespace

std::span<const Reporter> Reporters() { return kReporters; }

const Reporter* FindReporter(std::string_view name) {
  for (const Reporter& r : kReporters)
    if (name == r.name) return &r;
  return nullptr;
}

}  // namespace pgconflint
