// The configuration statements as gram.y reads them.
#include "core/sql/sql_statements.h"

#include <gtest/gtest.h>

namespace pgconflint {
namespace {

SqlStatement ParseStatement(std::string_view text, int major = 18) {
  SqlScanOptions o;
  o.facts = SqlFacts::ForMajor(major);
  std::vector<SqlStatement> s = ParseSqlStatements(text, ScanSql(text, o), *o.facts);
  EXPECT_EQ(s.size(), 1u) << text;
  return s.empty() ? SqlStatement() : s[0];
}

TEST(SqlStatementsTest, AlterSystemForms) {
  using Action = SqlStatement::Action;
  SqlStatement s = ParseStatement("ALTER SYSTEM SET \"Maintenance_Work_Mem\" TO 131072");
  EXPECT_EQ(s.kind, SqlStatement::Kind::kAlterSystem);
  EXPECT_EQ(s.action, Action::kSet);
  EXPECT_EQ(s.name, "Maintenance_Work_Mem");
  ASSERT_EQ(s.values.size(), 1u);
  EXPECT_EQ(s.values[0].kind, SqlValue::Kind::kInteger);
  EXPECT_EQ(ParseStatement("ALTER SYSTEM SET DateStyle = iso, mdy").values.size(), 2u);
  EXPECT_EQ(ParseStatement("ALTER SYSTEM SET DateStyle = iso, mdy").name, "datestyle");
  EXPECT_EQ(ParseStatement("ALTER SYSTEM SET work_mem = DEFAULT").action, Action::kReset);
  EXPECT_EQ(ParseStatement("ALTER SYSTEM RESET ALL").action, Action::kResetAll);
  EXPECT_EQ(ParseStatement("ALTER SYSTEM SET random_page_cost = -1.5").values[0].text, "-1.5");
  EXPECT_EQ(ParseStatement("ALTER SYSTEM SET myext.mode = 'fast'").name, "myext.mode");
}

TEST(SqlStatementsTest, ScopedForms) {
  SqlStatement s = ParseStatement("ALTER ROLE app IN DATABASE shop SET work_mem = '64MB'");
  EXPECT_EQ(s.kind, SqlStatement::Kind::kAlterRole);
  EXPECT_EQ(s.role, "app");
  EXPECT_EQ(s.database, "shop");
  s = ParseStatement("ALTER USER ALL RESET work_mem");
  EXPECT_EQ(s.kind, SqlStatement::Kind::kAlterRole);
  EXPECT_EQ(s.role, "");
  s = ParseStatement("ALTER DATABASE shop SET search_path FROM CURRENT");
  EXPECT_EQ(s.action, SqlStatement::Action::kFromCurrent);
  EXPECT_EQ(ParseStatement("ALTER DATABASE shop RENAME TO store").kind, SqlStatement::Kind::kOther);
  s = ParseStatement("SET LOCAL TIME ZONE 'UTC'");
  EXPECT_EQ(s.kind, SqlStatement::Kind::kSession);
  EXPECT_TRUE(s.local);
  EXPECT_EQ(s.name, "timezone");
}

TEST(SqlStatementsTest, TablespaceOptions) {
  SqlStatement s = ParseStatement("CREATE TABLESPACE fast LOCATION '/srv/fast' WITH (random_page_cost = 1.1, seq_page_cost=1)");
  EXPECT_EQ(s.kind, SqlStatement::Kind::kCreateTablespace);
  EXPECT_EQ(s.tablespace, "fast");
  ASSERT_EQ(s.options.size(), 2u);
  EXPECT_EQ(s.options[0].name, "random_page_cost");
  EXPECT_EQ(s.options[0].value, "1.1");
  s = ParseStatement("ALTER TABLESPACE fast RESET (random_page_cost)");
  EXPECT_EQ(s.action, SqlStatement::Action::kReset);
  EXPECT_EQ(s.options.size(), 1u);
}

TEST(SqlStatementsTest, RefusalsCarryTheServersMessage) {
  EXPECT_EQ(ParseStatement("ALTER SYSTEM SET work_mem = 64MB", 15).error,
            "trailing junk after numeric literal at or near \"64MB\"");
  EXPECT_EQ(ParseStatement("ALTER SYSTEM SET work_mem = 64MB", 14).error, "syntax error at or near \"MB\"");
  EXPECT_EQ(ParseStatement("ALTER SYSTEM SET work_mem =").error, "syntax error at end of input");
  EXPECT_EQ(ParseStatement("ALTER SYSTEM SET work_mem = all").error, "syntax error at or near \"all\"");
}

TEST(SqlStatementsTest, AStatementNoKeywordStartsFailsAtItsFirstToken) {
  // A pasted URL: the grammar fails at "https" before the lexer reaches "03_review" (18.4).
  EXPECT_EQ(ParseStatement("https://example.com/a/03_review_settings").error, "syntax error at or near \"https\"");
  EXPECT_EQ(ParseStatement("postgres=# show work_mem").error, "syntax error at or near \"postgres\"");
  EXPECT_EQ(ParseStatement("select 1").error, "");
  EXPECT_EQ(ParseStatement("(select 1)").error, "");
}

TEST(SqlStatementsTest, LoadNamesItsLibrary) {
  SqlStatement st = ParseStatement("LOAD '$libdir/auto_explain'");
  EXPECT_EQ(st.kind, SqlStatement::Kind::kLoad);
  EXPECT_EQ(st.name, "$libdir/auto_explain");
  EXPECT_EQ(ParseStatement("LOAD 'a' 'b'").kind, SqlStatement::Kind::kOther);
}

}  // namespace
}  // namespace pgconflint
