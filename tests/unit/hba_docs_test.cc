// Hover and completion data for the editor server.
#include "core/hba/hba_docs.h"

#include <gtest/gtest.h>

#include "core/workspace/workspace.h"

namespace pgconflint {
namespace {

Analysis LintAuthDir(const std::string& files, int major = 18) {
  static const RuleSet rules;
  return LintText("/hba-docs/postgresql.conf", files, *Catalog::ForMajor(major), rules, Profile(), "/hba-docs");
}

int FileNamed(const Analysis& a, const std::string& name) {
  for (size_t i = 0; i < a.files.size(); ++i)
    if (a.files[i].source.path() == name) return static_cast<int>(i);
  return -1;
}

bool HasLabel(const std::vector<AuthCompletion>& c, const std::string& label) {
  for (const AuthCompletion& x : c)
    if (x.label == label) return true;
  return false;
}

TEST(HbaDocsTest, HoverNamesTheFieldAndTheWord) {
  const std::string hba = "host all all 10.0.0.0/8 scram-sha-256\n";
  Analysis a = LintAuthDir("# file: pg_hba.conf\n" + hba);
  int f = FileNamed(a, "pg_hba.conf");
  ASSERT_GE(f, 0);
  auto h = DescribeAuthPosition(a, f, static_cast<uint32_t>(hba.find("scram")) + 2);
  ASSERT_TRUE(h);
  EXPECT_NE(h->markdown.find("authentication method"), std::string::npos) << h->markdown;
  EXPECT_NE(h->markdown.find("SCRAM"), std::string::npos) << h->markdown;
  auto addr = DescribeAuthPosition(a, f, static_cast<uint32_t>(hba.find("10.0")));
  ASSERT_TRUE(addr);
  EXPECT_NE(addr->markdown.find("client address"), std::string::npos);
  EXPECT_FALSE(DescribeAuthPosition(a, f, static_cast<uint32_t>(hba.find("all ")) + 3));  // a blank
}

TEST(HbaDocsTest, HoverTellsTheNetmaskFromTheMethod) {
  const std::string hba = "host all all 10.0.0.0 255.0.0.0 scram-sha-256\nhost all all 10.0.0.0/8 md5\n";
  Analysis a = LintAuthDir("# file: pg_hba.conf\n" + hba);
  int f = FileNamed(a, "pg_hba.conf");
  ASSERT_GE(f, 0);
  auto field_at = [&](size_t at) {
    auto h = DescribeAuthPosition(a, f, static_cast<uint32_t>(at));
    return h ? h->markdown.substr(0, h->markdown.find(':')) : std::string();
  };
  EXPECT_EQ(field_at(hba.find("255")), "**netmask**");
  EXPECT_EQ(field_at(hba.find("scram")), "**authentication method**");
  EXPECT_EQ(field_at(hba.find("md5")), "**authentication method**");
}

TEST(HbaDocsTest, CompletionByField) {
  const std::string hba = "local all all peer \nhost all all all md5 map=\n";
  Analysis a = LintAuthDir("# file: pg_hba.conf\n" + hba + "# file: pg_ident.conf\nadmins alice postgres\n");
  int f = FileNamed(a, "pg_hba.conf");
  EXPECT_TRUE(HasLabel(CompleteAuthPosition(a, f, 0), "hostssl"));
  EXPECT_TRUE(HasLabel(CompleteAuthPosition(a, f, 0), "include"));
  EXPECT_TRUE(HasLabel(CompleteAuthPosition(a, f, static_cast<uint32_t>(hba.find("peer")) + 5), "map="));
  uint32_t map_at = static_cast<uint32_t>(hba.find("map=")) + 4;
  EXPECT_TRUE(HasLabel(CompleteAuthPosition(a, f, map_at), "map=admins"));
  Analysis old = LintAuthDir("# file: pg_hba.conf\n" + hba, 15);
  EXPECT_FALSE(HasLabel(CompleteAuthPosition(old, FileNamed(old, "pg_hba.conf"), 0), "include"));
}

// A live server's names: its databases in the database field, its roles in
// the user field (a group role as +name) and its login roles in
// pg_ident.conf's third field; none without a server.
TEST(HbaDocsTest, CompletionWithAServersNames) {
  const std::string hba = "host all all all scram-sha-256\n";
  const std::string ident = "sso alice \n";
  Analysis a = LintAuthDir("# file: pg_hba.conf\n" + hba + "# file: pg_ident.conf\n" + ident);
  const int f = FileNamed(a, "pg_hba.conf"), g = FileNamed(a, "pg_ident.conf");
  ASSERT_GE(f, 0);
  ASSERT_GE(g, 0);
  AuthNames names;
  names.server = "postgres@db:5432/postgres";
  names.databases = {"app", "postgres"};
  names.roles = {{"alice", true}, {"readers", false}};
  const uint32_t database = static_cast<uint32_t>(hba.find("all")) + 1;
  const uint32_t user = static_cast<uint32_t>(hba.find("all", database + 2)) + 1;
  EXPECT_TRUE(HasLabel(CompleteAuthPosition(a, f, database, &names), "app"));
  EXPECT_TRUE(HasLabel(CompleteAuthPosition(a, f, database, &names), "replication"));
  EXPECT_FALSE(HasLabel(CompleteAuthPosition(a, f, database, &names), "alice"));
  EXPECT_TRUE(HasLabel(CompleteAuthPosition(a, f, user, &names), "alice"));
  EXPECT_TRUE(HasLabel(CompleteAuthPosition(a, f, user, &names), "+readers"));
  EXPECT_FALSE(HasLabel(CompleteAuthPosition(a, f, user, &names), "app"));
  EXPECT_FALSE(HasLabel(CompleteAuthPosition(a, f, database), "app"));
  EXPECT_FALSE(HasLabel(CompleteAuthPosition(a, f, user), "alice"));
  const uint32_t pg_user = static_cast<uint32_t>(ident.size()) - 1;  // after "sso alice "
  EXPECT_TRUE(HasLabel(CompleteAuthPosition(a, g, pg_user, &names), "alice"));
  EXPECT_FALSE(HasLabel(CompleteAuthPosition(a, g, pg_user, &names), "+readers"));
  EXPECT_FALSE(HasLabel(CompleteAuthPosition(a, g, 1, &names), "alice"));  // the map name
}

TEST(HbaDocsTest, VocabularyHasEveryMethodTheParserKnows) {
  int methods = 0;
  for (const AuthWord& w : AuthVocabulary()) methods += w.kind == AuthWordKind::kMethod;
  EXPECT_EQ(methods, 15);
}

}  // namespace
}  // namespace pgconflint
