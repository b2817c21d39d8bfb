// Findings about defaults are placed where a reader would set the parameter,
// only for a whole configuration; findings of several cross-parameter rules
// about one setting fold into one.
#include "core/model/finding_placement.h"

#include <gtest/gtest.h>

#include "core/knowledge/catalog.h"
#include "core/rules/rules.h"
#include "core/workspace/workspace.h"

namespace pgconflint {
namespace {

Analysis Text(const std::string& name, const std::string& text) {
  static const RuleSet rules;
  return LintText(name, text, *Catalog::ForMajor(18), rules, Profile());
}

TEST(FindingPlacementTest, TheClassifierSaysWhichRootIsAWholeConfiguration) {
  EXPECT_TRUE(Text("/x/postgresql.conf", "").whole_configuration);
  EXPECT_TRUE(Text("/x/custom-postgresql.conf", "work_mem = '4MB'\n").whole_configuration);
  EXPECT_TRUE(Text("/x/postgresql.conf.sample", "work_mem = '4MB'\n").whole_configuration);
  EXPECT_TRUE(Text("/x/main.conf", "include_dir 'conf.d'\n").whole_configuration) << "it includes others";
  EXPECT_FALSE(Text("/x/postgresql.auto.conf", "").whole_configuration);
  EXPECT_FALSE(Text("/x/conf.d/10-memory.conf", "work_mem = '4MB'\n").whole_configuration);
}

TEST(FindingPlacementTest, DefaultGoesToTheCommentedOutLineElseTheEnd) {
  Analysis a = Text("/x/postgresql.conf", "# Memory\n#shared_buffers = 128MB\t# min 128kB\nwork_mem = 4MB\n");
  Location at = DefaultLocation(a, "shared_buffers");
  EXPECT_EQ(a.files[0].source.LineOf(at.range.begin), 2u);
  // Not a prefix of another name: "#shared_buffers_x" is not the line.
  Analysis b = Text("/x/postgresql.conf", "#shared_buffersx = 1\nwork_mem = 4MB\n");
  Location end = DefaultLocation(b, "shared_buffers");
  EXPECT_EQ(end.range.begin, end.range.end);
  EXPECT_EQ(b.files[0].source.LineOf(end.range.begin), 2u);
}

TEST(FindingPlacementTest, FoldKeepsTheMostSevereAndNotesTheOthers) {
  Analysis a = Text("/x/postgresql.conf", "effective_io_concurrency = 300\n");
  a.diagnostics.clear();
  static const RuleSet rules;
  auto add = [&](const char* code, Severity severity, const char* message) {
    Diagnostic d = MakeDiagnostic(*rules.Find(code), {0, {0, 30}}, message, "", "effective_io_concurrency");
    d.level = severity;
    a.diagnostics.push_back(std::move(d));
  };
  add("PGC703", Severity::kInfo, "outside the range");
  add("PGC701", Severity::kWarning, "far above");
  add("PGC404", Severity::kWarning, "above io_max_concurrency");
  add("PGC811", Severity::kWarning, "another problem");  // PGC8xx: never folded
  FoldRelatedFindings(&a);
  ASSERT_EQ(a.diagnostics.size(), 2u);
  EXPECT_EQ(std::string(a.diagnostics[0].rule->code), "PGC404");
  // The folded findings are data: their rules and messages.
  EXPECT_TRUE(a.diagnostics[0].notes.empty());
  ASSERT_EQ(a.diagnostics[0].also.size(), 2u);
  EXPECT_EQ(std::string(a.diagnostics[0].also[0].rule->code), "PGC701");
  EXPECT_EQ(a.diagnostics[0].also[0].message, "far above");
  EXPECT_EQ(std::string(a.diagnostics[0].also[1].rule->code), "PGC703");
  EXPECT_EQ(a.diagnostics[0].also[1].message, "outside the range");
  EXPECT_EQ(std::string(a.diagnostics[1].rule->code), "PGC811");
}

}  // namespace
}  // namespace pgconflint
