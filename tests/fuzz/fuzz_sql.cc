// libFuzzer harness: an SQL script (ALTER SYSTEM, ALTER DATABASE/ROLE ...
// SET, ALTER TABLESPACE ... SET, SET, transactions) -> a workspace lint ->
// every output format. Nothing is read from the real disk.
#include <cstddef>
#include <cstdint>
#include <string>

#include "lint_and_render.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace pgconflint;
  OverlayFileSystem fs(nullptr, "/fuzz");
  fs.Set("/fuzz/script.sql", std::string(reinterpret_cast<const char*>(data), size));
  fuzz::LintAndRender(fs, "/fuzz/script.sql");
  return 0;
}
