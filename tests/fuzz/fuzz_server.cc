// libFuzzer harness: a server snapshot (the JSON `pgconflint snapshot`
// writes) -> the live lint, and drift against a data directory -> every
// output format. Lines "--8<--" split off the data directory's
// postgresql.conf, pg_hba.conf and pg_ident.conf, in that order. Nothing is
// read from the real disk and no server is contacted.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "core/file_system.h"
#include "core/host.h"
#include "core/snapshot.h"
#include "core/workspace.h"
#include "report/reporter.h"

namespace {

void Render(pgconflint::Workspace& workspace, const std::vector<pgconflint::Analysis>& analyses) {
  pgconflint::ReportOptions report;
  report.pg_version = workspace.major().major;
  report.tool_version = "fuzz";
  for (const pgconflint::Reporter& r : pgconflint::Reporters()) {
    std::ostringstream out;
    r.render(analyses, report, out);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace pgconflint;
  std::string_view input(reinterpret_cast<const char*>(data), size);
  std::vector<std::string_view> parts;
  for (size_t at = 0;;) {
    size_t cut = input.find("\n--8<--\n", at);
    parts.push_back(input.substr(at, cut == std::string_view::npos ? std::string_view::npos : cut - at));
    if (cut == std::string_view::npos || parts.size() == 4) break;
    at = cut + 8;
  }
  Snapshot snapshot;
  std::string error;
  if (!ReadSnapshot(parts[0], &snapshot, &error)) return 0;
  OverlayFileSystem fs(nullptr, "/fuzz");
  static const char* const kFiles[] = {"postgresql.conf", "pg_hba.conf", "pg_ident.conf"};
  for (size_t i = 1; i < parts.size(); ++i) fs.Set(std::string("/fuzz/") + kFiles[i - 1], std::string(parts[i]));
  static const UnknownHost host;
  WorkspaceOptions options;
  options.fs = &fs;
  options.host = &host;
  options.use_config = false;
  Workspace workspace(options);
  std::vector<Analysis> live(1), drift(1);
  if (workspace.LintSnapshot(snapshot, &live[0], &error)) Render(workspace, live);
  if (parts.size() > 1 && workspace.LintDrift("/fuzz", snapshot, &drift[0], &error)) Render(workspace, drift);
  return 0;
}
