// libFuzzer harness: configuration text -> a workspace lint over an in-memory
// file system -> every output format. The input is a postgresql.conf; a line
// "--8<--" splits off a second file, conf.d/inc.conf, so that includes have
// something to find. Nothing is read from the real disk.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "lint_and_render.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace pgconflint;
  std::string_view input(reinterpret_cast<const char*>(data), size);
  OverlayFileSystem fs(nullptr, "/fuzz");
  size_t cut = input.find("\n--8<--\n");
  fs.Set("/fuzz/postgresql.conf", std::string(input.substr(0, cut)));
  if (cut != std::string_view::npos) fs.Set("/fuzz/conf.d/inc.conf", std::string(input.substr(cut + 8)));
  fuzz::LintAndRender(fs, "/fuzz/postgresql.conf");
  return 0;
}
