// The gitlab format: GitLab Code Quality's required fields, severities, and
// fingerprints unique in the report and stable when lines are inserted.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <set>

#include "report_fixture.h"

namespace pgconflint {
namespace {

using nlohmann::json;

TEST(GitlabTest, RequiredFields) {
  json issues = json::parse(RenderReport("gitlab", NonAsciiReport()));
  ASSERT_TRUE(issues.is_array());
  ASSERT_FALSE(issues.empty());
  const std::set<std::string> severities = {"info", "minor", "major", "critical", "blocker"};
  std::set<std::string> prints;
  for (const json& i : issues) {
    EXPECT_EQ(i["description"].get<std::string>().rfind(i["check_name"].get<std::string>(), 0), 0u) << i;
    EXPECT_TRUE(severities.count(i["severity"].get<std::string>())) << i;
    EXPECT_EQ(i["location"]["path"], "pg/postgresql.conf");
    EXPECT_GE(i["location"]["lines"]["begin"].get<int>(), 1);
    EXPECT_TRUE(prints.insert(i["fingerprint"].get<std::string>()).second) << "duplicate fingerprint";
  }
  // The syntax error on line 3 (after 'été 🚀') is fatal: a blocker.
  bool blocker = false;
  for (const json& i : issues) blocker |= i["check_name"] == "PGC001" && i["severity"] == "blocker" &&
                                          i["location"]["lines"]["begin"] == 3;
  EXPECT_TRUE(blocker) << issues.dump(2);
}

TEST(GitlabTest, FingerprintsSurviveInsertedLines) {
  static const RuleSet rules;
  auto prints = [&](const std::string& text) {
    std::vector<Analysis> v;
    v.push_back(LintText("/repo/pg/postgresql.conf", text, *Catalog::ForMajor(18), rules, Profile(), "/repo"));
    std::set<std::string> out;
    for (const json& i : json::parse(RenderReport("gitlab", v))) out.insert(i["fingerprint"].get<std::string>());
    return out;
  };
  EXPECT_EQ(prints(kNonAsciiConf), prints(std::string("# a new first line\n\nport = 5433\n") + kNonAsciiConf));
}

}  // namespace
}  // namespace pgconflint
