// Transaction control, CREATE DATABASE's tablespace and set_config().
#include "core/sql/sql_other_statements.h"

#include <gtest/gtest.h>

namespace pgconflint {
namespace {

SqlStatement Classify(std::string_view text) {
  SqlScanOptions o;
  o.facts = SqlFacts::ForMajor(18);
  std::vector<SqlStatementTokens> s = ScanSql(text, o);
  SqlStatement out;
  if (s.empty()) return out;
  ClassifyOtherStatement(s[0].tokens, *o.facts, &out);
  return out;
}

TEST(SqlOtherStatementsTest, TransactionControl) {
  using Kind = SqlStatement::Kind;
  EXPECT_EQ(Classify("BEGIN").kind, Kind::kBegin);
  EXPECT_EQ(Classify("START TRANSACTION").kind, Kind::kBegin);
  EXPECT_EQ(Classify("COMMIT").kind, Kind::kEndTransaction);
  EXPECT_EQ(Classify("END").kind, Kind::kEndTransaction);
  EXPECT_EQ(Classify("ROLLBACK").kind, Kind::kEndTransaction);
  EXPECT_EQ(Classify("PREPARE TRANSACTION 'x'").kind, Kind::kEndTransaction);
  // These end no transaction block.
  EXPECT_EQ(Classify("ROLLBACK TO SAVEPOINT a").kind, Kind::kOther);
  EXPECT_EQ(Classify("ROLLBACK WORK TO a").kind, Kind::kOther);
  EXPECT_EQ(Classify("COMMIT PREPARED 'x'").kind, Kind::kOther);
}

TEST(SqlOtherStatementsTest, CreateDatabaseTablespace) {
  SqlStatement s = Classify("CREATE DATABASE shop WITH OWNER app TABLESPACE = fast");
  EXPECT_EQ(s.kind, SqlStatement::Kind::kDatabaseTablespace);
  EXPECT_EQ(s.database, "shop");
  EXPECT_EQ(s.tablespace, "fast");
  EXPECT_EQ(Classify("CREATE DATABASE shop").kind, SqlStatement::Kind::kOther);
}

TEST(SqlOtherStatementsTest, SetConfigWithConstantArguments) {
  SqlStatement s = Classify("SELECT pg_catalog.set_config('work_mem', '64MB', true)");
  EXPECT_EQ(s.kind, SqlStatement::Kind::kSession);
  EXPECT_TRUE(s.local);
  EXPECT_TRUE(s.set_config);
  EXPECT_EQ(s.name, "work_mem");
  ASSERT_EQ(s.values.size(), 1u);
  EXPECT_EQ(s.values[0].text, "64MB");
  EXPECT_FALSE(Classify("SELECT set_config('work_mem', '64MB', false)").local);
  // A value computed at run time is not known.
  EXPECT_EQ(Classify("SELECT set_config('work_mem', v, false) FROM t").kind, SqlStatement::Kind::kOther);
}

TEST(SqlOtherStatementsTest, AnOtherStatementCarriesItsFirstLexerError) {
  SqlStatement s = Classify("SELECT 64MB, 'unterminated");
  EXPECT_EQ(s.kind, SqlStatement::Kind::kOther);
  EXPECT_EQ(s.error, "trailing junk after numeric literal at or near \"64MB\"");
}

}  // namespace
}  // namespace pgconflint
