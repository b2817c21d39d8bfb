// Per-table autovacuum from a snapshot's tables: which tables get statements,
// with which options, and that every option and value the recommender can
// write is one the server's major accepts (knowledge/sql.json's table options,
// harvested from real servers). The statements on a real server:
// tests/integration/test_live.py.
#include "core/advice/recommend_tables.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/knowledge/sql_knowledge.h"
#include "core/knowledge/value.h"
#include "core/rules/rules.h"
#include "core/workspace/workspace.h"
#include "test_support.h"

namespace pgconflint {
namespace {

using namespace test;

SnapshotTable Table(const char* name, double rows, double inserted, double updated, double deleted,
                    std::vector<std::string> options = {}) {
  SnapshotTable t;
  t.schema = "public";
  t.name = name;
  t.bytes = rows * 100;
  t.reltuples = t.live = rows;
  t.dead = rows / 50;
  t.inserted = inserted;
  t.updated = updated;
  t.deleted = deleted;
  t.options = std::move(options);
  return t;
}

struct TablesCase {
  Recommendation r;
  Analysis current;
};

TablesCase Make(int major, Workload w, const std::string& conf = "") {
  TablesCase c;
  Profile p = MakeProfile(64, 16);
  p.workload = w;
  std::string error;
  const Catalog& cat = *Catalog::ForMajor(major);
  EXPECT_TRUE(Recommend(p, cat, &c.r, &error)) << error;
  c.current = LintText("/tables-test/postgresql.conf", conf, cat, TheRuleSet(), p);
  return c;
}

TEST(RecommendTablesTest, LargeBusyTablesGetTheirSizeClassSmallOnesNothing) {
  TablesCase c = Make(18, Workload::kOltp);
  std::vector<std::string> notes;
  std::vector<TableAdvice> got = AdviseTables(
      c.r, c.current,
      {Table("orders", 1.2e7, 1e6, 5e6, 1e5), Table("small", 1e5, 1e4, 1e5, 0),
       Table("tuned", 1.1e7, 1e6, 5e6, 0,
             {"autovacuum_vacuum_scale_factor=0.02", "autovacuum_vacuum_threshold=1000"})},
      &notes);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].table, "public.orders");
  EXPECT_EQ(got[0].sql,
            "ALTER TABLE \"public\".\"orders\" SET (autovacuum_vacuum_scale_factor = 0.02, "
            "autovacuum_vacuum_threshold = 1000);");
  // 50 + 0.2 x 12M with the defaults, 1000 + 0.02 x 12M with the class.
  EXPECT_NE(got[0].why.find("vacuum after 241000 dead tuples, not 2400050"), std::string::npos) << got[0].why;
  EXPECT_NE(got[0].why.find("~10M rows, oltp"), std::string::npos) << got[0].why;
  EXPECT_TRUE(notes.empty());
}

TEST(RecommendTablesTest, InsertMostlyTablesGetTheInsertTrigger) {
  TablesCase c = Make(18, Workload::kMixed);
  std::vector<std::string> notes;
  std::vector<TableAdvice> got = AdviseTables(c.r, c.current, {Table("events", 1.5e8, 2e8, 10, 0)}, &notes);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_NE(got[0].sql.find("autovacuum_vacuum_insert_scale_factor = 0.01"), std::string::npos) << got[0].sql;
  EXPECT_NE(got[0].sql.find("autovacuum_vacuum_cost_limit"), std::string::npos) << got[0].sql;
  EXPECT_NE(got[0].why.find("insert-mostly"), std::string::npos) << got[0].why;
}

// A server whose own settings already vacuum as early as the class: nothing.
TEST(RecommendTablesTest, AServerAlreadyAsEagerNeedsNothing) {
  TablesCase c = Make(18, Workload::kOltp, "autovacuum_vacuum_scale_factor = 0.01\n");
  std::vector<std::string> notes;
  EXPECT_TRUE(AdviseTables(c.r, c.current, {Table("orders", 1.2e7, 1e6, 5e6, 1e5)}, &notes).empty());
}

// What the major does not accept is left out, and said: an option 14 does not
// have, a value beyond the option's harvested range.
TEST(RecommendTablesTest, OptionsTheMajorRefusesAreLeftOutAndSaid) {
  TablesCase c = Make(14, Workload::kOltp);
  for (TableClass& tc : c.r.tables) {
    tc.options.push_back({"autovacuum_vacuum_max_threshold", "1000000", "", "", "", "docs-vacuum"});
    tc.options.push_back({"fillfactor", "5", "", "", "", "docs-vacuum"});
  }
  std::vector<std::string> notes;
  std::vector<TableAdvice> got = AdviseTables(c.r, c.current, {Table("orders", 1.2e7, 1e6, 5e6, 1e5)}, &notes);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].sql.find("max_threshold"), std::string::npos) << got[0].sql;
  EXPECT_EQ(got[0].sql.find("fillfactor"), std::string::npos) << got[0].sql;
  ASSERT_EQ(notes.size(), 2u);
  EXPECT_NE(notes[0].find("PostgreSQL 14 refuses autovacuum_vacuum_max_threshold = 1000000: unrecognized parameter "
                          "\"autovacuum_vacuum_max_threshold\""),
            std::string::npos)
      << notes[0];
  EXPECT_NE(notes[1].find("PostgreSQL 14 refuses fillfactor = 5: value 5 out of bounds for option \"fillfactor\" "
                          "(the range is 10 .. 100)"),
            std::string::npos)
      << notes[1];
}

// Every option of every table class, on every major and workload, is a table
// option of that major with a value in its range: no statement the server
// would refuse.
TEST(RecommendTablesTest, EveryTableClassOptionIsOneTheMajorAccepts) {
  for (int major : Catalog::SupportedMajors()) {
    const SqlFacts* facts = SqlFacts::ForMajor(major);
    ASSERT_NE(facts, nullptr) << major;
    ASSERT_FALSE(facts->table_options().empty()) << major << ": knowledge/sql.json has no table_options";
    for (Workload w : AllWorkloads())
      for (const char* storage : {"hdd", "nvme", "network-block"}) {
        Profile p = MakeProfile(64, 16);
        p.workload = w;
        p.storage = Storage::Named(storage);
        Recommendation r;
        std::string error;
        const Catalog& cat = *Catalog::ForMajor(major);
        ASSERT_TRUE(Recommend(p, cat, &r, &error)) << error;
        for (const TableClass& tc : r.tables)
          for (const Cell& c : tc.options) {
            const StorageOption* o = facts->FindTableOption(c.parameter);
            ASSERT_NE(o, nullptr) << major << " " << c.parameter;
            Parameter param = o->AsParameter();
            EXPECT_TRUE(ParseValue(cat, param, c.value).ok()) << major << " " << c.parameter << " = " << c.value;
          }
      }
  }
}

}  // namespace
}  // namespace pgconflint
