// libFuzzer harness: the --running JSON document (pg_settings of a running
// server, name -> setting), parsed as `check --running FILE` does.
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "cli/common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::map<std::string, std::string> running;
  std::string error;
  pgconflint::cli::ParseRunning(std::string_view(reinterpret_cast<const char*>(data), size), &running, &error);
  return 0;
}
