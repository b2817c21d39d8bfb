// libFuzzer harness: user rule files. The input is read as a TOML file of
// [[rule]] entries, validated and compiled as --rules would.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/rules/rules.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace pgconflint;
  RuleSet rules;
  std::string error;
  rules.AddText(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.toml", &error);
  return 0;
}
