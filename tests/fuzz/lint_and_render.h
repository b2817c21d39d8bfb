// What the lint harnesses share: a workspace over an in-memory file system
// (no project configuration, a host that is not the server's), and every
// output format rendered for its analyses.
#ifndef PGCONFLINT_TESTS_FUZZ_LINT_AND_RENDER_H_
#define PGCONFLINT_TESTS_FUZZ_LINT_AND_RENDER_H_

#include <sstream>
#include <string>
#include <vector>

#include "core/base/file_system.h"
#include "core/base/host.h"
#include "core/workspace/workspace.h"
#include "report/reporter.h"

namespace pgconflint::fuzz {

inline WorkspaceOptions Options(const FileSystem* fs) {
  static const UnknownHost host;
  WorkspaceOptions options;
  options.fs = fs;
  options.host = &host;
  options.use_config = false;
  return options;
}

inline void RenderAll(const Workspace& workspace, const std::vector<Analysis>& analyses) {
  ReportOptions report;
  report.pg_version = workspace.major().major;
  report.tool_version = "fuzz";
  for (const Reporter& r : Reporters()) {
    std::ostringstream out;
    r.render(analyses, report, out);
  }
}

// Lints `path` of `fs` and renders it in every format.
inline void LintAndRender(const FileSystem& fs, const std::string& path) {
  Workspace workspace(Options(&fs));
  std::vector<Analysis> analyses(1);
  std::string error;
  if (workspace.Lint(path, &analyses[0], &error)) RenderAll(workspace, analyses);
}

}  // namespace pgconflint::fuzz

#endif  // PGCONFLINT_TESTS_FUZZ_LINT_AND_RENDER_H_
