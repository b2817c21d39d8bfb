// The rows a server's views should show, and the comparison with real rows.
#include "core/hba_server.h"

#include <gtest/gtest.h>

#include "core/workspace.h"

namespace pgconflint {
namespace {

Analysis Lint(const std::string& files) {
  static const RuleSet rules;
  return LintText("/hba-server/postgresql.conf", files, *Catalog::ForMajor(18), rules, Profile(), "/hba-server");
}

TEST(HbaServerTest, ExpectedRowsAsTheViewPrintsThem) {
  Analysis a = Lint("# file: pg_hba.conf\nhost a,b all 127.1 255.0.0.0 radius radiusservers=127.0.0.1 "
                    "radiussecrets=s\nlocal all all ident\nbogus line\n");
  ServerHbaRule r = ExpectedHbaRow(*a.auth, a, a.auth->hba[0]);
  EXPECT_EQ(r.line_number, 1);
  EXPECT_EQ(*r.type, "host");
  EXPECT_EQ(*r.database, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(*r.address, "127.0.0.1");
  EXPECT_EQ(*r.netmask, "255.0.0.0");
  EXPECT_EQ(*r.options, (std::vector<std::string>{"radiusservers=127.0.0.1", "radiussecrets=s"}));
  EXPECT_FALSE(r.error);
  EXPECT_EQ(*ExpectedHbaRow(*a.auth, a, a.auth->hba[1]).auth_method, "peer");
  ServerHbaRule bad = ExpectedHbaRow(*a.auth, a, a.auth->hba[2]);
  EXPECT_FALSE(bad.type);
  EXPECT_EQ(*bad.error, "invalid connection type \"bogus\"");
}

TEST(HbaServerTest, CompareFindsEachDifference) {
  Analysis a = Lint("# file: pg_hba.conf\nlocal all all peer\nlocal all all trust\n");
  std::vector<ServerHbaRule> rows;
  std::string error;
  ASSERT_TRUE(ParseServerHbaRules(R"([
    {"line_number": 1, "type": "local", "database": ["all"], "user_name": ["all"], "auth_method": "peer"},
    {"line_number": 2, "type": "local", "database": ["all"], "user_name": ["all"], "auth_method": "reject"}])",
                                  &rows, &error))
      << error;
  std::vector<AuthDifference> d = CompareWithServer(*a.auth, a, rows, {}, true, false);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_NE(d[0].message.find("auth_method \"reject\" (pgconflint: \"trust\")"), std::string::npos) << d[0].message;
  rows.pop_back();
  EXPECT_EQ(CompareWithServer(*a.auth, a, rows, {}, true, false).size(), 1u);  // the count differs
  EXPECT_FALSE(ParseServerHbaRules("{}", &rows, &error));
}

}  // namespace
}  // namespace pgconflint
