// scan.l's stateless pieces.
#include "core/sql/sql_lexemes.h"

#include <gtest/gtest.h>

namespace pgconflint {
namespace {

TEST(SqlLexemesTest, EscapesOfEStrings) {
  auto decode = [](std::string_view s) {
    std::string out;
    size_t i = 0;
    while (i < s.size()) i = s[i] == '\\' && i + 1 < s.size() ? DecodeEscape(s, i, &out) : (out += s[i], i + 1);
    return out;
  };
  EXPECT_EQ(decode("a\\tb\\\\c\\'"), "a\tb\\c'");
  EXPECT_EQ(decode("\\101\\x41\\x4"), "AA\x04");
  EXPECT_EQ(decode("\\u00e9\\U0001F600"), "\xc3\xa9\xf0\x9f\x98\x80");
  EXPECT_EQ(decode("\\q"), "q");  // an unknown escape is the character itself
}

TEST(SqlLexemesTest, UnicodeEscapes) {
  std::string out;
  EXPECT_TRUE(DecodeUnicodeEscapes("d\\0061t\\+000061\\\\", &out));
  EXPECT_EQ(out, "data\\");
  EXPECT_FALSE(DecodeUnicodeEscapes("\\12", &out));
  EXPECT_FALSE(DecodeUnicodeEscapes("\\+12345", &out));
}

TEST(SqlLexemesTest, ContinuationNeedsANewline) {
  EXPECT_EQ(LiteralContinuation("'a' 'b'", 3), std::string_view::npos);
  EXPECT_EQ(LiteralContinuation("'a'\n -- c\n 'b'", 3), 12u);  // after the quote that continues it
}

TEST(SqlLexemesTest, Int4Literals) {
  long long v = 0;
  EXPECT_TRUE(Int4Literal("2147483647", &v));
  EXPECT_EQ(v, 2147483647);
  EXPECT_FALSE(Int4Literal("2147483648", &v));
  EXPECT_TRUE(Int4Literal("0x1_F", &v));
  EXPECT_EQ(v, 31);
  EXPECT_TRUE(Int4Literal("1_000", &v));
  EXPECT_EQ(v, 1000);
}

TEST(SqlLexemesTest, TruncationKeepsWholeCharacters) {
  std::string s = "ab\xc3\xa9";
  TruncateIdentifier(&s, 3);
  EXPECT_EQ(s, "ab");
  s = std::string(70, 'x');
  TruncateIdentifier(&s, 63);
  EXPECT_EQ(s.size(), 63u);
}

}  // namespace
}  // namespace pgconflint
