// `# pgconflint:` directives and suppressions.
#include "core/model/directives.h"

#include <gtest/gtest.h>

#include "core/workspace/suppressions.h"
#include "core/workspace/workspace.h"

namespace pgconflint {
namespace {

FileDirectives ReadDirectives(const std::string& text) {
  SourceFile f("postgresql.conf", text);
  return ReadDirectives(f.text(), Parse(f));
}

std::vector<std::string> CodesAtLines(const Analysis& a) {
  std::vector<std::string> out;
  for (const Diagnostic& d : a.diagnostics) out.push_back(std::string(d.rule->code) + "@" +
                                                          std::to_string(a.files[d.file].source.LineOf(d.range.begin)));
  return out;
}

Analysis LintConf(const std::string& text) {
  static const RuleSet rules;
  return LintText("postgresql.conf", text, *Catalog::ForMajor(18), rules, Profile());
}

TEST(DirectivesTest, KindsAndTheLinesTheyApplyTo) {
  FileDirectives d = ReadDirectives(
      "work_mem = 10  # pgconflint: disable=PGC202,value-rounded # why\n"
      "# pgconflint: disable=PGC204\n"
      "\n"
      "# a comment between\n"
      "shared_buffers = 16384\n"
      "# pgconflint: disable-file=PGC303 pg-version=17\n");
  ASSERT_EQ(d.directives.size(), 4u);
  EXPECT_TRUE(d.malformed.empty());
  EXPECT_EQ(d.directives[0].kind, Directive::Kind::kDisableLine);
  EXPECT_EQ(d.directives[0].line, 1u);
  EXPECT_EQ(d.directives[0].selectors, (std::vector<std::string>{"PGC202", "value-rounded"}));
  EXPECT_EQ(d.directives[1].kind, Directive::Kind::kDisableNext);
  EXPECT_EQ(d.directives[1].line, 5u);
  EXPECT_EQ(d.directives[2].kind, Directive::Kind::kDisableFile);
  EXPECT_EQ(d.directives[3].kind, Directive::Kind::kPgVersion);
  EXPECT_EQ(d.directives[3].pg_version, 17);
}

TEST(DirectivesTest, OnlyRealCommentsCount) {
  FileDirectives d = ReadDirectives("cluster_name = 'a # pgconflint: pg-version=14'\n");
  EXPECT_TRUE(d.directives.empty());
  EXPECT_TRUE(d.malformed.empty());
}

TEST(DirectivesTest, AReasonNeedsNoSecondHashButAMisspeltItemIsReported) {
  FileDirectives ok = ReadDirectives("# pgconflint: disable=listen-all-without-ssl because TLS terminates at the proxy\n");
  EXPECT_EQ(ok.directives.size(), 1u);
  EXPECT_TRUE(ok.malformed.empty());
  FileDirectives typo = ReadDirectives("# pgconflint: disable=PGC202 disabel=PGC203 and a reason\n");
  EXPECT_EQ(typo.directives.size(), 1u);
  ASSERT_EQ(typo.malformed.size(), 1u);
  EXPECT_EQ(typo.malformed[0].item, "disabel=PGC203");
  FileDirectives words = ReadDirectives("# pgconflint: please ignore this line\n");
  EXPECT_TRUE(words.directives.empty());
  EXPECT_EQ(words.malformed.size(), 1u) << "one finding for the comment, not one per word";
}

// The editors' first-line marker: read by the classifier, not a malformed
// directive; anywhere else, or with another value, it is one.
TEST(DirectivesTest, FileTypeMarkerOnTheFirstLine) {
  EXPECT_EQ(FirstLineFileType("# pgconflint: file-type=hba\nlocal all all peer\n"), MarkedFileType::kHba);
  EXPECT_EQ(FirstLineFileType("  #pgconflint:file-type = ident\r\n"), MarkedFileType::kIdent)
      << "blanks as the editors' patterns allow them";
  EXPECT_EQ(FirstLineFileType("# pgconflint: file-type=conf # read as postgresql.conf"), MarkedFileType::kConf);
  EXPECT_EQ(FirstLineFileType("# pgconflint: file-type=yaml\n"), MarkedFileType::kNone);
  EXPECT_EQ(FirstLineFileType("# pgconflint: file-type=hbax\n"), MarkedFileType::kNone);
  EXPECT_EQ(FirstLineFileType("# pgconflint: file-type=HBA\n"), MarkedFileType::kNone) << "as the editors: lower case";
  EXPECT_EQ(FirstLineFileType("\n# pgconflint: file-type=hba\n"), MarkedFileType::kNone) << "the first line only";
  EXPECT_EQ(FirstLineFileType("work_mem = 1 # pgconflint: file-type=hba\n"), MarkedFileType::kNone);

  FileDirectives d = ReadDirectives("# pgconflint: file-type = conf disable-file=PGC303\nwork_mem = '4MB'\n");
  EXPECT_TRUE(d.malformed.empty());
  ASSERT_EQ(d.directives.size(), 1u) << "other items of the same comment are read";
  EXPECT_EQ(d.directives[0].kind, Directive::Kind::kDisableFile);
  EXPECT_TRUE(ReadDirectives("# pgconflint: file-type=conf\n").malformed.empty());
  FileDirectives later = ReadDirectives("work_mem = '4MB'\n# pgconflint: file-type=conf\n");
  ASSERT_EQ(later.malformed.size(), 1u);
  EXPECT_EQ(later.malformed[0].item, "file-type=conf");
  ASSERT_EQ(ReadDirectives("# pgconflint: file-type=xml\n").malformed.size(), 1u);
  EXPECT_EQ(CodesAtLines(LintConf("# pgconflint: file-type=conf\nwork_mem = '4MB'\n")), std::vector<std::string>{});
}

TEST(DirectivesTest, AbsurdVersionsAreNoVersion) {
  FileDirectives d = ReadDirectives("# pgconflint: pg-version=4294967310\n");
  ASSERT_EQ(d.directives.size(), 1u);
  EXPECT_EQ(d.directives[0].pg_version, 0);
  Analysis a = LintConf("# pgconflint: pg-version=4294967310\n");
  EXPECT_EQ(CodesAtLines(a), std::vector<std::string>{"PGC903@1"});
}

TEST(SuppressionsTest, LineNextAndFile) {
  Analysis a = LintConf(
      "work_mem = 10  # pgconflint: disable=value-out-of-range # legacy test box\n"
      "# pgconflint: disable=PGC204\n"
      "shared_buffers = 16384\n"
      "# pgconflint: disable-file=PGC303\n"
      "port = 5432\nport = 5433\n"
      "temp_buffers = '8MB'  # pgconflint: disable=PGC202\n");
  EXPECT_EQ(CodesAtLines(a), std::vector<std::string>{"PGC901@7"});
  EXPECT_FALSE(a.fatal()) << "the suppressed refusal is not reported: the summary and the exit code agree";
}

TEST(SuppressionsTest, ManySuppressionsStayLinear) {
  // 20,000 pairs: quadratic matching would take seconds; the test only
  // checks the result, the benchmark measures the time.
  std::string text;
  for (int i = 0; i < 20000; ++i) text += "# pgconflint: disable=PGC202\nwork_mem = 1\n";
  Analysis a = LintConf(text);
  for (const Diagnostic& d : a.diagnostics) EXPECT_NE(std::string(d.rule->code), "PGC202");
}

TEST(SuppressionsTest, TheSuppressionFixSilencesTheFindingWithoutAnUnusedSuppression) {
  const char* cases[] = {
      "shared_buffers = 16384\n",                         // PGC204 on a setting
      "  work_mem = 64 MB\n",                             // PGC001 on a syntax error, indented
      "port = 5432\n# a comment\nport = 5433\n",          // PGC303
  };
  for (const char* text : cases) {
    Analysis a = LintConf(text);
    ASSERT_FALSE(a.diagnostics.empty()) << text;
    for (const Diagnostic& d : a.diagnostics) {
      Fix fix;
      ASSERT_TRUE(SuppressionFix(a, d, &fix)) << text;
      std::string fixed = ApplyFixes(a.files[0].source.text(), 0, {&fix});
      Analysis after = LintConf(fixed);
      for (const Diagnostic& x : after.diagnostics) {
        EXPECT_NE(std::string(x.rule->code), std::string(d.rule->code)) << fixed;
        EXPECT_NE(std::string(x.rule->code), "PGC901") << fixed;
      }
    }
  }
}

TEST(SuppressionsTest, TheFileSuppressionFixSilencesTheRuleInTheFileWithoutAnUnusedSuppression) {
  const char* cases[] = {
      "shared_buffers = 16384\n",
      "  work_mem = 64 MB\n",
      "port = 5432\n# a comment\nport = 5433\n",
      "# tuned by hand\nshared_buffers = 16384\n",  // the file's first line is a comment
  };
  for (const char* text : cases) {
    Analysis a = LintConf(text);
    ASSERT_FALSE(a.diagnostics.empty()) << text;
    for (const Diagnostic& d : a.diagnostics) {
      Fix fix;
      ASSERT_TRUE(SuppressionFileFix(a, d, &fix)) << text;
      EXPECT_EQ(fix.title, std::string("disable ") + d.rule->code + " for this file");
      std::string fixed = ApplyFixes(a.files[0].source.text(), 0, {&fix});
      EXPECT_EQ(fixed.rfind(std::string("# pgconflint: disable-file=") + d.rule->code + "\n", 0), 0u) << fixed;
      Analysis after = LintConf(fixed);
      for (const Diagnostic& x : after.diagnostics) {
        EXPECT_NE(std::string(x.rule->code), std::string(d.rule->code)) << fixed;
        EXPECT_NE(std::string(x.rule->code), "PGC901") << fixed;
      }
    }
  }
}

TEST(SuppressionsTest, NoSuppressionFixForASuppressionFinding) {
  Analysis a = LintConf("# pgconflint: disable=PGC202\nport = 5432\n");
  ASSERT_EQ(a.diagnostics.size(), 1u);
  ASSERT_EQ(std::string(a.diagnostics[0].rule->code), "PGC901");
  Fix fix;
  EXPECT_FALSE(SuppressionFix(a, a.diagnostics[0], &fix));
  EXPECT_FALSE(SuppressionFileFix(a, a.diagnostics[0], &fix));
}

}  // namespace
}  // namespace pgconflint
