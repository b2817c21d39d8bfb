// Rendering analyses: the `full` (rustc/ruff style), `concise` and versioned
// `json` formats of `pgconflint check`, and the parameter catalog.
#ifndef PGCONFLINT_CORE_REPORT_H_
#define PGCONFLINT_CORE_REPORT_H_

#include <string>
#include <vector>

#include "core/analysis.h"
#include "core/effective.h"

namespace pgconflint {

enum class Format { kFull, kConcise, kJson };

struct ReportOptions {
  Format format = Format::kFull;
  bool color = false;
  std::string tool_version;
};

/// Counts per severity over all analyses.
struct Summary {
  int errors = 0;
  int warnings = 0;
  int info = 0;
};
Summary Summarize(const std::vector<Analysis>& analyses);

/// Renders the analyses of one `check` run.
std::string Render(const std::vector<Analysis>& analyses, int pg_version, const ReportOptions& options);

/// `pgconflint show` output: configured and effective values with their
/// source line, for `names` (default: every parameter the files set, and the
/// derived values). Unknown names are appended to `unknown`.
std::string RenderShow(const Analysis& analysis, const std::vector<std::string>& names, bool json,
                       std::vector<std::string>* unknown);

/// The effective value of an applied setting, as `postgres -C` would print a
/// value in the parameter's base unit (e.g. io_max_concurrency -1 -> "64").
std::optional<std::string> EffectiveValue(const EffectiveConfig& eff, const Setting& s);

/// `pgconflint params` output for `names` (all when empty); unknown names are
/// appended to `unknown`.
std::string RenderParams(const Catalog& catalog, const std::vector<std::string>& names, bool json,
                         std::vector<std::string>* unknown);

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_REPORT_H_
