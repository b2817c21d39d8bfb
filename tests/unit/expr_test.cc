// The rule condition language.
#include "core/rules/expr.h"

#include "core/rules/rules.h"

#include <gtest/gtest.h>

#include <pthread.h>

#include <deque>
#include <functional>
#include <map>
#include <string>

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

// The nodes of an image as comparable text.
std::string ImageText(const CompiledExpr& e) {
  std::deque<std::string> flags;
  std::string out;
  for (const ExprNodeImage& n : e.Image(&flags))
    out += std::to_string(n.op) + "/" + std::to_string(n.args) + "/" + std::to_string(n.literal_kind) + "/" +
           std::to_string(n.number) + "/" + std::to_string(n.dim) + "/" + std::to_string(n.boolean) + "/" + n.text +
           "/" + n.inverse + ";";
  return out;
}

// The built-in conditions are rebuilt from their build-time image, not parsed:
// the tree and the identifiers are the parser's, node for node.
TEST(ExprTest, ImagesRebuildTheParsedTree) {
  int conditions = 0;
  RuleSet rules;
  for (const RuleInfo& r : BuiltinRules()) {
    if (!r.when[0]) continue;
    ++conditions;
    std::string error;
    auto parsed = CompiledExpr::Parse(r.when, &error);
    ASSERT_TRUE(parsed) << r.code << ": " << error;
    const CompiledExpr* built = rules.Condition(&r);
    ASSERT_NE(built, nullptr) << r.code;
    EXPECT_EQ(ImageText(*built), ImageText(*parsed)) << r.code;
    EXPECT_EQ(built->identifiers(), parsed->identifiers()) << r.code;
  }
  EXPECT_GT(conditions, 20);
  // A sum with subtracted terms and a call keep their flags and function.
  std::string error;
  auto e = CompiledExpr::Parse("max(work_mem - 1, 2) * 3 / 4 > 1", &error);
  ASSERT_TRUE(e) << error;
  std::deque<std::string> flags;
  std::vector<ExprNodeImage> nodes = e->Image(&flags);
  std::vector<const char*> ids;
  for (const std::string& id : e->identifiers()) ids.push_back(id.c_str());
  auto back = CompiledExpr::FromImage(e->text(), nodes, ids);
  ASSERT_TRUE(back);
  EXPECT_EQ(ImageText(*back), ImageText(*e));
  // A malformed image (a child missing) is refused, not read past its end.
  nodes.pop_back();
  EXPECT_FALSE(CompiledExpr::FromImage(e->text(), nodes, ids));
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

std::string ParseError(const std::string& text) {
  std::string error;
  EXPECT_EQ(CompiledExpr::Parse(text, &error), nullptr) << text;
  return error;
}

std::string Repeat(const std::string& s, size_t n) {
  std::string out;
  out.reserve(s.size() * n);
  for (size_t i = 0; i < n; ++i) out += s;
  return out;
}

TEST(ExprTest, UnknownFunctionsAndWrongArityAreParseErrors) {
  EXPECT_EQ(ParseError("is_flase(fsync)"), "unknown function \"is_flase\" (did you mean \"is_false\"?) at column 1");
  EXPECT_EQ(ParseError("work_mem > 0 and maxx(1, 2) > 0"),
            "unknown function \"maxx\" (did you mean \"max\"?) at column 18");
  EXPECT_EQ(ParseError("frobnicate(1)"), "unknown function \"frobnicate\" at column 1");
  EXPECT_EQ(ParseError("is_false(fsync, 1)"), "is_false takes 1 argument, not 2 at column 1");
  EXPECT_EQ(ParseError("if(true, 1)"), "if takes 3 arguments, not 2 at column 1");
  EXPECT_EQ(ParseError("min()"), "min takes at least 1 argument, not 0 at column 1");
  EXPECT_EQ(ParseError("is_set('io_workers')"), "is_set takes a parameter name at column 1");
}

TEST(ExprTest, IdentifierCheckRefusesNamesAtTheirColumn) {
  std::vector<std::string> seen;
  IdentifierCheck check = [&](std::string_view name, std::string* error) {
    seen.emplace_back(name);
    if (name != "fsnyc") return true;
    *error = "unknown name \"fsnyc\"";
    return false;
  };
  std::string error;
  EXPECT_NE(CompiledExpr::Parse("is_set(io_workers) and fsync == false", &error, check), nullptr) << error;
  EXPECT_EQ(seen, (std::vector<std::string>{"io_workers", "fsync"}));
  EXPECT_EQ(CompiledExpr::Parse("fsync or fsnyc", &error, check), nullptr);
  EXPECT_EQ(error, "unknown name \"fsnyc\" at column 10");
}

TEST(ExprTest, ChainsFoldFromTheLeft) {
  MapEnv env;
  env.values["work_mem"] = ExprValue::Number(4 * 1024 * 1024, Dim::kBytes);
  EXPECT_EQ(Eval("10 - 2 - 3 + 1", env).Display(), "6");
  EXPECT_EQ(Eval("100 / 10 / 5 * 3", env).Display(), "6");
  EXPECT_EQ(Eval("2 * 3 / 4", env).Display(), "1.5");
  EXPECT_EQ(Eval("1 + 2 * 3 - 4 / 2", env).Display(), "5");
  EXPECT_EQ(Eval("'a' + 1 + 2", env).Display(), "a12");
  EXPECT_EQ(Eval("1 + 2 + 'a'", env).Display(), "3a");
  EXPECT_EQ(Eval("work_mem / 1MB * 2", env).Display(), "8");  // a ratio, then a plain number
  EXPECT_TRUE(Eval("1 / 0 + 1", env).is_null());
  EXPECT_TRUE(Eval("nothing + 1 + 2", env).is_null());
}

TEST(ExprTest, AndOrChainsLetFalseAndTrueWinOverNull) {
  MapEnv env;
  EXPECT_EQ(Eval("true and nothing and false", env).kind, ExprValue::Kind::kBool);
  EXPECT_FALSE(Eval("true and nothing and false", env).is_true());
  EXPECT_TRUE(Eval("true and nothing and true", env).is_null());
  EXPECT_TRUE(Eval("true and true and true", env).is_true());
  EXPECT_TRUE(Eval("false or nothing or true", env).is_true());
  EXPECT_TRUE(Eval("false or nothing or false", env).is_null());
  EXPECT_FALSE(Eval("false or false or false", env).is_true());
  EXPECT_TRUE(Eval("true or false and false", env).is_true());  // and binds tighter
  EXPECT_TRUE(Eval("not false and not false", env).is_true());
}

// The reproducers of stack overflows: each is refused with a clear error, or
// parsed and evaluated without recursion per term.
TEST(ExprTest, NestingDeeperThanTheLimitIsRefused) {
  const std::string limit = "nested deeper than " + std::to_string(kMaxExprDepth) + " levels";
  EXPECT_NE(ParseError(Repeat("(", 10000) + "work_mem > 0" + Repeat(")", 10000)).find(limit), std::string::npos);
  EXPECT_NE(ParseError(Repeat("not ", 200000) + "true").find(limit), std::string::npos);
  EXPECT_NE(ParseError(Repeat("abs(", 50000) + "1" + Repeat(")", 50000)).find(limit), std::string::npos);
  EXPECT_NE(ParseError(Repeat("-", 100000) + "1").find(limit), std::string::npos);
  EXPECT_NE(ParseError("1 in [" + Repeat("(", 1000) + "1" + Repeat(")", 1000) + "]").find(limit), std::string::npos);
  // The top level is one level: kMaxExprDepth - 1 parentheses are the most.
  MapEnv env;
  const int most = kMaxExprDepth - 1;
  EXPECT_EQ(Eval(Repeat("(", most) + "1" + Repeat(")", most), env).Display(), "1");
  EXPECT_NE(ParseError(Repeat("(", most + 1) + "1" + Repeat(")", most + 1)).find(limit), std::string::npos);
  EXPECT_TRUE(Eval(Repeat("not ", most) + "false", env).is_true());  // each `not` is a level
  EXPECT_NE(ParseError(Repeat("not ", most + 1) + "false").find(limit), std::string::npos);
}

TEST(ExprTest, LongChainsEvaluateTermByTerm) {
  MapEnv env;
  env.values["work_mem"] = ExprValue::Number(1);
  std::string ors = "work_mem < 0" + Repeat(" or work_mem < 0", 39999);
  EXPECT_FALSE(Eval(ors, env).is_true());
  EXPECT_TRUE(Eval(ors + " or work_mem == 1", env).is_true());
  EXPECT_TRUE(Eval("true" + Repeat(" and work_mem == 1", 40000), env).is_true());
  EXPECT_EQ(Eval("1" + Repeat(" + 1", 299999), env).Display(), "300000");
  EXPECT_EQ(Eval("1" + Repeat(" * work_mem", 300000), env).Display(), "1");
  EXPECT_EQ(Eval("max(" + Repeat("work_mem, ", 100000) + "2)", env).Display(), "2");
  EXPECT_TRUE(Eval("3 in [" + Repeat("1, ", 100000) + "3]", env).is_true());
}

TEST(ExprTest, TemplatesUseTheSameParser) {
  MapEnv env;
  const std::string deep = "{" + Repeat("(", 10000) + "1" + Repeat(")", 10000) + "}";
  EXPECT_EQ(ExpandTemplate("x " + deep, env), "x " + deep);  // left as written, no crash
  std::string error;
  EXPECT_FALSE(CheckTemplate("x " + deep, &error));
  EXPECT_NE(error.find("nested deeper than"), std::string::npos) << error;
  EXPECT_EQ(error.find(deep), std::string::npos) << "the placeholder is quoted only in part";
  EXPECT_FALSE(CheckTemplate("it is {is_flase(fsync)}", &error));
  EXPECT_EQ(error, "placeholder {is_flase(fsync)}: unknown function \"is_flase\" (did you mean \"is_false\"?) "
                   "at column 8");
  EXPECT_TRUE(CheckTemplate("no placeholder: a lone } and then a lone {", &error)) << error;
  IdentifierCheck refuse_all = [](std::string_view, std::string* e) {
    *e = "unknown";
    return false;
  };
  EXPECT_FALSE(CheckTemplate("ok {1 + 2}, then {fsycn}", &error, refuse_all));
  EXPECT_EQ(error, "placeholder {fsycn}: unknown at column 19");
}

// Parsing and evaluating the deepest expressions fits in a small stack, so
// the limit bounds stack use wherever rules run (threads included). About
// 256 KiB is needed in a release build; sanitizers make frames much larger.
#if defined(__SANITIZE_ADDRESS__)
constexpr size_t kSmallStack = 4 << 20;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr size_t kSmallStack = 4 << 20;
#else
constexpr size_t kSmallStack = 512 << 10;
#endif
#else
constexpr size_t kSmallStack = 512 << 10;
#endif

TEST(ExprTest, DeepestExpressionsFitInASmallStack) {
  const int most = kMaxExprDepth - 1;
  const std::vector<std::string> deepest = {
      Repeat("(", most) + "1 + 1" + Repeat(")", most),
      Repeat("abs(", most) + "1" + Repeat(")", most),
      Repeat("not ", most) + "true",
      Repeat("-", most) + "1",
      Repeat("if(true, ", most) + "1" + Repeat(", 0)", most),
  };
  struct Job {
    const std::vector<std::string>* texts;
    int parsed = 0;
  } job{&deepest};
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, kSmallStack);
  pthread_t thread;
  auto run = [](void* p) -> void* {
    Job* j = static_cast<Job*>(p);
    MapEnv env;
    for (const std::string& t : *j->texts) {
      std::string error;
      auto e = CompiledExpr::Parse(t, &error);
      if (!e) continue;
      e->Eval(env);
      ++j->parsed;
    }
    return nullptr;
  };
  ASSERT_EQ(pthread_create(&thread, &attr, run, &job), 0);
  pthread_join(thread, nullptr);
  pthread_attr_destroy(&attr);
  EXPECT_EQ(job.parsed, static_cast<int>(deepest.size()));
}

}  // namespace
}  // namespace pgconflint
