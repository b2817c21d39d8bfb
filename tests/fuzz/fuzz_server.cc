// libFuzzer harness: a server snapshot (the JSON `pgconflint snapshot`
// writes) -> the live lint, and drift against a data directory -> every
// output format. Lines "--8<--" split off the data directory's
// postgresql.conf, pg_hba.conf and pg_ident.conf, in that order. Nothing is
// read from the real disk and no server is contacted.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/server/snapshot.h"
#include "lint_and_render.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace pgconflint;
  std::string_view input(reinterpret_cast<const char*>(data), size);
  std::vector<std::string_view> parts;
  for (size_t at = 0;;) {  // the fourth part runs to the end
    size_t cut = parts.size() < 3 ? input.find("\n--8<--\n", at) : std::string_view::npos;
    parts.push_back(input.substr(at, cut == std::string_view::npos ? std::string_view::npos : cut - at));
    if (cut == std::string_view::npos) break;
    at = cut + 8;
  }
  Snapshot snapshot;
  std::string error;
  if (!ReadSnapshot(parts[0], &snapshot, &error)) return 0;
  OverlayFileSystem fs(nullptr, "/fuzz");
  static const char* const kFiles[] = {"postgresql.conf", "pg_hba.conf", "pg_ident.conf"};
  for (size_t i = 1; i < parts.size(); ++i) fs.Set(std::string("/fuzz/") + kFiles[i - 1], std::string(parts[i]));
  Workspace workspace(fuzz::Options(&fs));
  std::vector<Analysis> live(1), drift(1);
  if (workspace.LintSnapshot(snapshot, &live[0], &error)) fuzz::RenderAll(workspace, live);
  if (parts.size() > 1 && workspace.LintDrift("/fuzz", snapshot, &drift[0], &error)) fuzz::RenderAll(workspace, drift);
  return 0;
}
