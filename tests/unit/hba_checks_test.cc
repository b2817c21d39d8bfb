// The matching model of the shadowing checks and the cross-file findings
// (the fixtures tests/fixtures/rules/hba-*.datadir cover every rule).
#include "core/hba/hba_checks.h"

#include <gtest/gtest.h>

#include "core/workspace/workspace.h"

namespace pgconflint {
namespace {

Analysis LintAuth(const std::string& files) {
  static const RuleSet rules;
  return LintText("/hba-checks/postgresql.conf", files, *Catalog::ForMajor(18), rules, Profile(), "/hba-checks");
}

// Rule 1 covers rule 2 of a two-line pg_hba.conf.
bool Covers(const std::string& first, const std::string& second) {
  Analysis a = LintAuth("# file: pg_hba.conf\n" + first + "\n" + second + "\n");
  EXPECT_EQ(a.auth->hba.size(), 2u);
  return HbaRuleCovers(a.auth->hba[0], a.auth->hba[1]);
}

bool Overlap(const std::string& first, const std::string& second) {
  Analysis a = LintAuth("# file: pg_hba.conf\n" + first + "\n" + second + "\n");
  return HbaRulesOverlap(a.auth->hba[0], a.auth->hba[1]);
}

TEST(HbaChecksTest, Coverage) {
  EXPECT_TRUE(Covers("host all all 10.0.0.0/8 md5", "host db u 10.1.0.0/16 trust"));
  EXPECT_TRUE(Covers("host all all all md5", "hostssl db u example.com trust"));
  EXPECT_TRUE(Covers("hostnossl all all all md5", "hostgssenc db u all trust"));  // GSS-encrypted is not SSL
  EXPECT_FALSE(Covers("hostssl all all all md5", "host db u all trust"));
  EXPECT_FALSE(Covers("host all all 10.0.0.0/16 md5", "host db u 10.0.0.0/8 trust"));
  EXPECT_FALSE(Covers("host all all all md5", "host replication u all trust"));  // all is not replication
  EXPECT_TRUE(Covers("host replication all all md5", "host replication u all trust"));
  EXPECT_FALSE(Covers("host all +admins all md5", "host db u all trust"));
  EXPECT_TRUE(Covers("host all +admins all md5", "host db +admins all trust"));
  EXPECT_FALSE(Covers("host \"all\" all all md5", "host db u all trust"));  // a database named all
  EXPECT_FALSE(Covers("host all all example.com md5", "host db u 10.0.0.1/32 trust"));
  EXPECT_TRUE(Covers("host samerole all all md5", "host samegroup u all trust"));
  EXPECT_TRUE(Covers("local all all peer", "local db u trust"));
  EXPECT_FALSE(Covers("local all all peer", "host db u all trust"));
}

TEST(HbaChecksTest, Overlap) {
  EXPECT_TRUE(Overlap("host all all 172.16.0.0/12 md5", "host all eve 172.0.0.0/8 reject"));
  EXPECT_FALSE(Overlap("host all all 10.0.0.0/8 md5", "host all eve 172.0.0.0/8 reject"));
  EXPECT_FALSE(Overlap("hostssl all all all md5", "hostnossl all eve all reject"));
  EXPECT_FALSE(Overlap("host db1 all all md5", "host db2 eve all reject"));
  EXPECT_TRUE(Overlap("host db1,db2 all all md5", "host db2 eve all reject"));
}

TEST(HbaChecksTest, HostsslFindingPointsAtSsl) {
  Analysis a = LintAuth("ssl = off\n# file: pg_hba.conf\nhostssl all all all scram-sha-256\n");
  const Diagnostic* d = nullptr;
  for (const Diagnostic& x : a.diagnostics)
    if (std::string(x.rule->code) == "PGC838") d = &x;
  ASSERT_NE(d, nullptr);
  ASSERT_EQ(d->notes.size(), 1u);
  EXPECT_EQ(a.files[d->notes[0].where.file].source.path(), "postgresql.conf");
  Analysis on = LintAuth("ssl = on\n# file: pg_hba.conf\nhostssl all all all scram-sha-256\n");
  for (const Diagnostic& x : on.diagnostics) EXPECT_NE(std::string(x.rule->code), "PGC838");
}

TEST(HbaChecksTest, Md5IsDeprecatedIn18Only) {
  static const RuleSet rules;
  Analysis a18 = LintText("/m/postgresql.conf", "password_encryption = md5\n# file: pg_hba.conf\nlocal all all md5\n",
                          *Catalog::ForMajor(18), rules, Profile());
  Analysis a17 = LintText("/m/postgresql.conf", "password_encryption = md5\n# file: pg_hba.conf\nlocal all all md5\n",
                          *Catalog::ForMajor(17), rules, Profile());
  auto has = [](const Analysis& a) {
    for (const Diagnostic& d : a.diagnostics)
      if (std::string(d.rule->code) == "PGC837") return true;
    return false;
  };
  EXPECT_TRUE(has(a18));
  EXPECT_FALSE(has(a17));
}

}  // namespace
}  // namespace pgconflint
