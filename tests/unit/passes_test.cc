// The passes' fixes: each applied fix removes its finding, changes nothing
// else the server reads, and a second application changes nothing.
#include "core/conf/analyze.h"
#include "core/conf/passes.h"

#include <gtest/gtest.h>

#include "core/model/analysis.h"
#include "core/base/host.h"

namespace pgconflint {
namespace {

Analysis Analyze18(const std::string& text) {
  AnalyzeOptions o;
  o.catalog = Catalog::ForMajor(18);
  static const OverlayFileSystem empty(nullptr, "/");
  o.fs = &empty;
  return AnalyzeText("/p/postgresql.conf", text, o);
}

const Diagnostic* FindCode(const Analysis& a, const char* code) {
  for (const Diagnostic& d : a.diagnostics)
    if (std::string(d.rule->code) == code) return &d;
  return nullptr;
}

struct PassCase {
  const char* text;
  const char* code;
  const char* fixed;  // after the first fix
  FixSafety safety;
};

TEST(PassesTest, FixesDoWhatTheySay) {
  const PassCase cases[] = {
      {"work_mem = 64 MB\n", "PGC001", "work_mem = '64MB'\n", FixSafety::kSafe},
      {"listen_addresses = 0.0.0.0  # all\n", "PGC001", "listen_addresses = '0.0.0.0'  # all\n", FixSafety::kSafe},
      {"work_mem = 64 MiB\n", "PGC001", "work_mem = '64MiB'\n", FixSafety::kUnsafe},
      {"sort_mem = '4MB'\n", "PGC103", "work_mem = '4MB'\n", FixSafety::kSafe},
      {"shared_buffers = 16384\n", "PGC204", "shared_buffers = '128MB'\n", FixSafety::kSafe},
      {"port = 1\n# keep\nport = 2\n", "PGC303", "# keep\nport = 2\n", FixSafety::kSafe},
      {"wrok_mem = '1MB'\n", "PGC101", "work_mem = '1MB'\n", FixSafety::kUnsafe},
  };
  for (const PassCase& c : cases) {
    Analysis a = Analyze18(c.text);
    const Diagnostic* d = FindCode(a, c.code);
    ASSERT_NE(d, nullptr) << c.text;
    ASSERT_EQ(d->fixes.size(), 1u) << c.text;
    EXPECT_EQ(d->fixes[0].safety, c.safety) << c.text;
    std::string fixed = ApplyFixes(c.text, 0, {&d->fixes[0]});
    EXPECT_EQ(fixed, c.fixed);
    Analysis after = Analyze18(fixed);
    EXPECT_EQ(FindCode(after, c.code), nullptr) << fixed;
    if (c.safety == FixSafety::kSafe) {
      EXPECT_FALSE(after.fatal()) << fixed;
      for (const Diagnostic& x : after.diagnostics) EXPECT_TRUE(x.fixes.empty() || x.rule != d->rule) << fixed;
    }
  }
}

// The "append an include" workflow: one finding per overriding file, at the
// include directive, a note per overridden line, nothing to delete.
TEST(PassesTest, OverriddenAcrossFilesIsOneFindingAtTheInclude) {
  OverlayFileSystem fs(nullptr, "/p");
  fs.Set("/p/postgresql.conf", "work_mem = '4MB'\nshared_buffers = '128MB'\ninclude 'tuning.conf'\n");
  fs.Set("/p/tuning.conf", "work_mem = '64MB'\nshared_buffers = '4GB'\n");
  AnalyzeOptions o;
  o.catalog = Catalog::ForMajor(18);
  o.fs = &fs;
  Analysis a = Analyze("/p/postgresql.conf", o);
  int count = 0;
  for (const Diagnostic& d : a.diagnostics) count += std::string_view(d.rule->code) == "PGC303";
  EXPECT_EQ(count, 1);
  const Diagnostic* d = FindCode(a, "PGC303");
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(a.Describe({d->file, d->range}), "/p/postgresql.conf:3");
  EXPECT_NE(d->message.find("(included here) overrides 2 settings of this file: work_mem, shared_buffers"),
            std::string::npos)
      << d->message;
  ASSERT_EQ(d->notes.size(), 2u);
  EXPECT_EQ(a.Describe(d->notes[0].where), "/p/postgresql.conf:1");
  EXPECT_TRUE(d->fixes.empty());
}

TEST(PassesTest, OverriddenWithinAFileIsASafeDeletion) {
  OverlayFileSystem fs(nullptr, "/p");
  fs.Set("/p/postgresql.conf", "work_mem = '4MB'\nwork_mem = '8MB'\n");
  AnalyzeOptions o;
  o.catalog = Catalog::ForMajor(18);
  o.fs = &fs;
  Analysis a = Analyze("/p/postgresql.conf", o);
  const Diagnostic* d = FindCode(a, "PGC303");
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->message, "\"work_mem\" is set again later, so this line has no effect");
  ASSERT_EQ(d->fixes.size(), 1u);
  EXPECT_EQ(d->fixes[0].safety, FixSafety::kSafe);
  EXPECT_TRUE(d->tags & kTagUnnecessary);
}

TEST(PassesTest, HostDependentValuesAreWarningsOffTheServersHost) {
  const std::string text = "lc_messages = 'xx_YY.UTF-8'\n";
  for (bool server_host : {true, false}) {
    LocalHost host(server_host);
    AnalyzeOptions o;
    o.catalog = Catalog::ForMajor(18);
    o.host = &host;
    static const OverlayFileSystem empty(nullptr, "/");
    o.fs = &empty;
    Analysis a = AnalyzeText("/p/postgresql.conf", text, o);
    const Diagnostic* d = FindCode(a, "PGC201");
    ASSERT_NE(d, nullptr);
    EXPECT_EQ(d->fatal(), server_host);
    EXPECT_EQ(d->severity(), server_host ? Severity::kError : Severity::kWarning);
    if (!server_host) {
      EXPECT_NE(d->message.find("depends on the server's host"), std::string::npos) << d->message;
    }
  }
  UnknownHost unknown;
  AnalyzeOptions o;
  o.catalog = Catalog::ForMajor(18);
  o.host = &unknown;
  static const OverlayFileSystem empty(nullptr, "/");
  o.fs = &empty;
  EXPECT_TRUE(AnalyzeText("/p/postgresql.conf", text, o).diagnostics.empty());
}

TEST(ApplyFixesTest, OverlappingFixesAreSkippedWhole) {
  Fix a = MakeFix("a", FixSafety::kSafe, {0, {0, 4}}, "AAAA");
  Fix b = MakeFix("b", FixSafety::kSafe, {0, {2, 6}}, "B");
  Fix c = MakeFix("c", FixSafety::kSafe, {0, {8, 8}}, "+");
  int applied = 0;
  EXPECT_EQ(ApplyFixes("0123456789", 0, {&a, &b, &c}, &applied), "AAAA4567+89");
  EXPECT_EQ(applied, 2);
  EXPECT_EQ(ApplyFixes("0123456789", 1, {&a}), "0123456789") << "edits of other files are not applied";
}

TEST(EditSetTest, AFixIsTakenWholeOrNotAndInTextOrder) {
  EditSet set(20, 0);
  Fix late = MakeFix("late", FixSafety::kSafe, {0, {10, 12}}, "L");
  Fix early = MakeFix("early", FixSafety::kSafe, {0, {2, 4}}, "E");
  Fix inside = MakeFix("inside", FixSafety::kSafe, {0, {3, 3}}, "I");     // an insertion inside early
  Fix same = MakeFix("same", FixSafety::kSafe, {0, {10, 10}}, "S");       // inserts where late starts
  Fix touching = MakeFix("touching", FixSafety::kSafe, {0, {12, 14}}, "T");  // starts where late ends
  Fix beyond = MakeFix("beyond", FixSafety::kSafe, {0, {19, 21}}, "B");
  EXPECT_TRUE(set.Add(late));
  EXPECT_TRUE(set.Add(early));
  EXPECT_FALSE(set.Add(inside));
  EXPECT_FALSE(set.Add(same));
  EXPECT_TRUE(set.Add(touching));
  EXPECT_FALSE(set.Add(beyond)) << "past the end of the file";
  EXPECT_EQ(set.fixes(), 3);
  EXPECT_EQ(set.Apply("0123456789abcdefghij"), "01E456789LTefghij");
}

TEST(ApplyFixesTest, CompatibleEditsAreTheOnesApplyFixesMakesInTextOrder) {
  Fix late = MakeFix("late", FixSafety::kSafe, {0, {8, 9}}, "x");
  Fix early = MakeFix("early", FixSafety::kSafe, {0, {0, 4}}, "AAAA");
  Fix clash = MakeFix("clash", FixSafety::kSafe, {0, {2, 6}}, "B");
  Fix elsewhere = MakeFix("elsewhere", FixSafety::kSafe, {1, {0, 1}}, "y");
  int applied = 0;
  std::vector<const Edit*> edits = CompatibleEdits(10, 0, {&late, &early, &clash, &elsewhere}, &applied);
  ASSERT_EQ(edits.size(), 2u);
  EXPECT_EQ(edits[0], &early.edits[0]);
  EXPECT_EQ(edits[1], &late.edits[0]);
  EXPECT_EQ(applied, 2);
  Fix beyond = MakeFix("beyond", FixSafety::kSafe, {0, {9, 11}}, "z");
  EXPECT_TRUE(CompatibleEdits(10, 0, {&beyond}).empty()) << "an edit past the end is refused";
}

}  // namespace
}  // namespace pgconflint
