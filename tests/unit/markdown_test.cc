// The markdown format: a deterministic PR comment, escaped (no HTML, no
// mentions), and never longer than 65,000 characters.
#include <gtest/gtest.h>

#include "report/text.h"
#include "report_fixture.h"

namespace pgconflint {
namespace {

TEST(MarkdownTest, TableWithCodePointColumns) {
  std::string out = RenderReport("markdown", NonAsciiReport());
  EXPECT_EQ(out.rfind("### pgconflint: ", 0), 0u) << out;
  EXPECT_NE(out.find("| pg/postgresql.conf:3:28 |"), std::string::npos) << out;
  EXPECT_EQ(out.find('\x1b'), std::string::npos);
  EXPECT_EQ(out, RenderReport("markdown", NonAsciiReport())) << "deterministic";
}

TEST(MarkdownTest, EscapesHtmlPipesAndMentions) {
  EXPECT_EQ(MarkdownEscape("a|b <script> @team *x*"), "a\\|b &lt;script&gt; &#64;team \\*x\\*");
}

TEST(MarkdownTest, LongReportsFallBackToASummary) {
  static const RuleSet rules;
  std::string conf;
  for (int i = 0; i < 3000; ++i) conf += "bogus_parameter_number_" + std::to_string(i) + " = 1\n";
  std::vector<Analysis> v;
  v.push_back(LintText("/repo/postgresql.conf", conf, *Catalog::ForMajor(18), rules, Profile(), "/repo"));
  std::string out = RenderReport("markdown", v);
  EXPECT_LE(out.size(), 65000u);
  EXPECT_NE(out.find("| rule | findings |"), std::string::npos) << "the counts per rule";
  EXPECT_NE(out.find("more findings not shown"), std::string::npos);
}

}  // namespace
}  // namespace pgconflint
