// The checkstyle format: one <file> per file, columns in code points,
// severities and sources, XML-safe text (control characters, invalid UTF-8).
#include <gtest/gtest.h>

#include "report_fixture.h"

namespace pgconflint {
namespace {

TEST(CheckstyleTest, ColumnsCountCodePoints) {
  std::string out = RenderReport("checkstyle", NonAsciiReport());
  EXPECT_NE(out.find("<file name=\"pg/postgresql.conf\">"), std::string::npos) << out;
  EXPECT_NE(out.find("<error line=\"3\" column=\"28\" severity=\"error\""), std::string::npos) << out;
  EXPECT_NE(out.find("source=\"pgconflint.PGC001.syntax-error\""), std::string::npos) << out;
}

TEST(CheckstyleTest, TextIsValidXml) {
  static const RuleSet rules;
  std::vector<Analysis> v;
  v.push_back(LintText("/repo/p.conf", "cluster_name = 'a\x1b\xff' <x>\n", *Catalog::ForMajor(18), rules, Profile(),
                       "/repo"));
  std::string out = RenderReport("checkstyle", v);
  EXPECT_EQ(out.find('\x1b'), std::string::npos);
  EXPECT_EQ(out.find('\xff'), std::string::npos);
  EXPECT_NE(out.find("token &quot;&lt;&quot;"), std::string::npos) << out;  // syntax error near token "<"
  EXPECT_EQ(out.find("\"<\""), std::string::npos) << out;
}

}  // namespace
}  // namespace pgconflint
