// Every rule's documented examples are its tests (ShellCheck's
// prop_verifyOptionalExamples): `bad` fires the rule, `good` does not.
#include "core/rules.h"

#include <gtest/gtest.h>

#include <set>

#include "core/analysis.h"
#include "core/workspace.h"

namespace pgconflint {
namespace {

// The profile an example declares ("ram=4GB,cpus=2").
Profile ExampleProfile(const RuleInfo& rule) {
  Profile p;
  std::string error;
  EXPECT_TRUE(SetProfileFacts(&p, rule.example_profile, &error)) << rule.code << ": " << error;
  return p;
}

bool Fires(const RuleInfo& rule, const std::string& text) {
  static const RuleSet rules;
  const Catalog& catalog =
      *Catalog::ForMajor(rule.example_pg_version ? rule.example_pg_version : Catalog::DefaultMajor());
  // Examples are analysed as a file named postgresql.conf in an empty temp
  // directory, so that relative includes resolve to files that do not exist.
  char dir[] = "/tmp/pgconflint-example-XXXXXX";
  if (!mkdtemp(dir)) return false;
  Analysis a = LintText(std::string(dir) + "/postgresql.conf", text, catalog, rules, ExampleProfile(rule));
  rmdir(dir);
  for (const Diagnostic& d : a.diagnostics)
    if (d.rule == &rule) return true;
  return false;
}

TEST(RulesTest, EveryBadExampleFiresAndEveryGoodExampleDoesNot) {
  ASSERT_FALSE(BuiltinRules().empty());
  for (const RuleInfo& r : BuiltinRules()) {
    EXPECT_TRUE(Fires(r, r.bad)) << r.code << " " << r.name << ": bad example does not fire";
    EXPECT_FALSE(Fires(r, r.good)) << r.code << " " << r.name << ": good example fires";
  }
}

TEST(RulesTest, DeclarationsAreWellFormed) {
  std::set<std::string> codes, names;
  for (const RuleInfo& r : BuiltinRules()) {
    std::string code = r.code, name = r.name;
    EXPECT_EQ(code.size(), 6u) << code;
    EXPECT_EQ(code.rfind("PGC", 0), 0u) << code;
    EXPECT_TRUE(codes.insert(code).second) << code;
    EXPECT_TRUE(names.insert(name).second) << name;
    for (char c : name) EXPECT_TRUE((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-') << name;
    Severity s;
    EXPECT_TRUE(ParseSeverity(r.severity, &s)) << code;
    std::string fatal = r.fatal;
    EXPECT_TRUE(fatal == "yes" || fatal == "no" || fatal == "per-server") << code;
    EXPECT_NE(std::string(r.why), "") << code;
    EXPECT_NE(r.references[0], nullptr) << code << " has no reference";
    EXPECT_EQ(&Rule(r.id), &r);
    EXPECT_EQ(FindRule(r.code), &r);
    EXPECT_EQ(FindRule(r.name), &r);
  }
}

}  // namespace
}  // namespace pgconflint
