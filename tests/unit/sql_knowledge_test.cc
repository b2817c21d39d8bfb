// knowledge/sql.json's table options as the accessor gives them: what real
// servers named when they refused probes (scripts/harvest_sql_knowledge.py).
#include "core/knowledge/sql_knowledge.h"

#include <gtest/gtest.h>

#include "core/knowledge/value.h"

namespace pgconflint {
namespace {

TEST(SqlKnowledgeTest, TableOptionsPerMajor) {
  for (int major : Catalog::SupportedMajors()) {
    const SqlFacts* facts = SqlFacts::ForMajor(major);
    ASSERT_NE(facts, nullptr) << major;
    const StorageOption* ff = facts->FindTableOption("fillfactor");
    ASSERT_NE(ff, nullptr) << major;
    EXPECT_EQ(ff->type, StorageOption::Type::kInteger);
    EXPECT_EQ(ff->min, 10);
    EXPECT_EQ(ff->max, 100);
    const StorageOption* enabled = facts->FindTableOption("toast.autovacuum_enabled");
    ASSERT_NE(enabled, nullptr) << major;
    EXPECT_EQ(enabled->type, StorageOption::Type::kBool);
    const StorageOption* cleanup = facts->FindTableOption("vacuum_index_cleanup");
    ASSERT_NE(cleanup, nullptr) << major;
    EXPECT_EQ(cleanup->type, StorageOption::Type::kEnum);
    EXPECT_FALSE(cleanup->values.empty());
    // No TOAST table has analyze options, and no configuration parameter's
    // name is a table option unless the server took it.
    EXPECT_EQ(facts->FindTableOption("toast.autovacuum_analyze_threshold"), nullptr) << major;
    EXPECT_EQ(facts->FindTableOption("work_mem"), nullptr) << major;
    // Sorted by name, as FindTableOption's search needs.
    const auto& all = facts->table_options();
    for (size_t i = 1; i < all.size(); ++i) EXPECT_LT(all[i - 1].name, all[i].name);
    // autovacuum_vacuum_max_threshold is new in 18.
    EXPECT_EQ(facts->FindTableOption("autovacuum_vacuum_max_threshold") != nullptr, major >= 18) << major;
  }
}

TEST(SqlKnowledgeTest, TableOptionValuesParseAsTheServerParsesThem) {
  const SqlFacts& facts = *SqlFacts::ForMajor(18);
  const Catalog& cat = *Catalog::ForMajor(18);
  Parameter sf = facts.FindTableOption("autovacuum_vacuum_scale_factor")->AsParameter();
  EXPECT_TRUE(ParseValue(cat, sf, "0.02").ok());
  EXPECT_FALSE(ParseValue(cat, sf, "101").ok());
  EXPECT_FALSE(ParseValue(cat, sf, "-1").ok());
  Parameter limit = facts.FindTableOption("autovacuum_vacuum_cost_limit")->AsParameter();
  EXPECT_TRUE(ParseValue(cat, limit, "2000").ok());
  EXPECT_FALSE(ParseValue(cat, limit, "0").ok());
  // As the server: 18.4 takes ALTER TABLE t SET (autovacuum_vacuum_cost_limit = 1.5)
  // (parse_int rounds a fraction) and keeps "1.5" in reloptions.
  EXPECT_TRUE(ParseValue(cat, limit, "1.5").ok());
  EXPECT_FALSE(ParseValue(cat, limit, "10001").ok());
  Parameter enabled = facts.FindTableOption("autovacuum_enabled")->AsParameter();
  EXPECT_TRUE(ParseValue(cat, enabled, "off").ok());
  EXPECT_FALSE(ParseValue(cat, enabled, "maybe").ok());
}

}  // namespace
}  // namespace pgconflint
