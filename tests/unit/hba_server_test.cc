// The rows a server's views should show, and the comparison with real rows.
#include "core/hba/hba_server.h"

#include <gtest/gtest.h>

#include "core/workspace/workspace.h"

namespace pgconflint {
namespace {

Analysis LintServerDir(const std::string& files) {
  static const RuleSet rules;
  return LintText("/hba-server/postgresql.conf", files, *Catalog::ForMajor(18), rules, Profile(), "/hba-server");
}

TEST(HbaServerTest, ExpectedRowsAsTheViewPrintsThem) {
  Analysis a = LintServerDir("# file: pg_hba.conf\nhost a,b all 127.1 255.0.0.0 radius radiusservers=127.0.0.1 "
                    "radiussecrets=s\nlocal all all ident\nbogus line\n");
  ServerHbaRule r = ExpectedHbaRow(*a.auth, a, a.auth->hba[0]);
  EXPECT_EQ(r.line_number, 1);
  EXPECT_EQ(*r.type, "host");
  EXPECT_EQ(*r.database, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(*r.address, "127.0.0.1");
  EXPECT_EQ(*r.netmask, "255.0.0.0");
  EXPECT_EQ(*r.options, (std::vector<std::string>{"radiusservers=127.0.0.1", "radiussecrets=s"}));
  EXPECT_FALSE(r.error);
  EXPECT_EQ(RowText(r), "host a,b all 127.0.0.1 255.0.0.0 radius radiusservers=127.0.0.1 radiussecrets=s");
  EXPECT_EQ(*ExpectedHbaRow(*a.auth, a, a.auth->hba[1]).auth_method, "peer");
  ServerHbaRule bad = ExpectedHbaRow(*a.auth, a, a.auth->hba[2]);
  EXPECT_FALSE(bad.type);
  EXPECT_EQ(*bad.error, "invalid connection type \"bogus\"");
  EXPECT_EQ(RowText(bad), "");  // a row with only its error
  // Names that a blank, comma, quote or '#' would split are quoted, so that the
  // rebuilt line (check --live) reads back as the same rule.
  ServerHbaRule odd;
  odd.type = "local";
  odd.database = std::vector<std::string>{"all"};
  odd.user_name = std::vector<std::string>{"my role", "a,b", "say \"hi\"", "x#y"};
  odd.auth_method = "peer";
  EXPECT_EQ(RowText(odd), "local all \"my role\",\"a,b\",\"say \"\"hi\"\"\",\"x#y\" peer");
}

TEST(HbaServerTest, CompareFindsEachDifference) {
  Analysis a = LintServerDir("# file: pg_hba.conf\nlocal all all peer\nlocal all all trust\n");
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

// Drift: rules aligned by content. Comments and line numbers do not count;
// a rule only the files have is reported at its line, one only the server
// has at the file, with the server's line.
TEST(HbaServerTest, InForceComparesByContent) {
  Analysis a = LintServerDir("# file: pg_hba.conf\n# our comment\nlocal all all peer\nhost all all 10.0.0.0/8 scram-sha-256\n"
                    "host all all 0.0.0.0/0 reject\n# file: pg_ident.conf\nsso alice app\n");
  std::vector<ServerHbaRule> hba;
  std::vector<ServerIdentMapping> ident;
  std::string error;
  ASSERT_TRUE(ParseServerHbaRules(R"([
    {"line_number": 7, "type": "local", "database": ["all"], "user_name": ["all"], "auth_method": "peer"},
    {"line_number": 8, "file_name": "/srv/pg_hba.conf", "type": "host", "database": ["all"], "user_name": ["all"],
     "address": "192.168.0.0", "netmask": "255.255.0.0", "auth_method": "trust"},
    {"line_number": 9, "type": "host", "database": ["all"], "user_name": ["all"], "address": "0.0.0.0",
     "netmask": "0.0.0.0", "auth_method": "reject"}])",
                                  &hba, &error))
      << error;
  ASSERT_TRUE(ParseServerIdentMappings(R"([{"line_number": 40, "map_name": "sso", "sys_name": "alice",
                                             "pg_username": "app"}])",
                                       &ident, &error))
      << error;
  std::vector<AuthDifference> d = CompareInForce(*a.auth, a, hba, ident, true, true);
  ASSERT_EQ(d.size(), 2u);
  // The files' 10.0.0.0/8 rule, at its line (the third).
  EXPECT_EQ(a.files[d[0].where.file].kind, FileKind::kHba);
  EXPECT_EQ(a.files[d[0].where.file].source.PositionOf(d[0].where.range.begin).line, 3u);
  EXPECT_EQ(d[0].message, "the running server has no rule like this line (pg_hba_file_rules)");
  // The server's 192.168.0.0/16 trust rule, at the file.
  EXPECT_EQ(d[1].where.range.begin, 0u);
  EXPECT_EQ(d[1].message,
            "the running server has a rule this file lacks: line 8 of /srv/pg_hba.conf: host all all 192.168.0.0 "
            "255.255.0.0 trust (pg_hba_file_rules)");
  // Positional comparison would report every line: the line numbers differ.
  EXPECT_EQ(CompareWithServer(*a.auth, a, hba, ident, true, true).size(), 4u);
}

}  // namespace
}  // namespace pgconflint
