// Every rule's documented examples are its tests (ShellCheck's
// prop_verifyOptionalExamples): `bad` fires the rule, `good` does not.
#include "core/rules/rules.h"

#include <gtest/gtest.h>

#include <dirent.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

#include "core/model/analysis.h"
#include "core/workspace/workspace.h"
#include "test_support.h"

namespace pgconflint {
namespace {

TEST(RulesTest, EveryBadExampleFiresAndEveryGoodExampleDoesNot) {
  ASSERT_FALSE(BuiltinRules().empty());
  for (const RuleInfo& r : BuiltinRules()) {
    EXPECT_TRUE(test::ExampleFires(r, r.bad)) << r.code << " " << r.name << ": bad example does not fire";
    EXPECT_FALSE(test::ExampleFires(r, r.good)) << r.code << " " << r.name << ": good example fires";
  }
}

// pg_settings gives shared_buffers as 16384 in units of 8kB: the finding
// names the value as SHOW does, not the two glued together ("163848kB").
TEST(RulesTest, PendingRestartNamesTheRunningValueAsTheServerShowsIt) {
  const RuleInfo* r = FindRule("pending-restart");
  ASSERT_NE(r, nullptr);
  char dir[] = "/tmp/pgconflint-example-XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  Analysis a = LintExample(*r, r->bad, test::TheRuleSet(), dir);
  rmdir(dir);
  std::vector<std::string> messages;
  for (const Diagnostic& d : a.diagnostics)
    if (d.rule && std::string_view(d.rule->code) == r->code) messages.push_back(d.message);
  ASSERT_EQ(messages.size(), 1u);
  EXPECT_NE(messages[0].find("keeps running with '128MB' until it restarts"), std::string::npos) << messages[0];
}

// The GRANT that PGC1105 suggests names the role as SQL reads it: quoted
// when folding would change it.
TEST(RulesTest, LiveViewLimitedGrantsToTheRoleAsSqlNamesIt) {
  const RuleInfo* r = FindRule("live-view-limited");
  ASSERT_NE(r, nullptr);
  for (const auto& [user, grant] : {std::pair<std::string, std::string>{"app", "TO app;"}, {"App-Ops", "TO \"App-Ops\";"}}) {
    const std::string snapshot = R"({"pgconflint_snapshot": 1, "server": "s", "info": {"server_version_num": 180004,
        "superuser": true, "user": ")" + user + R"("}, "settings": [], "file_settings": [], "hba_rules": null})";
    char dir[] = "/tmp/pgconflint-example-XXXXXX";
    ASSERT_NE(mkdtemp(dir), nullptr);
    Analysis a = LintExample(*r, snapshot, test::TheRuleSet(), dir);
    rmdir(dir);
    bool found = false;
    for (const Diagnostic& d : a.diagnostics)
      found = found || (d.rule && std::string_view(d.rule->code) == r->code && d.help.find(grant) != std::string::npos);
    EXPECT_TRUE(found) << user;
  }
}

TEST(RulesTest, DeclarationsAreWellFormed) {
  std::set<std::string> codes, names;
  for (const RuleInfo& r : BuiltinRules()) {
    std::string code = r.code, name = r.name;
    EXPECT_TRUE(code.size() == 6u || code.size() == 7u) << code;
    EXPECT_EQ(code.rfind("PGC", 0), 0u) << code;
    EXPECT_TRUE(codes.insert(code).second) << code;
    EXPECT_TRUE(names.insert(name).second) << name;
    for (char c : name) EXPECT_TRUE((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-') << name;
    // A refusal is an error: its declaration says so too.
    if (IsRefusal(r.outcome) && !r.per_finding) {
      EXPECT_EQ(r.severity, Severity::kError) << code;
    }
    EXPECT_NE(std::string(r.why), "") << code;
    EXPECT_NE(r.references[0], nullptr) << code << " has no reference";
    if (r.id != RuleId::kUnnamed) {
      EXPECT_EQ(&Rule(r.id), &r);
    }
    EXPECT_EQ(FindRule(r.code), &r);
    EXPECT_EQ(FindRule(r.name), &r);
  }
}

// The generator validated rules/*.toml with names from knowledge/*.json; the
// runtime's validation (names from the catalogs) accepts every one of them
// too, and reads the same declarations the binary embeds.
TEST(RulesTest, RuntimeValidationAcceptsEveryBuiltinRule) {
  const std::string dir = std::string(PGC_SOURCE_DIR) + "/rules";
  std::vector<std::string> files;
  DIR* d = opendir(dir.c_str());
  ASSERT_NE(d, nullptr) << dir;
  while (dirent* e = readdir(d)) {
    std::string n = e->d_name;
    if (n.size() > 5 && n.substr(n.size() - 5) == ".toml") files.push_back(dir + "/" + n);
  }
  closedir(d);
  std::sort(files.begin(), files.end());
  std::vector<RuleDecl> decls;
  for (const std::string& f : files) {
    std::ifstream in(f);
    std::stringstream text;
    text << in.rdbuf();
    std::string error;
    EXPECT_TRUE(ParseRuleFile(text.str(), f, RuntimeRuleFileOptions(true), &decls, &error)) << error;
  }
  ASSERT_EQ(decls.size(), BuiltinRules().size());
  for (const RuleDecl& decl : decls) {
    const RuleInfo* r = FindRule(decl.code);
    ASSERT_NE(r, nullptr) << decl.code;
    EXPECT_EQ(decl.name, r->name);
    EXPECT_EQ(decl.when, r->when);
    EXPECT_EQ(decl.message, r->message);
    EXPECT_EQ(decl.help, r->help);
    EXPECT_EQ(decl.evaluator, r->evaluator);
    EXPECT_EQ(decl.min_major, r->versions.min);
    EXPECT_EQ(decl.max_major, r->versions.max);
    EXPECT_EQ(decl.outcome_value, r->outcome) << decl.code;
    EXPECT_EQ(decl.per_finding, r->per_finding) << decl.code;
    EXPECT_EQ(decl.severity_level, r->severity) << decl.code;
    EXPECT_EQ(decl.fix_kind, r->fix_safety) << decl.code;
    std::string anchor;
    for (const std::string& a : decl.anchors) anchor += (anchor.empty() ? "" : "\n") + a;
    EXPECT_EQ(anchor, r->anchor) << decl.code;
  }
}

TEST(RulesTest, UserRulesJoinTheSetAndMayNotReuseBuiltinCodesOrNames) {
  RuleSet rules;
  std::string error;
  ASSERT_TRUE(rules.AddText("[[rule]]\ncode = \"ORG001\"\nname = \"fsync-on\"\nwhen = \"fsync == false\"\n"
                            "message = \"fsync is {fsync}\"\nanchor = [\"fsync\"]\nversions = \"16-\"\n",
                            "org.toml", &error))
      << error;
  const RuleInfo* r = rules.Find("org001");
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(std::string(r->name), "fsync-on");
  EXPECT_EQ(std::string(r->anchor), "fsync");
  EXPECT_EQ(r->versions.min, 16);
  EXPECT_FALSE(r->builtin);
  ASSERT_NE(rules.Condition(r), nullptr);
  EXPECT_EQ(rules.Condition(r)->text(), "fsync == false");

  EXPECT_FALSE(rules.AddText("[[rule]]\ncode = \"ORG002\"\nname = \"invalid-value\"\nwhen = \"true\"\nmessage = \"m\"\n",
                             "x.toml", &error));
  EXPECT_EQ(error, "x.toml:3: name invalid-value is already used by built-in rule PGC201");
  EXPECT_FALSE(rules.AddText("[[rule]]\ncode = \"ORG001\"\nname = \"other\"\nwhen = \"true\"\nmessage = \"m\"\n",
                             "y.toml", &error));
  EXPECT_EQ(error, "y.toml:2: code ORG001 is already used by rule ORG001") << "rules loaded before count";
  EXPECT_EQ(rules.rules().size(), BuiltinRules().size() + 1);
}

TEST(RulesTest, RuleFilesThatAreNotRegularFilesAreRefused) {
  RuleSet rules;
  std::string error;
  EXPECT_FALSE(rules.AddPath("/nonexistent/org.toml", &error));
  EXPECT_EQ(error.rfind("/nonexistent/org.toml: ", 0), 0u) << error;
  EXPECT_FALSE(rules.AddFile("/dev/null", &error));
  EXPECT_EQ(error, "/dev/null: not a regular file (a character device)");
}

}  // namespace
}  // namespace pgconflint
