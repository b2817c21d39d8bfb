// libFuzzer harness: configuration text -> a workspace lint over an in-memory
// file system -> every output format. The input is a postgresql.conf; a line
// "--8<--" splits off a second file, conf.d/inc.conf, so that includes have
// something to find. Nothing is read from the real disk.
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
  std::string_view input(reinterpret_cast<const char*>(data), size);
  OverlayFileSystem fs(nullptr, "/fuzz");
  size_t cut = input.find("\n--8<--\n");
  fs.Set("/fuzz/postgresql.conf", std::string(input.substr(0, cut)));
  if (cut != std::string_view::npos) fs.Set("/fuzz/conf.d/inc.conf", std::string(input.substr(cut + 8)));
  static const UnknownHost host;
  WorkspaceOptions options;
  options.fs = &fs;
  options.host = &host;
  options.use_config = false;
  Workspace workspace(options);
  std::vector<Analysis> analyses(1);
  std::string error;
  if (!workspace.Lint("/fuzz/postgresql.conf", &analyses[0], &error)) return 0;
  ReportOptions report;
  report.pg_version = workspace.major().major;
  report.tool_version = "fuzz";
  for (const Reporter& r : Reporters()) {
    std::ostringstream out;
    r.render(analyses, report, out);
  }
  return 0;
}
