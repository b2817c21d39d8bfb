// libFuzzer harness: the rule condition language and message templates. The
// input is parsed as a condition and evaluated, and used as a message
// template, checked and expanded, over an environment that knows a few
// names (numbers, a string, a boolean) and calls every other unknown.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/rules/expr.h"

namespace {

class FuzzEnv : public pgconflint::ExprEnv {
 public:
  pgconflint::ExprValue Lookup(std::string_view name, bool* known) const override {
    using pgconflint::ExprValue;
    *known = true;
    if (name == "work_mem") return ExprValue::Number(4096, pgconflint::Dim::kBytes);
    if (name == "max_connections") return ExprValue::Number(100);
    if (name == "wal_level") return ExprValue::String("replica");
    if (name == "fsync") return ExprValue::Bool(true);
    if (name == "shared_buffers") return ExprValue::Null();
    *known = false;
    return ExprValue::Null();
  }
  bool IsSet(std::string_view name) const override { return name == "work_mem" || name == "fsync"; }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace pgconflint;
  std::string_view input(reinterpret_cast<const char*>(data), size);
  static const FuzzEnv env;
  std::string error;
  if (auto expr = CompiledExpr::Parse(input, &error)) expr->Eval(env).Display();
  if (CheckTemplate(input, &error)) ExpandTemplate(input, env);
  return 0;
}
