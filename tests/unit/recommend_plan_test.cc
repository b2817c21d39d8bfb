// The rollout plan: nothing to do from the recommendation itself, steps
// grouped by what applying them takes, settings within the recommended range
// left alone, and a setting capped by a restart-only parameter held for the
// restart.
#include "core/conf/analyze.h"
#include "core/advice/recommend_plan.h"

#include <gtest/gtest.h>

#include <string>

#include "core/knowledge/catalog.h"
#include "core/advice/recommend_render.h"
#include "core/workspace/workspace.h"
#include "real_dir.h"
#include "test_support.h"

namespace pgconflint {
namespace {

using namespace test;

Recommendation Nvme64() {
  Profile p = MakeProfile(64, 16);
  p.workload = Workload::kOltp;
  p.storage = Storage::Named("nvme");
  Recommendation r;
  std::string error;
  EXPECT_TRUE(Recommend(p, *Catalog::ForMajor(18), &r, &error)) << error;
  return r;
}

std::string PlanFor(const Recommendation& r, const std::string& conf) {
  AnalyzeOptions ao;
  ao.catalog = Catalog::ForMajor(r.major);
  return RenderPlan(r, AnalyzeText("postgresql.conf", conf, ao), false);
}

// The plan from a configuration that is the recommendation itself changes nothing.
TEST(RecommendPlanTest, FromTheRecommendationItselfIsEmpty) {
  for (Workload w : AllWorkloads())
    for (Storage s : Storage::All()) {
      Profile p = MakeProfile(64, 16);
      p.workload = w;
      p.storage = s;
      const Catalog& cat = *Catalog::ForMajor(18);
      Recommendation r;
      std::string error;
      ASSERT_TRUE(Recommend(p, cat, &r, &error)) << error;
      AnalyzeOptions ao;
      ao.catalog = &cat;
      Analysis current = AnalyzeText("postgresql.conf", RenderRecommendation(r, RecommendFormat::kConf, false), ao);
      std::string plan = RenderPlan(r, current, false);
      EXPECT_NE(plan.find("Every setting is already within the recommended range."), std::string::npos)
          << WorkloadName(w) << " " << StorageName(s) << "\n" << plan;
    }
}


// Without --connections a plan keeps the configuration's explicit
// max_connections (issue reproducer: 200 was lowered to 100 with no word),
// sizes work_mem for it, and says so; --connections still decides; a
// configured number that does not fit is lowered as the workload's would be.
TEST(RecommendPlanTest, KeepsTheConfiguredMaxConnectionsWithoutConnections) {
  AnalyzeOptions ao;
  ao.catalog = Catalog::ForMajor(18);
  Analysis current = AnalyzeText("postgresql.conf", "max_connections = 200\n", ao);
  Profile p = MakeProfile(16, 4);
  KeepConfiguredConnections(current, &p);
  ASSERT_TRUE(p.configured_connections.has_value());
  EXPECT_EQ(*p.configured_connections, 200 - ReservedSlots(*ao.catalog));
  EXPECT_FALSE(p.connections.has_value());
  Recommendation r;
  std::string error;
  ASSERT_TRUE(Recommend(p, *ao.catalog, &r, &error)) << error;
  std::string plan = RenderPlan(r, current, false);
  EXPECT_EQ(plan.find("   max_connections: "), std::string::npos) << plan;
  EXPECT_NE(plan.find("Assumption: connections not given: " + std::to_string(*p.configured_connections) +
                      ", the configuration's max_connections"),
            std::string::npos)
      << plan;

  Profile given = MakeProfile(16, 4);
  given.connections = 50;
  KeepConfiguredConnections(current, &given);
  Recommendation g;
  ASSERT_TRUE(Recommend(given, *ao.catalog, &g, &error)) << error;
  EXPECT_NE(RenderPlan(g, current, false).find("   max_connections: 200 -> " + std::to_string(50 + ReservedSlots(*ao.catalog))),
            std::string::npos);

  Profile unset = MakeProfile(16, 4);
  KeepConfiguredConnections(AnalyzeText("postgresql.conf", "work_mem = '8MB'\n", ao), &unset);
  EXPECT_FALSE(unset.configured_connections.has_value());

  // 5,000 configured connections do not fit in 1GB: lowered, with the reason, not refused.
  Analysis crowded = AnalyzeText("postgresql.conf", "max_connections = 5000\n", ao);
  Profile small = MakeProfile(1, 2);
  KeepConfiguredConnections(crowded, &small);
  Recommendation c;
  ASSERT_TRUE(Recommend(small, *ao.catalog, &c, &error)) << error;
  EXPECT_NE(RenderPlan(c, crowded, false).find("connections (the configuration's) leave less than 4MB"),
            std::string::npos);
}

// Where `name` is listed: the position of its "   name: " line, or npos.
size_t Listed(const std::string& plan, const std::string& name) { return plan.find("\n   " + name + ": "); }

TEST(RecommendPlanTest, StepsFollowWhatApplyingThemTakes) {
  Recommendation r = Nvme64();
  const Catalog& cat = *Catalog::ForMajor(18);
  ASSERT_EQ(cat.Find("work_mem")->context, Context::kUser);
  ASSERT_EQ(cat.Find("shared_buffers")->context, Context::kPostmaster);
  ASSERT_EQ(cat.Find("max_worker_processes")->context, Context::kPostmaster);
  ASSERT_NE(cat.Find("max_parallel_workers")->context, Context::kPostmaster);
  std::string plan = PlanFor(r, "work_mem = '1MB'\nshared_buffers = '128MB'\nmax_worker_processes = 4\n"
                                "max_parallel_workers = 2\n");
  size_t session = plan.find("Try per session first"), restart = plan.find("In a restart window");
  ASSERT_NE(session, std::string::npos) << plan;
  ASSERT_NE(restart, std::string::npos) << plan;
  EXPECT_GT(Listed(plan, "work_mem"), session) << plan;
  EXPECT_LT(Listed(plan, "work_mem"), restart) << plan;
  EXPECT_NE(plan.find("SET work_mem = '" + RecommendedCell(r, "work_mem")->value + "';"), std::string::npos) << plan;
  EXPECT_GT(Listed(plan, "shared_buffers"), restart) << plan;
  // Raised together with max_worker_processes: it waits for the restart.
  EXPECT_GT(Listed(plan, "max_parallel_workers"), restart) << plan;
  EXPECT_NE(plan.find("   shared_buffers: 128MB -> "), std::string::npos) << plan;
}

TEST(RecommendPlanTest, ValuesWithinTheRangeAreLeftAlone) {
  Recommendation r = Nvme64();
  const Cell* wm = RecommendedCell(r, "work_mem");
  ASSERT_NE(wm, nullptr);
  ASSERT_FALSE(wm->min.empty());
  std::string plan = PlanFor(r, "work_mem = '" + wm->min + "'\n");
  EXPECT_EQ(Listed(plan, "work_mem"), std::string::npos) << plan;
}

TEST(RecommendPlanTest, AFatalConfigurationIsFixedFirst) {
  std::string plan = PlanFor(Nvme64(), "shared_buffers = 'lots'\n");
  EXPECT_NE(plan.find("First: PostgreSQL would refuse to start"), std::string::npos) << plan;
}

// The tablespaces of a script: the one given a storage type gets the options
// its row recommends that the script leaves unset or out of range (an option
// already within range is left alone); the others are named as lacking a
// storage type, with where the script names them.
TEST(RecommendPlanTest, TablespacesOfAScript) {
  Profile p = MakeProfile(64, 16);
  p.storage = Storage::Named("nvme");
  p.tablespaces["fast"] = *Storage::Named("nvme");
  p.tablespaces["gone"] = *Storage::Named("hdd");
  Recommendation r;
  std::string error;
  ASSERT_TRUE(Recommend(p, *Catalog::ForMajor(18), &r, &error)) << error;
  ASSERT_EQ(r.tablespaces.size(), 2u);
  const TablespaceAdvice& fast = r.tablespaces[0].name == "fast" ? r.tablespaces[0] : r.tablespaces[1];
  const Cell* rpc = nullptr;
  for (const Cell& c : fast.options)
    if (c.parameter == "random_page_cost") rpc = &c;
  ASSERT_NE(rpc, nullptr);
  RealDir dir;
  const std::string script = dir.Write("ts.sql",
                                       "CREATE TABLESPACE fast LOCATION '/srv/fast' WITH (random_page_cost = " +
                                           rpc->value + ", seq_page_cost = 40);\n"
                                           "SELECT 1;\nCREATE TABLESPACE \"Slow\" LOCATION '/srv/slow';\n"
                                           "ALTER TABLESPACE archive RESET (seq_page_cost);\n");
  WorkspaceOptions wo;
  wo.use_config = false;
  wo.pg_version = 18;
  Workspace ws(wo);
  Analysis a;
  ASSERT_TRUE(ws.Lint(script, &a, &error)) << error;
  std::string plan = RenderPlan(r, a, false);
  size_t stmt = plan.find("ALTER TABLESPACE \"fast\" SET (");
  ASSERT_NE(stmt, std::string::npos) << plan;
  const std::string line = plan.substr(stmt, plan.find('\n', stmt) - stmt);
  EXPECT_EQ(line.find("random_page_cost"), std::string::npos) << line;  // already within range
  EXPECT_NE(line.find("seq_page_cost = "), std::string::npos) << line;  // 40 is not
  EXPECT_NE(line.find("effective_io_concurrency = "), std::string::npos) << line;  // unset
  EXPECT_NE(line.find("-- nvme"), std::string::npos) << line;
  EXPECT_NE(plan.find("tablespace gone (--tablespace) is not in " + script), std::string::npos) << plan;
  EXPECT_NE(plan.find("ALTER TABLESPACE \"gone\" SET ("), std::string::npos) << plan;
  EXPECT_NE(plan.find("no storage type for tablespaces Slow (" + script + ":3), archive (" + script +
                      ":4): give --tablespace NAME="),
            std::string::npos)
      << plan;
}

}  // namespace
}  // namespace pgconflint
