// Tests for core/toml_read: the guard in front of toml++ and the one parse
// entry. The guard must refuse exactly the code points and positions where
// toml++ 3.3 has undefined behaviour and accept everything else.
#include "core/base/toml_read.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <string>

namespace pgconflint {
namespace {

std::string Utf8(char32_t c) {
  std::string s;
  if (c < 0x80) {
    s += static_cast<char>(c);
  } else if (c < 0x800) {
    s += static_cast<char>(0xC0 | (c >> 6));
    s += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    s += static_cast<char>(0xE0 | (c >> 12));
    s += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    s += static_cast<char>(0x80 | (c & 0x3F));
  }
  return s;
}

TEST(TomlReadTest, UndefinedRangeIsTheLibrarysUnclassifiedBlocks) {
  EXPECT_FALSE(TomlWhitespaceTestIsUndefined(U'a'));
  EXPECT_FALSE(TomlWhitespaceTestIsUndefined(0xA0));    // no-break space: classified
  EXPECT_TRUE(TomlWhitespaceTestIsUndefined(0xA1));
  EXPECT_TRUE(TomlWhitespaceTestIsUndefined(0x418));    // the fuzzer's Cyrillic letter
  EXPECT_TRUE(TomlWhitespaceTestIsUndefined(0x499));
  EXPECT_FALSE(TomlWhitespaceTestIsUndefined(0x49A));   // block 1: the mask says false
  EXPECT_FALSE(TomlWhitespaceTestIsUndefined(0x1680));  // block 5: the switch decides
  EXPECT_FALSE(TomlWhitespaceTestIsUndefined(0x2000));  // block 7: the switch decides
  EXPECT_FALSE(TomlWhitespaceTestIsUndefined(0x3000));
  EXPECT_TRUE(TomlWhitespaceTestIsUndefined(0xFB26));   // block 63
  EXPECT_TRUE(TomlWhitespaceTestIsUndefined(0xFEFE));
  EXPECT_FALSE(TomlWhitespaceTestIsUndefined(0xFEFF));
  EXPECT_FALSE(TomlWhitespaceTestIsUndefined(0x1F600));
}

TEST(TomlReadTest, FuzzFindingIsRefusedWithALocation) {
  std::string error;
  toml::table t;
  EXPECT_FALSE(ParseToml("j=1e3\xD0\x98", "r.toml", &t, &error));
  EXPECT_EQ(error, "r.toml:1:6: character U+0418 outside a string or a comment (the TOML reader cannot take it there)");
}

TEST(TomlReadTest, TextInStringsAndCommentsIsAccepted) {
  toml::table t;
  std::string error;
  const std::string text = "# Иван\nname = \"Иван\" # Иван\nlit = 'Иван'\nml = \"\"\"\nИван \\\\ Иван\"\"\"\n"
                           "mll = '''Иван\\\nИван'''\n";
  ASSERT_TRUE(ParseToml(text, "ok.toml", &t, &error)) << error;
  EXPECT_EQ(t["name"].value_or(std::string()), "Иван");
  EXPECT_EQ(t["ml"].value_or(std::string()), "Иван \\ Иван");
}

TEST(TomlReadTest, MultiLineStringPositionsAreRefused) {
  std::string error;
  EXPECT_FALSE(CheckTomlText("a = \"\"\"x\\Иx\"\"\"", &error));
  EXPECT_NE(error.find("after a backslash"), std::string::npos) << error;
  EXPECT_FALSE(CheckTomlText("a = \"\"\"x\\\n   Иван\"\"\"", &error));
  EXPECT_EQ(error.rfind("2:4: character U+0418 first after a line-ending backslash", 0), 0u) << error;
  // An escaped quote does not end the string; the text after it is still inside.
  EXPECT_TRUE(CheckTomlText("a = \"x\\\"Иван\"\nb = \"\"\"\\\"Иван\"\"\"", &error)) << error;
}

// The fuzzer's second finding: a quote after a malformed bare value does not
// open a string for toml++, which reads on into U+FCFF.
TEST(TomlReadTest, QuoteAfterABareValueOpensNoString) {
  std::string error;
  const std::string finding("2d-versio = 0og-veeeR\0eeeD\0eee\"\x1a\xef\xb3\xbf[profi]", 42);
  EXPECT_FALSE(CheckTomlText(finding, &error));
  EXPECT_NE(error.find("U+FCFF"), std::string::npos) << error;
  EXPECT_TRUE(CheckTomlText("a = [\"été\", 'été']\nb = {c = \"été\"}\n\"é\" = 1\nd.\"é\" = 2\n", &error)) << error;
}

TEST(TomlReadTest, KeysOfTooManyDottedPartsAreRefusedBeforeTheLibrary) {
  std::string parts = "a";
  for (int i = 0; i < 63; ++i) parts += ".a";
  std::string error;
  EXPECT_TRUE(CheckTomlText(parts + " = 1\n", &error)) << "64 parts: " << error;
  EXPECT_TRUE(CheckTomlText("[" + parts + "]\n", &error)) << error;
  EXPECT_FALSE(CheckTomlText("x = 1\n" + parts + ".a = 1\n", &error));
  EXPECT_EQ(error, "2: a key of more than 64 dotted parts (the TOML reader cannot take it)");
  EXPECT_FALSE(CheckTomlText("[" + parts + ".a]\n", &error));
  EXPECT_FALSE(CheckTomlText("t = {" + parts + ".a = 1}\n", &error));
  // Dots in values, strings and comments are no key's.
  std::string floats = "x = [";
  for (int i = 0; i < 100; ++i) floats += "1.5, ";
  EXPECT_TRUE(CheckTomlText(floats + "2.5]\n", &error)) << error;
  EXPECT_TRUE(CheckTomlText("\"" + parts + ".a\" = 1\n# " + parts + ".a\ny = \"" + parts + ".a\"\n", &error)) << error;
}

TEST(TomlReadTest, SyntaxErrorsStillComeFromToml) {
  toml::table t;
  std::string error;
  EXPECT_FALSE(ParseToml("a = \n", "bad.toml", &t, &error));
  EXPECT_EQ(error.rfind("bad.toml:1: ", 0), 0u) << error;
}

// Any code point, placed right after a value, either passes the guard and
// parses without undefined behaviour (the sanitizer build checks that), or is
// refused by the guard exactly when the library's test is undefined for it.
RC_GTEST_PROP(TomlReadTest, GuardRefusesExactlyTheUndefinedCodePoints, ()) {
  const auto c = *rc::gen::inRange<uint32_t>(0x80, 0x10000);
  RC_PRE(c < 0xD800 || c > 0xDFFF);
  std::string error;
  const bool passes = CheckTomlText("j=1e3" + Utf8(c), &error);
  RC_ASSERT(passes == !TomlWhitespaceTestIsUndefined(c));
  toml::table t;
  if (passes) ParseToml("j=1e3" + Utf8(c), "p.toml", &t, &error);
}

}  // namespace
}  // namespace pgconflint
