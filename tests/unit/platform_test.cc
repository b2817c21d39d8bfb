// The platform facts: boot values and upper limits that differ from the
// harvested (Linux) catalogs on the profile's --os, through the workspace
// (the values pass refuses, EffectiveConfig and `show` take the default).
#include "core/knowledge/platform.h"

#include <gtest/gtest.h>

#include "core/model/effective.h"
#include "core/workspace/workspace.h"
#include "fake_disk.h"

namespace pgconflint {
namespace {

Analysis LintOn(const std::string& os, int major, const std::string& text) {
  FakeDisk disk;
  std::string path = disk.Write("pg/postgresql.conf", text);
  WorkspaceOptions o;
  o.fs = &disk.fs();
  o.pg_version = major;
  if (!os.empty()) o.profile_facts = {{"os", os}};
  Workspace ws(o);
  Analysis a;
  std::string error;
  EXPECT_TRUE(ws.Lint(path, &a, &error)) << error;
  return a;
}

std::vector<std::string> PlatformRefusals(const Analysis& a) {
  std::vector<std::string> out;
  for (const Diagnostic& d : a.diagnostics)
    if (d.rule->id == RuleId::kValueOutOfRange) out.push_back(d.parameter + ": " + d.message);
  return out;
}

TEST(PlatformTest, EveryFactNamesAParameterOfItsMajorsAndASource) {
  for (const PlatformFact& f : PlatformFacts()) {
    EXPECT_NE(std::string(f.basis), "") << f.parameter;
    EXPECT_NE(std::string(f.source).find("\""), std::string::npos) << f.parameter << ": quote the source";
    for (int major : Catalog::SupportedMajors()) {
      if (major < f.first_major || major > f.last_major) continue;
      const Parameter* p = Catalog::ForMajor(major)->Find(f.parameter);
      ASSERT_NE(p, nullptr) << f.parameter << " in " << major;
      if (f.kind == PlatformFact::Kind::kMaximum) {
        EXPECT_LT(strtod(f.value, nullptr), p->max) << f.parameter;
      }
    }
  }
}

TEST(PlatformTest, WindowsRefusesWhatLinuxAccepts) {
  const std::string text = "work_mem = '3GB'\nmaintenance_work_mem = '2047MB'\nio_combine_limit = '256kB'\n";
  std::vector<std::string> windows = PlatformRefusals(LintOn("windows", 17, text));
  ASSERT_EQ(windows.size(), 2u);
  EXPECT_EQ(windows[0], "work_mem: 3145728 kB is outside the valid range for parameter \"work_mem\" (64 kB .. 2097151 kB)");
  EXPECT_EQ(windows[1],
            "io_combine_limit: 32 8kB is outside the valid range for parameter \"io_combine_limit\" (1 8kB .. 16 8kB)");
  EXPECT_TRUE(PlatformRefusals(LintOn("linux", 17, text)).empty());
  EXPECT_TRUE(PlatformRefusals(LintOn("", 17, text)).empty());  // no --os: the catalog's ranges
  // 18 keeps the combine limit on Windows, not the kilobyte one.
  std::vector<std::string> windows18 = PlatformRefusals(LintOn("windows", 18, "work_mem = '3GB'\nio_max_combine_limit = '1MB'\n"));
  ASSERT_EQ(windows18.size(), 1u);
  EXPECT_EQ(windows18[0].substr(0, 21), "io_max_combine_limit:");
}

TEST(PlatformTest, FlushAfterDefaultsAreZeroOffLinux) {
  for (const char* os : {"macos", "windows", "freebsd"}) {
    Analysis a = LintOn(os, 18, "shared_buffers = '1GB'\n");
    EffectiveConfig eff(a);
    EXPECT_EQ(eff.Configured("bgwriter_flush_after"), "0") << os;
    EXPECT_EQ(eff.Configured("checkpoint_flush_after"), "0") << os;
    EXPECT_EQ(eff.Configured("wal_writer_flush_after"), Catalog::ForMajor(18)->Find("wal_writer_flush_after")->boot_val);
  }
  Analysis linux = LintOn("linux", 18, "shared_buffers = '1GB'\n");
  EffectiveConfig eff(linux);
  EXPECT_EQ(eff.Configured("bgwriter_flush_after"), Catalog::ForMajor(18)->Find("bgwriter_flush_after")->boot_val);
  EXPECT_NE(std::string(Catalog::ForMajor(18)->Find("bgwriter_flush_after")->boot_val), "0");
  // A line that sets it wins on every platform.
  Analysis set = LintOn("macos", 18, "bgwriter_flush_after = 0\ncheckpoint_flush_after = '128kB'\n");
  EXPECT_EQ(EffectiveConfig(set).Configured("checkpoint_flush_after"), "16");
}

}  // namespace
}  // namespace pgconflint
