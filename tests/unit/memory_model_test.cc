// The worst-case memory model: its arithmetic, how it reads an effective
// configuration, and that both of its users agree (the recommender's output
// is within the budget memory-overcommit checks).
#include "core/conf/analyze.h"
#include "core/model/memory_model.h"

#include <gtest/gtest.h>

#include <cmath>

#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "core/model/analysis.h"
#include "core/knowledge/catalog.h"
#include "core/workspace/workspace.h"
#include "core/advice/recommend.h"
#include "core/advice/recommend_render.h"
#include "core/rules/rules.h"
#include "test_support.h"

namespace pgconflint {
namespace {

using namespace test;

MemoryModel Example() {
  MemoryModel m;
  m.shared_buffers = 4 * kGB;
  m.wal_buffers = 16 * kMB;
  m.connections = 100;
  m.parallel_workers = 8;
  m.work_mem = 16 * kMB;
  m.nodes_per_query = 2;
  m.hash_mem_multiplier = 2;
  m.autovacuum_workers = 3;
  m.autovacuum_work_mem = 256 * kMB;
  m.maintenance_work_mem = 1 * kGB;
  return m;
}

TEST(MemoryModelTest, SumsTheWorstCase) {
  MemoryModel m = Example();
  EXPECT_EQ(m.Fixed(), 4 * kGB + 16 * kMB + 3 * 256 * kMB + 1 * kGB);
  EXPECT_EQ(m.Backends(), 108);
  // Every backend's nodes at work_mem; hash tables at the multiplier only in HashTotal.
  EXPECT_EQ(m.Total(), m.Fixed() + 108 * 16 * kMB * 2);
  EXPECT_EQ(m.HashTotal(), m.Fixed() + 108 * 16 * kMB * 2 * 2);
}

TEST(MemoryModelTest, HashMemMultiplierCountsAsAtLeastOne) {
  MemoryModel m = Example();
  m.hash_mem_multiplier = 0.5;
  EXPECT_EQ(m.HashTotal(), m.Total());
}

TEST(MemoryModelTest, SolvesForWorkMemWithRoomForHashTables) {
  MemoryModel m = Example();
  const double budget = 16 * kGB;
  m.work_mem = m.WorkMemWithin(budget);
  EXPECT_NEAR(m.HashTotal(), budget, 1e-3);
  EXPECT_LT(m.Total(), budget);
  // Fixed memory alone above the budget: no work_mem fits.
  EXPECT_LT(m.WorkMemWithin(1 * kGB), 0);
}

// The two cases: PostgreSQL's defaults fit a 1GB machine, while 500
// connections with work_mem = 256MB overcommit 16GB.
TEST(MemoryModelTest, DefaultsFitOneGigabyteAndLargeWorkMemDoesNotFitSixteen) {
  Profile small;
  small.ram_bytes = 1 * kGB;
  for (int major : Catalog::SupportedMajors()) {
    AnalyzeOptions ao;
    ao.catalog = Catalog::ForMajor(major);
    Analysis a = AnalyzeText("postgresql.conf", "", ao);
    MemoryModel m = MemoryModelOf(EffectiveConfig(a), small);
    EXPECT_LE(m.Total(), MemoryBudget(small)) << "PostgreSQL " << major << ": " << m.Breakdown();
  }
  Profile big;
  big.ram_bytes = 16 * kGB;
  AnalyzeOptions ao;
  ao.catalog = Catalog::ForMajor(18);
  Analysis a = AnalyzeText("postgresql.conf", "max_connections = 500\nwork_mem = '256MB'\n", ao);
  EXPECT_GT(MemoryModelOf(EffectiveConfig(a), big).Total(), MemoryBudget(big));
}

TEST(MemoryModelTest, BreakdownSpellsOutTheSum) {
  EXPECT_EQ(Example().Breakdown(),
            "shared_buffers 4GB + wal_buffers 16MB + (100 connections + 8 parallel workers) x work_mem 16MB x 2 "
            "nodes + 3 autovacuum workers x 256MB + maintenance 1GB");
  MemoryModel one = Example();
  one.parallel_workers = 0;
  one.nodes_per_query = 1;
  one.connections = 1;
  EXPECT_EQ(one.Breakdown(),
            "shared_buffers 4GB + wal_buffers 16MB + (1 connection) x work_mem 16MB x 1 node + 3 autovacuum "
            "workers x 256MB + maintenance 1GB");
}

Analysis AnalyzedText(const std::string& text, int major) {
  AnalyzeOptions ao;
  ao.catalog = Catalog::ForMajor(major);
  return AnalyzeText("postgresql.conf", text, ao);
}

TEST(MemoryModelTest, ReadsTheEffectiveConfiguration) {
  Analysis a = AnalyzedText(
      "shared_buffers = '2GB'\nwal_buffers = '4MB'\nmax_connections = 200\nwork_mem = '8MB'\n"
      "hash_mem_multiplier = 1.5\ntemp_buffers = '16MB'\nautovacuum_max_workers = 5\n"
      "maintenance_work_mem = '512MB'\nautovacuum_work_mem = -1\n"
      "max_worker_processes = 6\nmax_parallel_workers = 10\n",
      18);
  EffectiveConfig eff(a);
  Profile p;
  p.nodes_per_query = 3;
  MemoryModel m = MemoryModelOf(eff, p);
  EXPECT_EQ(m.shared_buffers, 2 * kGB);
  EXPECT_EQ(m.wal_buffers, 4 * kMB);
  EXPECT_EQ(m.connections, 200);  // no expected connections: all of max_connections
  EXPECT_EQ(m.work_mem, 8 * kMB);
  EXPECT_EQ(m.nodes_per_query, 3);
  EXPECT_EQ(m.hash_mem_multiplier, 1.5);
  EXPECT_EQ(m.parallel_workers, 6);  // max_parallel_workers within max_worker_processes
  EXPECT_EQ(m.autovacuum_workers, 5);
  EXPECT_EQ(m.autovacuum_work_mem, 512 * kMB);  // -1: maintenance_work_mem
  EXPECT_EQ(m.maintenance_work_mem, 512 * kMB);
  // Expected connections count, up to max_connections.
  p.connections = 50;
  EXPECT_EQ(MemoryModelOf(eff, p).connections, 50);
  p.connections = 5000;
  EXPECT_EQ(MemoryModelOf(eff, p).connections, 200);
}

TEST(MemoryModelTest, AutovacuumWorkersAreCappedBySlotsFrom18) {
  const char* conf = "autovacuum_max_workers = 12\nautovacuum_worker_slots = 6\n";
  Profile p;
  EXPECT_EQ(MemoryModelOf(EffectiveConfig(AnalyzedText(conf, 18)), p).autovacuum_workers, 6);
  Analysis a17 = AnalyzedText("autovacuum_max_workers = 12\n", 17);
  EXPECT_EQ(MemoryModelOf(EffectiveConfig(a17), p).autovacuum_workers, 12);
}

TEST(MemoryModelTest, BudgetIsRamLessHeadroom) {
  Profile p;
  p.ram_bytes = 64 * kGB;
  p.headroom = 0.25;
  EXPECT_EQ(MemoryBudget(p), 48 * kGB);
}

// The two users agree: what the recommender writes, read back through the
// effective model, fits the budget memory-overcommit checks (with the
// recommender's 5% margin), with room for hash tables at the multiplier:
// work_mem x (connections + parallel workers) x nodes stays within RAM.
RC_GTEST_PROP(MemoryModelProperty, RecommendationFitsTheModel, ()) {
  Profile p;
  p.ram_bytes = *rc::gen::inRange(1024, 256 * 1024) * kMB;
  p.cpus = *rc::gen::inRange(1, 129);
  if (*rc::gen::arbitrary<bool>()) p.connections = *rc::gen::inRange(5, 5001);
  p.headroom = *rc::gen::inRange(0, 40) / 100.0;
  p.nodes_per_query = *rc::gen::inRange(1, 9);
  int major = *rc::gen::inRange(14, 19);
  Recommendation r;
  std::string error;
  if (!Recommend(p, *Catalog::ForMajor(major), &r, &error)) {
    // With RAM and CPUs given, the one refusal: the connections do not fit.
    RC_ASSERT(error.find("connections do not fit") != std::string::npos);
    RC_SUCCEED("refused: " + error);
  }
  Analysis a = AnalyzedText(RenderRecommendation(r, RecommendFormat::kConf, false), major);
  MemoryModel m = MemoryModelOf(EffectiveConfig(a), r.profile);
  RC_ASSERT(m.HashTotal() <= MemoryBudget(r.profile) * 0.95 + 1);
  RC_ASSERT(m.work_mem * m.Backends() * m.nodes_per_query <= *p.ram_bytes);
  // An explicit --connections is never lowered.
  if (p.connections) RC_ASSERT(m.connections == *p.connections);
}

}  // namespace
}  // namespace pgconflint
