// Quoting for SQL and postgresql.conf, read back the way PostgreSQL reads it:
// the ALTER SYSTEM list rules, literals, identifiers and setting values.
// Real servers run these statements in tests/integration/test_recommend.py.
#include "core/sql/sql_quote.h"

#include <gtest/gtest.h>

#include "core/knowledge/catalog.h"
#include "test_support.h"

namespace pgconflint {
namespace {

using namespace test;

TEST(AlterSystemStatementTest, ListParametersQuoteEachItem) {
  ASSERT_TRUE(P18("shared_preload_libraries").list_input);
  EXPECT_EQ(AlterSystemStatement(P18("shared_preload_libraries"), "a,b"),
            "ALTER SYSTEM SET shared_preload_libraries = 'a', 'b';");
  EXPECT_EQ(AlterSystemStatement(P18("shared_preload_libraries"), "pg_stat_statements, auto_explain"),
            "ALTER SYSTEM SET shared_preload_libraries = 'pg_stat_statements', 'auto_explain';");
  EXPECT_EQ(AlterSystemStatement(P18("shared_preload_libraries"), "pg_stat_statements"),
            "ALTER SYSTEM SET shared_preload_libraries = 'pg_stat_statements';");
  EXPECT_EQ(AlterSystemStatement(P18("search_path"), "\"$user\", public"),
            "ALTER SYSTEM SET search_path = '\"$user\"', 'public';");
  // An item with a quote is escaped inside its own literal.
  EXPECT_EQ(AlterSystemStatement(P18("search_path"), "a,o'b"), "ALTER SYSTEM SET search_path = 'a', 'o''b';");
}

TEST(AlterSystemStatementTest, PlainValuesAreOneEscapedLiteral) {
  EXPECT_EQ(AlterSystemStatement(P18("application_name"), "it's"), "ALTER SYSTEM SET application_name = 'it''s';");
  // A comma in a parameter that is not a list stays inside the one literal.
  EXPECT_EQ(AlterSystemStatement(P18("application_name"), "a,b"), "ALTER SYSTEM SET application_name = 'a,b';");
  EXPECT_EQ(AlterSystemStatement(P18("work_mem"), "64MB"), "ALTER SYSTEM SET work_mem = '64MB';");
  EXPECT_EQ(AlterSystemStatement(P18("random_page_cost"), "1.1"), "ALTER SYSTEM SET random_page_cost = '1.1';");
  EXPECT_EQ(AlterSystemStatement(P18("io_method"), "worker"), "ALTER SYSTEM SET io_method = 'worker';");
  EXPECT_EQ(AlterSystemStatement(P18("shared_preload_libraries"), ""),
            "ALTER SYSTEM SET shared_preload_libraries = '';");
}

TEST(QuoteTest, LiteralsAndIdentifiersDoubleTheirQuote) {
  EXPECT_EQ(QuoteLiteral(""), "''");
  EXPECT_EQ(QuoteLiteral("it's"), "'it''s'");
  EXPECT_EQ(QuoteLiteral("say \"hi\""), "'say \"hi\"'");
  EXPECT_EQ(QuoteIdentifier("table"), "\"table\"");
  EXPECT_EQ(QuoteIdentifier("Cold Archive"), "\"Cold Archive\"");
  EXPECT_EQ(QuoteIdentifier("o\"q"), "\"o\"\"q\"");
  EXPECT_EQ(QuoteIdentifier("it's"), "\"it's\"");
}

// Bare where the grammar takes the value unquoted; a literal otherwise.
TEST(QuoteTest, SettingValuesAreBareOnlyWhereTheTypeAllows) {
  EXPECT_EQ(SettingValueText(&P18("random_page_cost"), "1.1"), "1.1");      // real
  EXPECT_EQ(SettingValueText(&P18("max_connections"), "100"), "100");       // integer, no unit
  EXPECT_EQ(SettingValueText(&P18("fsync"), "on"), "on");                   // bool
  EXPECT_EQ(SettingValueText(&P18("io_method"), "worker"), "worker");       // enum
  EXPECT_EQ(SettingValueText(&P18("work_mem"), "64MB"), "'64MB'");          // integer with a unit
  EXPECT_EQ(SettingValueText(&P18("checkpoint_timeout"), "15min"), "'15min'");
  EXPECT_EQ(SettingValueText(&P18("application_name"), "it's"), "'it''s'");  // string
  EXPECT_EQ(SettingValueText(nullptr, "x"), "'x'");                         // unknown parameter
}

}  // namespace
}  // namespace pgconflint
