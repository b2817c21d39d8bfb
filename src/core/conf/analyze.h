// The short way to analyse one postgresql.conf tree without a workspace:
// collect its settings through a FileSystem and run the passes (no rules,
// no project configuration). For tests, the recommender and benchmarks;
// front ends use the Workspace.
#ifndef PGCONFLINT_CORE_CONF_ANALYZE_H_
#define PGCONFLINT_CORE_CONF_ANALYZE_H_

#include <string>

#include "core/model/analysis.h"
#include "core/base/file_system.h"
#include "core/base/host.h"

namespace pgconflint {

struct AnalyzeOptions {
  const Catalog* catalog = nullptr;  // REQUIRES: non-null
  const FileSystem* fs = nullptr;    // null: the real disk
  const HostFacts* host = nullptr;   // null: this machine, taken to be the server's host
  /// Paths below this directory (absolute) are shown relative to it; "" = as given.
  std::string display_base;
};

/// Analyses `root` (a file or a data directory): reads it with its includes
/// through options.fs and runs the passes. Never throws.
Analysis Analyze(const std::string& root, const AnalyzeOptions& options);

/// Analyses configuration text as if it were the file `name` (for tests,
/// examples and editors); its includes are read through options.fs.
Analysis AnalyzeText(const std::string& name, const std::string& text, const AnalyzeOptions& options);

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_CONF_ANALYZE_H_
