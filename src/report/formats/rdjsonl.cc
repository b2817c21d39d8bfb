// The `rdjsonl` format: reviewdog's diagnostic format with one Diagnostic per
// line (`reviewdog -f=rdjsonl`); each line is the Diagnostic of `rdjson`.
#include "report/rdjson.h"
#include "report/reporter.h"
#include "report/text.h"

namespace pgconflint {

void RenderRdjsonl(const std::vector<Analysis>& analyses, const ReportOptions& options, std::ostream& out) {
  for (const Analysis& a : analyses)
    for (const Diagnostic& d : a.diagnostics)
      out << JsonWithoutRawControls(RdjsonDiagnostic(a, d, options.base_dir).dump(-1, ' ', false, kRdjsonReplace)) << "\n";
}

extern const Reporter kFormat_rdjsonl;
const Reporter kFormat_rdjsonl = {"rdjsonl", "reviewdog diagnostic format, one diagnostic per line", RenderRdjsonl, 80};

}  // namespace pgconflint
