// The rule condition language.
#include "core/expr.h"

#include <gtest/gtest.h>

#include <map>

namespace pgconflint {
namespace {

class MapEnv : public ExprEnv {
 public:
  std::map<std::string, ExprValue, std::less<>> values;
  std::vector<std::string> set;
  ExprValue Lookup(std::string_view name, bool* known) const override {
    auto it = values.find(name);
    *known = it != values.end();
    return *known ? it->second : ExprValue::Null();
  }
  bool IsSet(std::string_view name) const override {
    return std::find(set.begin(), set.end(), name) != set.end();
  }
};

ExprValue Eval(const std::string& text, const MapEnv& env) {
  std::string error;
  auto e = CompiledExpr::Parse(text, &error);
  EXPECT_NE(e, nullptr) << text << ": " << error;
  return e ? e->Eval(env) : ExprValue::Null();
}

TEST(ExprTest, QuantitiesCompareInBaseUnits) {
  MapEnv env;
  env.values["io_combine_limit"] = ExprValue::Number(512 * 1024, Dim::kBytes);
  env.values["io_max_combine_limit"] = ExprValue::Number(128 * 1024, Dim::kBytes);
  EXPECT_TRUE(Eval("io_combine_limit > io_max_combine_limit", env).is_true());
  EXPECT_TRUE(Eval("io_combine_limit == '512kB'", env).is_true());
  EXPECT_TRUE(Eval("io_max_combine_limit < 1MB", env).is_true());
  EXPECT_EQ(Eval("min(io_combine_limit, io_max_combine_limit)", env).Display(), "128kB");
}

TEST(ExprTest, NullMakesARuleSilent) {
  MapEnv env;
  env.values["work_mem"] = ExprValue::Number(64 * 1024 * 1024, Dim::kBytes);
  // profile.ram is unknown: comparisons with it are null, not false.
  EXPECT_TRUE(Eval("work_mem > profile.ram * 0.1", env).is_null());
  EXPECT_TRUE(Eval("work_mem > 1MB or profile.ram > 1GB", env).is_true());   // true wins over null
  EXPECT_TRUE(Eval("work_mem < 1MB and profile.ram > 1GB", env).kind == ExprValue::Kind::kBool);  // false wins
  EXPECT_TRUE(Eval("known(profile.ram)", env).kind == ExprValue::Kind::kBool);
  EXPECT_FALSE(Eval("known(profile.ram)", env).is_true());
}

TEST(ExprTest, StringsAndListsCompareCaseInsensitively) {
  MapEnv env;
  env.values["io_method"] = ExprValue::String("worker");
  env.values["listen_addresses"] = ExprValue::String("localhost, ::1");
  EXPECT_TRUE(Eval("io_method == 'WORKER'", env).is_true());
  EXPECT_TRUE(Eval("io_method in ['sync', 'worker']", env).is_true());
  EXPECT_TRUE(Eval("io_method not in ['sync']", env).is_true());
  EXPECT_FALSE(Eval("has_item(listen_addresses, '::')", env).is_true());
  EXPECT_TRUE(Eval("has_item(listen_addresses, '::1')", env).is_true());
  EXPECT_TRUE(Eval("contains(listen_addresses, '::')", env).is_true());
}

TEST(ExprTest, FunctionsAndIsSet) {
  MapEnv env;
  env.values["io_workers"] = ExprValue::Number(8);
  env.set = {"io_workers"};
  EXPECT_TRUE(Eval("is_set(io_workers)", env).is_true());
  EXPECT_FALSE(Eval("is_set(io_method)", env).is_true());
  EXPECT_EQ(Eval("if(io_workers > 4, 'many', 'few')", env).Display(), "many");
  EXPECT_EQ(Eval("coalesce(reserved_connections, 0) + 3", env).Display(), "3");
  EXPECT_EQ(Eval("'io_workers = ' + io_workers", env).Display(), "io_workers = 8");
}

TEST(ExprTest, ParseErrorsNameTheColumn) {
  std::string error;
  EXPECT_EQ(CompiledExpr::Parse("work_mem > ", &error), nullptr);
  EXPECT_NE(error.find("column"), std::string::npos) << error;
  EXPECT_EQ(CompiledExpr::Parse("io_method in ['a'", &error), nullptr);
  EXPECT_EQ(CompiledExpr::Parse("'unterminated", &error), nullptr);
  EXPECT_EQ(CompiledExpr::Parse("work_mem >> 1", &error), nullptr);
}

TEST(ExprTest, TemplatesDisplayValuesWithUnits) {
  MapEnv env;
  env.values["shared_buffers"] = ExprValue::Number(8.0 * 1024 * 1024 * 1024, Dim::kBytes);
  env.values["checkpoint_timeout"] = ExprValue::Number(900000, Dim::kMs);
  EXPECT_EQ(ExpandTemplate("sb {shared_buffers}, every {checkpoint_timeout}, {nope(}", env),
            "sb 8GB, every 15min, {nope(}");
}

TEST(ExprTest, QuantityLiteralsAreStrict) {
  MapEnv env;
  std::string error;
  // Units are postgresql.conf's, case-sensitive; no NaN, infinity or overflow.
  for (const char* bad : {"work_mem > 16gb", "work_mem > 1e999", "work_mem > 0x10", "work_mem > 1.7e308TB"})
    EXPECT_EQ(CompiledExpr::Parse(bad, &error), nullptr) << bad;
  // Quoted, what is not a quantity is a string.
  EXPECT_EQ(Eval("'16gb'", env).kind, ExprValue::Kind::kString);
  EXPECT_EQ(Eval("'inf'", env).kind, ExprValue::Kind::kString);
  EXPECT_EQ(Eval("'1e999'", env).kind, ExprValue::Kind::kString);
  EXPECT_EQ(Eval("'1us'", env).number, 0.001);
  EXPECT_EQ(Eval("1e3ms", env).Display(), "1s");
}

}  // namespace
}  // namespace pgconflint
