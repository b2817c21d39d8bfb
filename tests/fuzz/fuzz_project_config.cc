// libFuzzer harness: .pgconflint.toml. The input is loaded as a project
// configuration from an in-memory file system.
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/base/file_system.h"
#include "core/workspace/project_config.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace pgconflint;
  OverlayFileSystem fs(nullptr, "/fuzz");
  fs.Set("/fuzz/.pgconflint.toml", std::string(reinterpret_cast<const char*>(data), size));
  ProjectConfig config;
  std::string error;
  LoadProjectConfig(fs, "/fuzz/.pgconflint.toml", &config, &error);
  return 0;
}
