// The SQL scanner against PostgreSQL's lexical rules (scan.l) and psql's
// statement splitting: what each kind of literal decodes to, case folding,
// comments, and where statements end.
#include "core/sql/sql_scanner.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace pgconflint {
namespace {

std::vector<SqlStatementTokens> Scan(std::string_view text, int major = 18) {
  SqlScanOptions o;
  o.facts = SqlFacts::ForMajor(major);
  return ScanSql(text, o);
}

// The single token of a one-token statement.
SqlToken OneToken(std::string_view text, int major = 18) {
  std::vector<SqlStatementTokens> s = Scan(text, major);
  EXPECT_EQ(s.size(), 1u) << text;
  if (s.size() != 1 || s[0].tokens.size() != 1) {
    ADD_FAILURE() << text << ": not one token";
    return {SqlTokenKind::kError, {}, ""};
  }
  return s[0].tokens[0];
}

// Each statement read with the mode given for it, as the simulation passes
// the mode the statements before it leave.
std::vector<SqlStatementTokens> ScanModes(std::string_view text, const std::vector<SqlLexerMode>& modes) {
  SqlScanOptions o;
  o.facts = SqlFacts::ForMajor(18);
  SqlStatementScanner scanner(text, o);
  std::vector<SqlStatementTokens> out;
  for (SqlStatementTokens st; scanner.Next(modes[std::min(out.size(), modes.size() - 1)], &st);)
    out.push_back(std::move(st));
  return out;
}

TEST(SqlScannerTest, StandardConformingStringsOffReadsBackslashesAsEscapes) {
  const SqlLexerMode on, off{false, true};
  // The first statement read with on, the rest with off: the mode applies
  // from the statement it is given for, the split included ('a\';' is one
  // string when backslashes escape).
  std::vector<SqlStatementTokens> s = ScanModes("'a\\nb'; 'a\\nb'; N'x\\ty'; 'a\\';' ; U&'d\\0061';", {on, off});
  ASSERT_EQ(s.size(), 5u);
  EXPECT_EQ(s[0].tokens[0].value, "a\\nb");
  EXPECT_EQ(s[1].tokens[0].value, "a\nb");
  EXPECT_EQ(s[2].tokens[0].value, "x\ty");
  EXPECT_EQ(s[3].tokens[0].value, "a';");
  ASSERT_EQ(s[4].tokens.size(), 1u);  // psql reads U&'' as a standard string; the server refuses it
  EXPECT_EQ(s[4].tokens[0].kind, SqlTokenKind::kError);
  EXPECT_EQ(s[4].tokens[0].value, SqlFacts::ForMajor(18)->Message("unicode_unsafe"));
  EXPECT_EQ(ScanModes("U&\"d\\0061\";", {off})[0].tokens[0].value, "da");  // identifiers are not refused
}

TEST(SqlScannerTest, BackslashQuoteOffRefusesAnEscapedQuote) {
  const SqlLexerMode refuse{true, false};
  std::vector<SqlStatementTokens> s = ScanModes("E'it\\'s'; E'it''s'; 'a\\'", {refuse});
  ASSERT_EQ(s.size(), 3u);
  EXPECT_EQ(s[0].tokens[0].kind, SqlTokenKind::kError);
  EXPECT_EQ(s[0].tokens[0].value, SqlFacts::ForMajor(18)->Message("backslash_quote"));
  EXPECT_EQ(s[0].tokens[0].range.end, 8u);  // the literal is read to its end: the split stays psql's
  EXPECT_EQ(s[1].tokens[0].value, "it's");
  EXPECT_EQ(s[2].tokens[0].value, "a\\");  // a standard string has no escapes to refuse
}

TEST(SqlScannerTest, StringsDecodeAsTheServerReadsThem) {
  EXPECT_EQ(OneToken("'it''s'").value, "it's");
  EXPECT_EQ(OneToken("'a\\b'").value, "a\\b");  // standard_conforming_strings: a backslash is a character
  EXPECT_EQ(OneToken("E'a\\\\b\\n\\x41\\101\\u00e9'").value, "a\\b\nAA\xc3\xa9");
  EXPECT_EQ(OneToken("U&'d\\0061t\\+000061'").value, "data");
  EXPECT_EQ(OneToken("$$it's $x$$").value, "it's $x");
  EXPECT_EQ(OneToken("$tag$a$$b$tag$").value, "a$$b");
  EXPECT_EQ(OneToken("'con'\n  'tinued'").value, "continued");  // literals split by a newline
  EXPECT_EQ(OneToken("'con'\n  'tinued'").kind, SqlTokenKind::kString);
}

TEST(SqlScannerTest, IdentifiersFoldUnlessQuoted) {
  SqlToken t = OneToken("DateStyle");
  EXPECT_EQ(t.kind, SqlTokenKind::kIdentifier);
  EXPECT_EQ(t.value, "datestyle");
  t = OneToken("\"Maintenance_Work_Mem\"");
  EXPECT_EQ(t.kind, SqlTokenKind::kQuotedIdentifier);
  EXPECT_EQ(t.value, "Maintenance_Work_Mem");
  EXPECT_EQ(OneToken("\"a\"\"b\"").value, "a\"b");
  EXPECT_EQ(OneToken(std::string(70, 'x')).value.size(), 63u);  // NAMEDATALEN - 1
}

TEST(SqlScannerTest, NumbersWithTrailingJunkAreErrorsFrom15) {
  EXPECT_EQ(OneToken("64MB", 15).kind, SqlTokenKind::kError);
  EXPECT_EQ(OneToken("64MB", 15).value, "trailing junk after numeric literal at or near \"64MB\"");
  // PostgreSQL 14 reads a number, then an identifier.
  std::vector<SqlStatementTokens> s = Scan("64MB", 14);
  ASSERT_EQ(s.size(), 1u);
  ASSERT_EQ(s[0].tokens.size(), 2u);
  EXPECT_EQ(s[0].tokens[0].kind, SqlTokenKind::kInteger);
  EXPECT_EQ(s[0].tokens[1].value, "mb");
  EXPECT_EQ(OneToken("0.9").kind, SqlTokenKind::kNumeric);
  EXPECT_EQ(OneToken("131072").kind, SqlTokenKind::kInteger);
}

TEST(SqlScannerTest, CommentsAreSkippedAndNest) {
  std::vector<SqlStatementTokens> s = Scan("/* a /* nested */ still; comment */ SET -- x; y\n work_mem = 1;");
  ASSERT_EQ(s.size(), 1u);
  ASSERT_EQ(s[0].tokens.size(), 4u);
  EXPECT_TRUE(s[0].tokens[0].Is("set"));
  EXPECT_TRUE(s[0].terminated);
}

TEST(SqlScannerTest, StatementsEndAtSemicolonsOutsideParenthesesAndBodies) {
  std::vector<SqlStatementTokens> s =
      Scan("ALTER TABLESPACE t SET (a = 1); SELECT ';'; CREATE FUNCTION f() RETURNS int BEGIN ATOMIC SELECT 1; "
           "SELECT 2; END; SET x = 1");
  ASSERT_EQ(s.size(), 4u);
  EXPECT_TRUE(s[0].tokens[0].Is("alter"));
  EXPECT_TRUE(s[1].tokens[0].Is("select"));
  EXPECT_TRUE(s[2].tokens[0].Is("create"));
  EXPECT_TRUE(s[3].tokens[0].Is("set"));
  EXPECT_FALSE(s[3].terminated);
  // Locations are the script's bytes.
  EXPECT_EQ(s[0].range.begin, 0u);
}

TEST(SqlScannerTest, UnterminatedLiteralsAreErrorTokensNotCrashes) {
  for (std::string_view text : {"'abc", "\"abc", "$$abc", "/* abc", "E'\\", "U&'\\12'", "$a$ x $b$"}) {
    std::vector<SqlStatementTokens> s = Scan(text);
    bool error = false;
    for (const SqlStatementTokens& st : s)
      for (const SqlToken& t : st.tokens) error = error || t.kind == SqlTokenKind::kError;
    EXPECT_TRUE(error) << text;
  }
}

TEST(SqlScannerTest, PsqlBackslashCommandsAreNotSql) {
  std::vector<SqlStatementTokens> s = Scan("\\set ON_ERROR_STOP on\nSET work_mem = '1MB';\n");
  ASSERT_EQ(s.size(), 1u);
  EXPECT_TRUE(s[0].tokens[0].Is("set"));
}

}  // namespace
TEST(SqlScannerTest, UescapeNamesTheEscapeCharacter) {
  // The server writes 'xA' for U&'x!0041' UESCAPE '!' (18.4), with comments between.
  EXPECT_EQ(OneToken("U&'x!0041' UESCAPE '!'").value, "xA");
  EXPECT_EQ(OneToken("U&'x!0041' uescape\n -- c\n '!'").value, "xA");
  EXPECT_EQ(OneToken("U&'a!!b' UESCAPE '!'").value, "a!b");
  // Not one character, or one that cannot be an escape: refused, at the clause's string.
  SqlToken t = OneToken("U&'x!0041' UESCAPE '!!'");
  EXPECT_EQ(t.kind, SqlTokenKind::kError);
  EXPECT_EQ(t.value, "invalid Unicode escape character at or near \"'!!'\"");
  EXPECT_EQ(OneToken("U&'x' UESCAPE 'a'").kind, SqlTokenKind::kError);
  EXPECT_EQ(OneToken("U&'x' UESCAPE '+'").kind, SqlTokenKind::kError);
}

TEST(SqlScannerTest, EscapesThatMakeNoUtf8AreRefused) {
  SqlToken t = OneToken("E'\\377'");
  EXPECT_EQ(t.kind, SqlTokenKind::kError);
  EXPECT_EQ(t.value, "invalid byte sequence for encoding \"UTF8\": 0xff");
  // As many bytes as the first one announces (pg_utf_mblen), as far as there are.
  EXPECT_EQ(OneToken("E'\\xc3\\x28'").value, "invalid byte sequence for encoding \"UTF8\": 0xc3 0x28");
  EXPECT_EQ(OneToken("E'\\xe2\\x82'").value, "invalid byte sequence for encoding \"UTF8\": 0xe2 0x82");
  EXPECT_EQ(OneToken("E'\\303\\251'").value, "\xc3\xa9");  // a whole character: fine
}

TEST(SqlScannerTest, AnUnterminatedTokenEndsOnItsLastLine) {
  std::string text = "SELECT 'abc\n";
  std::vector<SqlStatementTokens> s = Scan(text);
  ASSERT_EQ(s.size(), 1u);
  const SqlToken& t = s[0].tokens.back();
  EXPECT_EQ(t.kind, SqlTokenKind::kError);
  EXPECT_EQ(t.range.end, text.size() - 1);  // before the final line break
}

}  // namespace pgconflint
