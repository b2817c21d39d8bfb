// Unified diffs: hunks with 3 lines of context, merged when close, line
// endings and a missing final newline shown as diff -u shows them.
#include "report/unified_diff.h"

#include <gtest/gtest.h>

#include <string>

namespace pgconflint {
namespace {

std::string Numbered(int n, int changed = 0, const char* with = "") {
  std::string s;
  for (int i = 1; i <= n; ++i) s += i == changed ? std::string(with) + "\n" : "line " + std::to_string(i) + "\n";
  return s;
}

TEST(UnifiedDiffTest, EqualTextsHaveNoDiff) { EXPECT_EQ(UnifiedDiff("a.conf", "x\n", "x\n"), ""); }

TEST(UnifiedDiffTest, OneChangeWithContext) {
  EXPECT_EQ(UnifiedDiff("a.conf", Numbered(10), Numbered(10, 5, "five")),
            "--- a/a.conf\n+++ b/a.conf\n@@ -2,7 +2,7 @@\n line 2\n line 3\n line 4\n-line 5\n+five\n line 6\n"
            " line 7\n line 8\n");
}

TEST(UnifiedDiffTest, FarChangesAreSeparateHunksNearOnesOne) {
  std::string before = Numbered(30), far = before, near = before;
  far.replace(far.find("line 2\n"), 7, "two\n");
  far.replace(far.find("line 25\n"), 8, "");
  EXPECT_EQ(UnifiedDiff("f", before, far),
            "--- a/f\n+++ b/f\n@@ -1,5 +1,5 @@\n line 1\n-line 2\n+two\n line 3\n line 4\n line 5\n"
            "@@ -22,7 +22,6 @@\n line 22\n line 23\n line 24\n-line 25\n line 26\n line 27\n line 28\n");
  near.replace(near.find("line 10\n"), 8, "ten\n");
  near.replace(near.find("line 16\n"), 8, "sixteen\n");
  std::string d = UnifiedDiff("f", before, near);
  // One hunk: changes 6 kept lines apart share their context.
  EXPECT_EQ(d.find("\n@@ "), d.find("\n@@ -7,13 +7,13 @@\n")) << d;
  EXPECT_EQ(d.find("\n@@ ", d.find("\n@@ ") + 1), std::string::npos) << d;
}

TEST(UnifiedDiffTest, CrlfAndNoFinalNewline) {
  EXPECT_EQ(UnifiedDiff("w", "a = 1\r\nb = 2", "a = 1\r\nb = 3"),
            "--- a/w\n+++ b/w\n@@ -1,2 +1,2 @@\n a = 1\r\n-b = 2\n\\ No newline at end of file\n+b = 3\n"
            "\\ No newline at end of file\n");
}

TEST(UnifiedDiffTest, DeletedLineAtTheStart) {
  EXPECT_EQ(UnifiedDiff("d", "x\ny\n", "y\n"), "--- a/d\n+++ b/d\n@@ -1,2 +1 @@\n-x\n y\n");
}

TEST(UnifiedDiffTest, ManyChangesFarApartStayMinimal) {
  // 4,000 dead duplicate lines deleted from 8,000: too large for one LCS
  // table; the unique lines anchor the patience diff, so only the deleted
  // lines are shown as changed (the file was shown as replaced whole).
  std::string before, after;
  for (int i = 0; i < 4000; ++i) {
    before += "c" + std::to_string(i) + ".x = 1\nc" + std::to_string(i) + ".x = 2\n";
    after += "c" + std::to_string(i) + ".x = 2\n";
  }
  std::string d = UnifiedDiff("p", before, after);
  size_t removed = 0, added = 0;
  for (size_t at = 0; (at = d.find('\n', at)) != std::string::npos && at + 1 < d.size(); ++at) {
    removed += d[at + 1] == '-' && d.compare(at + 1, 3, "---") != 0;
    added += d[at + 1] == '+' && d.compare(at + 1, 3, "+++") != 0;
  }
  EXPECT_EQ(removed, 4000u);
  EXPECT_EQ(added, 0u);
}

}  // namespace
}  // namespace pgconflint
