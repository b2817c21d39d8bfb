// libFuzzer harness: an SQL script (ALTER SYSTEM, ALTER DATABASE/ROLE ...
// SET, ALTER TABLESPACE ... SET, SET, transactions) -> a workspace lint ->
// every output format. Nothing is read from the real disk.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "core/file_system.h"
#include "core/host.h"
#include "core/workspace.h"
#include "report/reporter.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace pgconflint;
  OverlayFileSystem fs(nullptr, "/fuzz");
  fs.Set("/fuzz/script.sql", std::string(reinterpret_cast<const char*>(data), size));
  static const UnknownHost host;
  WorkspaceOptions options;
  options.fs = &fs;
  options.host = &host;
  options.use_config = false;
  Workspace workspace(options);
  std::vector<Analysis> analyses(1);
  std::string error;
  if (!workspace.Lint("/fuzz/script.sql", &analyses[0], &error)) return 0;
  ReportOptions report;
  report.pg_version = workspace.major().major;
  report.tool_version = "fuzz";
  for (const Reporter& r : Reporters()) {
    std::ostringstream out;
    r.render(analyses, report, out);
  }
  return 0;
}
