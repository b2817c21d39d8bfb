// The configuration plan of a change: values (configured and effective),
// what applying them takes, lines without effect, findings matched by
// fingerprint (moved lines are not new), the rollout and the memory picture.
#include "core/review/change_plan.h"

#include <gtest/gtest.h>

#include <map>
#include <sstream>

#include "core/conf/analyze.h"
#include "core/workspace/workspace.h"
#include "test_support.h"

namespace pgconflint {
namespace {

using namespace test;

class ChangePlanTest : public ::testing::Test {
 protected:
  // Lints the data directory /repo/data holding `files` (name -> text).
  Analysis LintData(const std::map<std::string, std::string>& files, const Profile* profile = nullptr) {
    OverlayFileSystem fs(nullptr, "/repo");
    for (const auto& [name, text] : files) fs.Set("/repo/data/" + name, text);
    WorkspaceOptions o;
    o.fs = &fs;
    o.display_base = "/repo";
    o.pg_version = 18;
    o.use_config = false;
    o.profile = profile;
    Workspace ws(o);
    Analysis a;
    std::string error;
    EXPECT_TRUE(ws.Lint("data", &a, &error)) << error;
    return a;
  }
  // `conf` as postgresql.conf (and `auto_conf` as postgresql.auto.conf).
  Analysis Lint(const std::string& conf, const std::string& auto_conf = "", const Profile* profile = nullptr) {
    std::map<std::string, std::string> files = {{"postgresql.conf", conf}};
    if (!auto_conf.empty()) files["postgresql.auto.conf"] = auto_conf;
    return LintData(files, profile);
  }
  // An empty postgresql.conf and `hba` as pg_hba.conf.
  Analysis LintWithHba(const std::string& hba) { return LintData({{"postgresql.conf", ""}, {"pg_hba.conf", hba}}); }
  RootChange Compare(const Analysis& before, const Analysis& after, const Profile& profile = Profile()) {
    return CompareRoot(&before, &after, "/repo", "/repo", {"/repo/data/postgresql.conf"}, profile);
  }
};

// A pointer into `r`: it must outlive it (a temporary is refused).
const ValueChange* FindChange(RootChange&&, const char*) = delete;
const ValueChange* FindChange(const RootChange& r, const char* name) {
  for (const ValueChange& c : r.values)
    if (std::string_view(c.param->name) == name) return &c;
  return nullptr;
}

TEST_F(ChangePlanTest, ValuesInServerUnitsWithWhatApplyingTakes) {
  Analysis before = Lint("shared_buffers = '128MB'\n");
  Analysis after = Lint("shared_buffers = '4GB'\nwork_mem = '64MB'\n");
  RootChange r = Compare(before, after);
  const ValueChange* sb = FindChange(r, "shared_buffers");
  ASSERT_NE(sb, nullptr);
  EXPECT_EQ(sb->before, "128MB");
  EXPECT_EQ(sb->after, "4GB");
  EXPECT_EQ(sb->applies, "restart");
  const ValueChange* wm = FindChange(r, "work_mem");
  ASSERT_NE(wm, nullptr);
  EXPECT_EQ(wm->before, "4MB");
  EXPECT_TRUE(wm->before_default);
  EXPECT_EQ(wm->applies, "reload (or per session)");
  EXPECT_EQ(r.rollout.restart.size(), 1u);
  EXPECT_EQ(r.rollout.reload.size(), 1u);
}

// A value the server refuses is planned as refused, not as a change to the
// default, and no rollout step restarts into a configuration the server
// refuses to start with (issue reproducers: '2gb', wal_level = minimal).
TEST_F(ChangePlanTest, RefusedValuesBlockTheRollout) {
  Analysis before = Lint("shared_buffers = '1GB'\nwork_mem = '8MB'\n");
  Analysis after = Lint("shared_buffers = '2gb'\nwork_mem = '16MB'\n");
  RootChange r = Compare(before, after);
  const ValueChange* sb = FindChange(r, "shared_buffers");
  ASSERT_NE(sb, nullptr);
  EXPECT_EQ(sb->refused, "'2gb'");
  EXPECT_EQ(sb->before, "1GB");
  EXPECT_EQ(FindChange(r, "wal_buffers"), nullptr);  // derived from a value that never applies
  ASSERT_EQ(r.blocking.size(), 1u);
  EXPECT_STREQ(r.blocking[0].diagnostic->rule->code, "PGC201");
  EXPECT_TRUE(r.rollout.empty());

  Analysis minimal = Lint("wal_level = minimal\n");
  RootChange m = Compare(Lint(""), minimal);
  EXPECT_FALSE(m.blocking.empty());
  EXPECT_TRUE(m.rollout.empty());
  const ValueChange* wl = FindChange(m, "wal_level");
  ASSERT_NE(wl, nullptr);
  EXPECT_EQ(wl->refused, "");  // the value is valid: the combination is what the server refuses

  RootChange ok = Compare(before, Lint("shared_buffers = '2GB'\nwork_mem = '16MB'\n"));
  EXPECT_TRUE(ok.blocking.empty());
  EXPECT_EQ(ok.rollout.restart.size(), 1u);
  EXPECT_EQ(FindChange(ok, "shared_buffers")->refused, "");
}

// A pg_hba.conf-only change still has a rollout: deploy, check the file
// with pg_hba_file_rules before the reload, reload, try a new session.
TEST_F(ChangePlanTest, AnHbaChangeIsCheckedThenReloaded) {
  Analysis before = LintWithHba("local all all peer\n");
  Analysis after = LintWithHba("local all all peer\nhost all all 10.0.0.0/8 scram-sha-256\n");
  RootChange r = CompareRoot(&before, &after, "/repo", "/repo", {"/repo/data/pg_hba.conf"}, Profile());
  EXPECT_TRUE(r.values.empty());
  ASSERT_EQ(r.rollout.hba_files, std::vector<std::string>{"data/pg_hba.conf"});
  std::ostringstream o;
  WriteRollout(r.rollout, r.major, r.source, {}, o);
  EXPECT_NE(o.str().find("SELECT line_number, error FROM pg_hba_file_rules WHERE error IS NOT NULL;\n"
                         "     SELECT pg_reload_conf();"),
            std::string::npos)
      << o.str();
  // Untouched, it is not in the rollout.
  EXPECT_TRUE(CompareRoot(&before, &after, "/repo", "/repo", {}, Profile()).rollout.hba_files.empty());
}

// A finding whose figures change materially is "changed", with both
// messages: work_mem 256MB -> 2GB on 16GB makes PGC601's worst case 27.4GB ->
// 216.4GB (issue reproducer); 256MB -> 260MB stays unchanged.
TEST_F(ChangePlanTest, AFindingAtAnotherSizeIsChanged) {
  Profile p;
  std::string error;
  ASSERT_TRUE(SetProfileFacts(&p, "ram=16GB", &error)) << error;
  Analysis before = Lint("work_mem = '256MB'\n", "", &p);
  Analysis raised = Lint("work_mem = '2GB'\n", "", &p);  // outlives r, which points into it
  RootChange r = Compare(before, raised, p);
  const std::pair<FindingRef, FindingRef>* overcommit = nullptr;
  for (const auto& c : r.changed)
    if (std::string_view(c.second.diagnostic->rule->code) == "PGC601") overcommit = &c;
  ASSERT_NE(overcommit, nullptr);
  EXPECT_NE(overcommit->first.diagnostic->message.find("27.4GB"), std::string::npos) << overcommit->first.diagnostic->message;
  EXPECT_NE(overcommit->second.diagnostic->message.find("216.4GB"), std::string::npos);
  EXPECT_TRUE(r.introduced.empty());
  Analysis nudged = Lint("work_mem = '260MB'\n", "", &p);
  RootChange small = Compare(before, nudged, p);
  EXPECT_TRUE(small.changed.empty());
  EXPECT_FALSE(small.unchanged.empty());
}

TEST(FiguresDifferTest, OnlyQuantitiesWithAUnitCount) {
  EXPECT_FALSE(FiguresDiffer("overridden by line 3", "overridden by line 12"));  // no unit: not a figure
  EXPECT_FALSE(FiguresDiffer("worst case 27.4GB of 16GB", "worst case 28GB of 16GB"));  // within 10%
  EXPECT_TRUE(FiguresDiffer("worst case 27.4GB of 16GB", "worst case 216.4GB of 16GB"));
  EXPECT_TRUE(FiguresDiffer("delay 20ms", "delay 2s"));
  EXPECT_TRUE(FiguresDiffer("shared_buffers is 25% of RAM", "shared_buffers is 60% of RAM"));
  EXPECT_TRUE(FiguresDiffer("64MB", "64MB and 1GB"));  // another shape
  EXPECT_TRUE(FiguresDiffer("wait 1s", "wait 1kB"));    // another kind
  EXPECT_FALSE(FiguresDiffer("1GB", "1024MB"));        // the same size
}

TEST_F(ChangePlanTest, EffectiveValueWhereTheServerUsesAnother) {
  // io_combine_limit above io_max_combine_limit is capped by the server.
  Analysis before = Lint("io_combine_limit = '128kB'\n");
  Analysis after = Lint("io_combine_limit = '512kB'\n");
  const RootChange change = Compare(before, after);
  const ValueChange* c = FindChange(change, "io_combine_limit");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->after, "512kB");
  EXPECT_EQ(c->after_effective, "128kB");
}

TEST_F(ChangePlanTest, OverriddenChangeHasNoEffect) {
  Analysis before = Lint("max_connections = 100\n", "max_connections = '200'\n");
  Analysis after = Lint("max_connections = 300\n", "max_connections = '200'\n");
  RootChange r = Compare(before, after);
  EXPECT_EQ(FindChange(r, "max_connections"), nullptr);
  ASSERT_EQ(r.ineffective.size(), 1u);
  EXPECT_EQ(r.ineffective[0].parameter, "max_connections");
  EXPECT_EQ(r.ineffective[0].written, "300");
  EXPECT_EQ(after.files[r.ineffective[0].winner.file].source.path(), "data/postgresql.auto.conf");
}

TEST_F(ChangePlanTest, MovedLinesAreNotNewFindings) {
  Analysis before = Lint("wal_buffers = 64\nport = 5432\n");
  Analysis after = Lint("port = 5432\n\n# moved\nwal_buffers = 64\n");
  RootChange r = Compare(before, after);
  EXPECT_TRUE(r.values.empty());
  EXPECT_TRUE(r.introduced.empty());
  EXPECT_TRUE(r.fixed.empty());
  EXPECT_EQ(r.unchanged.size(), 1u);
  EXPECT_TRUE(r.rollout.empty());
}

TEST_F(ChangePlanTest, IntroducedAndFixed) {
  Analysis before = Lint("wal_buffers = 64\n");
  Analysis after = Lint("wal_buffers = '512kB'\nshared_buffers = 64 MB\n");
  RootChange r = Compare(before, after);
  ASSERT_EQ(r.fixed.size(), 1u);
  EXPECT_EQ(std::string(r.fixed[0].diagnostic->rule->code), "PGC204");
  ASSERT_FALSE(r.introduced.empty());
  EXPECT_EQ(std::string(r.introduced[0].diagnostic->rule->code), "PGC001");
}

TEST_F(ChangePlanTest, MemoryPictureAddsUpAgainstRam) {
  Profile p;
  p.ram_bytes = 16 * kGB;
  Analysis before = Lint("shared_buffers = '4GB'\nwork_mem = '4MB'\nmax_connections = 100\n");
  Analysis after = Lint("shared_buffers = '4GB'\nwork_mem = '256MB'\nmax_connections = 100\n");
  RootChange r = Compare(before, after, p);
  ASSERT_TRUE(r.memory_before && r.memory_after);
  EXPECT_GT(r.memory_before->free(), 0);
  EXPECT_LT(r.memory_after->free(), 0);  // 100 x 256MB x 2 nodes alone is 50GB
  EXPECT_DOUBLE_EQ(r.memory_after->ram, 16 * kGB);
  EXPECT_NEAR(r.memory_after->headroom, 1.6 * kGB, 1);
  EXPECT_GT(r.memory_after->parallel, 0) << "parallel workers have their own work_mem";
}

TEST_F(ChangePlanTest, NewRoot) {
  Analysis after = Lint("work_mem = '8MB'\n");
  RootChange r = CompareRoot(nullptr, &after, "/repo", "/repo", {}, Profile());
  EXPECT_TRUE(r.added);
  ASSERT_NE(FindChange(r, "work_mem"), nullptr);
}

}  // namespace
}  // namespace pgconflint
