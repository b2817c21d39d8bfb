// Rollouts: groups by context, capped settings held for the restart, and the
// statements of each source (ALTER SYSTEM, or deployed files).
#include "core/advice/rollout.h"

#include <gtest/gtest.h>

#include <sstream>

#include "core/base/escape.h"

namespace pgconflint {
namespace {

const Parameter& P(const char* name) { return *Catalog::ForMajor(18)->Find(name); }

TEST(RolloutTest, GroupsByContext) {
  Rollout r;
  AddRolloutStep({&P("shared_buffers"), "128MB", "4GB", "", ""}, RolloutSource::kFiles, &r);
  AddRolloutStep({&P("work_mem"), "4MB", "64MB", "", ""}, RolloutSource::kFiles, &r);
  AddRolloutStep({&P("checkpoint_timeout"), "5min", "15min", "", ""}, RolloutSource::kFiles, &r);
  AddRolloutStep({&P("block_size"), "8192", "8192", "", ""}, RolloutSource::kFiles, &r);  // internal: left out
  EXPECT_EQ(r.restart.size(), 1u);
  EXPECT_EQ(r.reload.size(), 2u);  // files: a user-context parameter is reloaded too
  EXPECT_TRUE(r.session.empty());
  Rollout s;
  AddRolloutStep({&P("work_mem"), "4MB", "64MB", "", ""}, RolloutSource::kAlterSystem, &s);
  EXPECT_EQ(s.session.size(), 1u);
}

TEST(RolloutTest, CappedSettingsWaitForTheRestart) {
  Rollout r;
  AddRolloutStep({&P("max_parallel_workers"), "8", "16", "", ""}, RolloutSource::kFiles, &r);
  AddRolloutStep({&P("max_worker_processes"), "8", "16", "", ""}, RolloutSource::kFiles, &r);
  WaitForCaps(&r);
  EXPECT_TRUE(r.reload.empty());
  ASSERT_EQ(r.restart.size(), 2u);
  EXPECT_EQ(r.restart[1].waits_for, "max_worker_processes");
  std::ostringstream o;
  WriteRollout(r, 18, RolloutSource::kAlterSystem, {}, o);
  EXPECT_NE(o.str().find("In a restart window (context postmaster, and the settings capped by those):"),
            std::string::npos)
      << o.str();
  EXPECT_NE(o.str().find("max_parallel_workers: 8 -> 16  [context user, but capped by max_worker_processes, "
                         "which needs the restart]"),
            std::string::npos)
      << o.str();
}

TEST(RolloutTest, FilesAreDeployedNotAlteredBySql) {
  Rollout r;
  AddRolloutStep({&P("work_mem"), "4MB", "64MB", "", ""}, RolloutSource::kFiles, &r);
  AddRolloutStep({&P("shared_buffers"), "128MB", "4GB", "", ""}, RolloutSource::kFiles, &r);
  std::ostringstream o;
  WriteRollout(r, 18, RolloutSource::kFiles, {}, o);
  std::string text = o.str();
  EXPECT_EQ(text.find("ALTER SYSTEM"), std::string::npos) << text;
  EXPECT_NE(text.find("1. Deploy the changed files, then reload:\n   work_mem: 4MB -> 64MB\n"), std::string::npos) << text;
  EXPECT_NE(text.find("SELECT pg_reload_conf();"), std::string::npos);
  EXPECT_NE(text.find("2. In a restart window (context postmaster):\n   shared_buffers: 128MB -> 4GB\n"),
            std::string::npos)
      << text;
  std::ostringstream sql;
  WriteRollout(r, 18, RolloutSource::kAlterSystem, {}, sql);
  EXPECT_NE(sql.str().find("ALTER SYSTEM SET shared_buffers"), std::string::npos) << sql.str();
}

// CommonMark: every statement inside a fenced block, prose in paragraphs of
// its own, a list of changes, and values from files as code spans whatever
// backticks they hold (tests/integration/test_recommend.py renders it).
TEST(RolloutTest, MarkdownFencesEveryStatement) {
  Rollout r;
  AddRolloutStep({&P("work_mem"), "4MB", "64MB", "sorts *and* hashes", ""}, RolloutSource::kAlterSystem, &r);
  AddRolloutStep({&P("shared_buffers"), "128MB", "4GB", "", ""}, RolloutSource::kAlterSystem, &r);
  r.hba_files = {"pg_hba.conf"};
  std::ostringstream o;
  WriteRollout(r, 18, RolloutSource::kAlterSystem, {.markdown = true, .heading_level = 3}, o);
  const std::string md = o.str();
  EXPECT_NE(md.find("### 2. Try per session first (no server change), on the queries that matter\n\n"
                    "- `work_mem`: `4MB` → `64MB` (sorts \\*and\\* hashes)\n\nSQL:\n\n```sql\nSET work_mem = '64MB';\n```\n"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("verify:\n\n```sql\nSELECT name, setting, unit, source FROM pg_settings WHERE name IN ('work_mem');\n```\n"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("```sh\npsql \"host=HOST dbname=DB user=USER\" -c 'SELECT 1'\n```\n"), std::string::npos) << md;
  // No statement outside a fence: every line that starts like SQL is inside one.
  bool fenced = false;
  std::istringstream lines(md);
  for (std::string line; std::getline(lines, line);) {
    if (line.starts_with("```")) {
      fenced = !fenced;
    } else if (line.starts_with("SELECT") || line.starts_with("ALTER") || line.starts_with("SET ") ||
               line.starts_with("SHOW")) {
      EXPECT_TRUE(fenced) << line;
    }
  }
  EXPECT_FALSE(fenced);
  EXPECT_EQ(MarkdownCode("a`b"), "``a`b``");
  EXPECT_EQ(MarkdownCode("`x"), "`` `x ``");
}

}  // namespace
}  // namespace pgconflint
