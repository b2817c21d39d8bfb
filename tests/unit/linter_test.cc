// The check pipeline: .pgconflint.toml, user rule files, selection,
// per-file ignores and severity overrides.
#include "core/linter.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/catalog.h"

namespace pgconflint {
namespace {

namespace fs = std::filesystem;

class Project {
 public:
  Project() {
    char tmpl[] = "/tmp/pgconflint-project-XXXXXX";
    root_ = mkdtemp(tmpl);
  }
  ~Project() { fs::remove_all(root_); }
  std::string Write(const std::string& rel, const std::string& text) const {
    fs::path p = fs::path(root_) / rel;
    fs::create_directories(p.parent_path());
    std::ofstream(p) << text;
    return p.string();
  }
  const std::string& root() const { return root_; }

 private:
  std::string root_;
};

std::vector<std::string> Codes(const Analysis& a) {
  std::vector<std::string> out;
  for (const Diagnostic& d : a.diagnostics) out.push_back(std::string(d.rule->code) + ":" + std::string(SeverityName(d.severity)));
  return out;
}

TEST(LinterTest, ConfigFileIsFoundUpwardsAndApplied) {
  Project p;
  p.Write(".pgconflint.toml",
          "pg-version = 17\n"
          "ignore = [\"value-without-unit\"]\n"
          "[severity]\nPGC303 = \"warning\"\n"
          "[per-file-ignores]\n\"pg/conf.d/*.conf\" = [\"PGC103\"]\n"
          "[profile]\nstorage = \"nvme\"\n");
  std::string main = p.Write("pg/postgresql.conf", "io_method = worker\nwork_mem = 64\nwork_mem = '4MB'\ninclude_dir 'conf.d'\n");
  p.Write("pg/conf.d/a.conf", "sort_mem = '4MB'\n");
  Linter linter(LintOptions{});
  Analysis a;
  std::string error;
  ASSERT_TRUE(linter.Lint(main, &a, &error)) << error;
  EXPECT_EQ(linter.pg_version(), 17);
  // PGC102 (io_method is 18 only), the override as a warning, no PGC204 (ignored),
  // no PGC103 in conf.d; the profile's nvme makes random_page_cost 4 worth an info.
  std::vector<std::string> codes = Codes(a);
  EXPECT_NE(std::find(codes.begin(), codes.end(), "PGC102:error"), codes.end());
  EXPECT_NE(std::find(codes.begin(), codes.end(), "PGC303:warning"), codes.end());
  EXPECT_EQ(std::find(codes.begin(), codes.end(), "PGC204:info"), codes.end());
  EXPECT_EQ(std::find(codes.begin(), codes.end(), "PGC103:warning"), codes.end());
  EXPECT_NE(std::find(codes.begin(), codes.end(), "PGC702:info"), codes.end());
}

TEST(LinterTest, MalformedConfigIsAConfigurationError) {
  Project p;
  p.Write(".pgconflint.toml", "pg-version = 12\n");
  std::string main = p.Write("postgresql.conf", "work_mem = '4MB'\n");
  Linter linter(LintOptions{});
  Analysis a;
  std::string error;
  EXPECT_FALSE(linter.Lint(main, &a, &error));
  EXPECT_NE(error.find(".pgconflint.toml:1"), std::string::npos) << error;
  p.Write(".pgconflint.toml", "selct = [\"PGC\"]\n");
  Linter again(LintOptions{});
  EXPECT_FALSE(again.Lint(main, &a, &error));
  EXPECT_NE(error.find("unknown key"), std::string::npos) << error;
}

TEST(LinterTest, UserRulesAreOneEntry) {
  Project p;
  std::string rules = p.Write("policy/org.toml",
                              "[[rule]]\ncode = \"ORG001\"\nname = \"fsync-must-stay-on\"\nseverity = \"error\"\n"
                              "when = \"fsync == false\"\nmessage = \"fsync must stay on (it is {fsync})\"\n"
                              "anchor = [\"fsync\"]\n");
  std::string main = p.Write("postgresql.conf", "fsync = off\n");
  LintOptions o;
  o.rule_paths = {p.root() + "/policy"};
  o.select = {"ORG"};
  Linter linter(o);
  Analysis a;
  std::string error;
  ASSERT_TRUE(linter.Lint(main, &a, &error)) << error;
  ASSERT_EQ(a.diagnostics.size(), 1u);
  EXPECT_EQ(std::string(a.diagnostics[0].rule->code), "ORG001");
  EXPECT_EQ(a.diagnostics[0].message, "fsync must stay on (it is off)");
  EXPECT_EQ(a.files[0].source.LineOf(a.diagnostics[0].range.begin), 1u);
}

TEST(LinterTest, BadUserRuleFileNamesFileAndCause) {
  Project p;
  p.Write("bad/x.toml", "[[rule]]\ncode = \"ORG002\"\nname = \"x\"\nwhen = \"fsync ==\"\nmessage = \"m\"\n");
  LintOptions o;
  o.rule_paths = {p.root() + "/bad"};
  Linter linter(o);
  Analysis a;
  std::string error;
  EXPECT_FALSE(linter.Lint(p.Write("postgresql.conf", ""), &a, &error));
  EXPECT_NE(error.find("x.toml"), std::string::npos) << error;
  EXPECT_NE(error.find("when"), std::string::npos) << error;
}

TEST(LinterTest, UserRuleWithAMisspeltNameIsRefused) {
  Project p;
  p.Write("typo/x.toml", "[[rule]]\ncode = \"ORG003\"\nname = \"fsync-on\"\nwhen = \"fsnyc == false\"\nmessage = \"m\"\n");
  LintOptions o;
  o.rule_paths = {p.root() + "/typo"};
  Linter linter(o);
  Analysis a;
  std::string error;
  EXPECT_FALSE(linter.Lint(p.Write("postgresql.conf", ""), &a, &error));
  EXPECT_NE(error.find("unknown name \"fsnyc\""), std::string::npos) << error;
}

TEST(LinterTest, SuppressionsOnTheLineTheNextSettingAndTheFile) {
  RuleSet rules;
  Profile profile;
  Analysis a = LintText("postgresql.conf",
                        "work_mem = 10  # pgconflint: disable=value-out-of-range # legacy test box\n"
                        "# pgconflint: disable=PGC204\n"
                        "shared_buffers = 16384\n"
                        "# pgconflint: disable-file=PGC303\n"
                        "port = 5432\nport = 5433\n"
                        "temp_buffers = '8MB'  # pgconflint: disable=PGC202\n",
                        *Catalog::ForMajor(18), rules, profile);
  std::vector<std::string> codes = Codes(a);
  EXPECT_EQ(codes, (std::vector<std::string>{"PGC901:warning"})) << "only the unused suppression on line 7";
  EXPECT_TRUE(a.fatal()) << "suppressing PGC202 does not make the server start";
}

}  // namespace
}  // namespace pgconflint
