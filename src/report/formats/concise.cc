// The `concise` format: one line per diagnostic, for grep, editors' error
// formats and CI logs, then the summary line. Notes and fixes are not
// printed; file names and messages are escaped, so that a line stays one line,
// and a file name cannot start a CI workflow command (LineStartSafe).
#include "report/reporter.h"
#include "report/text.h"

namespace pgconflint {

void RenderConcise(const std::vector<Analysis>& analyses, const ReportOptions& options, std::ostream& out) {
  for (const Analysis& a : analyses)
    for (const Diagnostic& d : a.diagnostics) {
      Position p;
      if (d.file >= 0) p = a.files[d.file].source.PositionOf(d.range.begin, ColumnUnit::kCodePoint);
      out << LineStartSafe(EscapeControls(FilePath(a, d.file))) << ":" << p.line << ":" << p.column << ": "
          << SeverityName(d.severity()) << ": " << EscapeControls(d.message) << " [" << d.rule->code << "]\n";
    }
  if (options.summary) out << SummaryLine(analyses, options.pg_version, options.pg_version_reason) << "\n";
}

extern const Reporter kFormat_concise;
const Reporter kFormat_concise = {"concise", "one line per diagnostic: file:line:col: severity: message [CODE]", RenderConcise, 20};

}  // namespace pgconflint
