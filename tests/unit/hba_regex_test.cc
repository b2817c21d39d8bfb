// The ARE syntax check: what PostgreSQL's regex engine refuses in pg_hba.conf
// and pg_ident.conf, with its message (each case checked against a server by
// tests/integration/test_hba_differential.py).
#include "core/hba/hba_regex.h"

#include <gtest/gtest.h>

namespace pgconflint {
namespace {

std::string CheckRegex(const std::string& re) {
  std::string reason;
  return CheckAdvancedRegex(re, &reason) ? "ok" : reason;
}

TEST(HbaRegexTest, Accepted) {
  for (const char* re : {"^a.*$", "a|b", "(a)\\1", "a{2,3}?", "(?i)ab", "(?:a)", "(?=a)b", "[[:alpha:]_]", "[a-z]",
                         "***=(", "\\d+\\w", "", "()", "[]a]", "é+", "\\x41", "\\u0041", "a{1,}", "(?#x)a"})
    EXPECT_EQ(CheckRegex(re), "ok") << re;
}

TEST(HbaRegexTest, Refused) {
  EXPECT_EQ(CheckRegex("(a"), "parentheses () not balanced");
  EXPECT_EQ(CheckRegex("a)"), "parentheses () not balanced");
  EXPECT_EQ(CheckRegex("[a-"), "brackets [] not balanced");
  EXPECT_EQ(CheckRegex("a{2,1}"), "invalid repetition count(s)");
  EXPECT_EQ(CheckRegex("a{256}"), "invalid repetition count(s)");
  EXPECT_EQ(CheckRegex("a{3"), "braces {} not balanced");
  EXPECT_EQ(CheckRegex("*a"), "quantifier operand invalid");
  EXPECT_EQ(CheckRegex("a**"), "quantifier operand invalid");
  EXPECT_EQ(CheckRegex("^*"), "quantifier operand invalid");
  EXPECT_EQ(CheckRegex("(?z)a"), "invalid embedded option");
  EXPECT_EQ(CheckRegex("\\q"), "invalid escape \\ sequence");
  EXPECT_EQ(CheckRegex("a\\"), "invalid escape \\ sequence");
  EXPECT_EQ(CheckRegex("\\1"), "invalid backreference number");
  EXPECT_EQ(CheckRegex("[[:nope:]]"), "invalid character class");
  EXPECT_EQ(CheckRegex("[z-a]"), "invalid character range");
  EXPECT_EQ(CheckRegex("[[.ab.]]"), "invalid collating element");
  EXPECT_EQ(CheckRegex("***?"), "invalid regexp (reg version 0.8)");
}

TEST(HbaRegexTest, DeepNestingStopsSafely) {
  EXPECT_EQ(CheckRegex(std::string(100000, '(')), "parentheses () not balanced");
}

}  // namespace
}  // namespace pgconflint
