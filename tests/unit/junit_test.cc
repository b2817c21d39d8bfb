// The junit format: one suite per root, one failed case per finding with its
// position in code points, XML escaping, a passing case for a clean root.
#include <gtest/gtest.h>

#include "report_fixture.h"

namespace pgconflint {
namespace {

TEST(JunitTest, OneFailedCasePerFinding) {
  std::vector<Analysis> report = NonAsciiReport();
  std::string out = RenderReport("junit", report);
  size_t n = report[0].diagnostics.size();
  EXPECT_NE(out.find("<testsuites name=\"pgconflint\" tests=\"" + std::to_string(n) + "\" failures=\"" +
                     std::to_string(n) + "\""),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("name=\"PGC001 syntax-error at pg/postgresql.conf:3:28\""), std::string::npos) << out;
  EXPECT_EQ(out.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", 0), 0u);
}

TEST(JunitTest, CleanRootPassesAndTextIsEscaped) {
  static const RuleSet rules;
  std::vector<Analysis> v;
  v.push_back(LintText("/repo/clean.conf", "port = 5432\n", *Catalog::ForMajor(18), rules, Profile(), "/repo"));
  v.push_back(LintText("/repo/x&<y>.conf", "cluster_name = 'a\"b' c\n", *Catalog::ForMajor(18), rules, Profile(), "/repo"));
  std::string out = RenderReport("junit", v);
  EXPECT_NE(out.find("<testcase classname=\"clean.conf\" name=\"pgconflint\"/>"), std::string::npos) << out;
  EXPECT_NE(out.find("x&amp;&lt;y&gt;.conf"), std::string::npos) << out;
  EXPECT_EQ(out.find("x&<"), std::string::npos);
}

}  // namespace
}  // namespace pgconflint
