// `check --output FMT[=PATH]` (repeatable): one run renders several formats,
// each to standard output or to a file written atomically; and, under GitHub
// Actions, the markdown summary appended to $GITHUB_STEP_SUMMARY.
#ifndef PGCONFLINT_CLI_OUTPUTS_H_
#define PGCONFLINT_CLI_OUTPUTS_H_

#include <ostream>
#include <string>
#include <vector>

#include "core/model/analysis.h"
#include "report/reporter.h"

namespace pgconflint::cli {

/// One requested output.
struct OutputSpec {
  const Reporter* reporter = nullptr;
  std::string path;  // "" = standard output
};

/// Parses "FMT" or "FMT=PATH". False with *error naming the formats when FMT
/// is not one, or PATH is empty.
bool ParseOutput(const std::string& spec, OutputSpec* out, std::string* error);

/// Renders every output; the standard-output ones to `standard_output`. Files are rendered in full, then written atomically
/// (core/base/atomic_write.h): a file that cannot be written is left as it was
/// and the result is kExitInternal after saying why. When an output is the
/// `github` format and `step_summary` (the value of $GITHUB_STEP_SUMMARY) is
/// set, the markdown report is appended to that file too.
/// Every password in the analyses is masked first (core/model/secrets.h): no
/// format prints one; and long texts are abridged (core/model/echo_limit.h).
int WriteOutputs(const std::vector<OutputSpec>& outputs, std::vector<Analysis>* analyses,
                 const ReportOptions& options, const std::string& step_summary, std::ostream& standard_output);

}  // namespace pgconflint::cli

#endif  // PGCONFLINT_CLI_OUTPUTS_H_
