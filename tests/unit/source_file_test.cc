// Lines and columns in every unit, and back: bytes, code points, UTF-16 code
// units and display columns, over é, a 4-byte emoji, a CJK character, a tab,
// a combining mark and an invalid byte.
#include "core/base/source_file.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

namespace pgconflint {
namespace {

// a, tab, é (2 bytes), 日 (3), 🎉 (4), e + U+0301 COMBINING ACUTE (1 + 2), an
// invalid byte, then z at byte 15.
const std::string kLine = "a\t\xc3\xa9\xe6\x97\xa5\xf0\x9f\x8e\x89" "e\xcc\x81\xff" "z";
constexpr uint32_t kZ = 15;

TEST(SourceFileTest, ColumnOfEachUnit) {
  SourceFile f("t.conf", "first line\n" + kLine + "\n");
  const uint32_t z = 11 + kZ;
  EXPECT_EQ(f.PositionOf(z, ColumnUnit::kUtf8).column, 16u);
  EXPECT_EQ(f.PositionOf(z, ColumnUnit::kCodePoint).column, 9u);  // 8 characters before z
  EXPECT_EQ(f.PositionOf(z, ColumnUnit::kUtf16).column, 10u);     // the emoji is a surrogate pair
  // 1 + tab 4 + é 1 + 日 2 + 🎉 2 + e 1 + mark 0 + invalid byte 4 (\xff).
  EXPECT_EQ(f.PositionOf(z, ColumnUnit::kDisplay).column, 16u);
  for (ColumnUnit u : {ColumnUnit::kUtf8, ColumnUnit::kCodePoint, ColumnUnit::kUtf16, ColumnUnit::kDisplay}) {
    EXPECT_EQ(f.PositionOf(z, u).line, 2u);
    EXPECT_EQ(f.OffsetOf(f.PositionOf(z, u), u), z);
    EXPECT_EQ(f.PositionOf(11, u).column, 1u);
  }
}

TEST(SourceFileTest, EachCharacterAlone) {
  struct Case {
    const char* text;
    uint32_t utf8, code_points, utf16, display;
  } cases[] = {
      {"\xc3\xa9", 2, 1, 1, 1},          // é
      {"\xf0\x9f\x8e\x89", 4, 1, 2, 2},  // 🎉 U+1F389
      {"\xe6\x97\xa5", 3, 1, 1, 2},      // 日
      {"\t", 1, 1, 1, 4},                // shown as 4 spaces
      {"\xcc\x81", 2, 1, 1, 0},          // U+0301 combining acute accent
      {"\xff", 1, 1, 1, 4},              // invalid: one of everything, shown as \xff
      {"\xe2\x80\xae", 3, 1, 1, 12},      // U+202E RIGHT-TO-LEFT OVERRIDE, shown as \xe2\x80\xae
      {"\x1b", 1, 1, 1, 4},              // shown as \x1b
      {"\xc2\x9b", 2, 1, 1, 8},          // C1 CSI, shown as \xc2\x9b
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.text);
    EXPECT_EQ(ColumnWidth(c.text, ColumnUnit::kUtf8), c.utf8);
    EXPECT_EQ(ColumnWidth(c.text, ColumnUnit::kCodePoint), c.code_points);
    EXPECT_EQ(ColumnWidth(c.text, ColumnUnit::kUtf16), c.utf16);
    EXPECT_EQ(ColumnWidth(c.text, ColumnUnit::kDisplay), c.display);
  }
}

TEST(SourceFileTest, DisplayWidthOfCodePoints) {
  EXPECT_EQ(DisplayWidth('A'), 1u);
  EXPECT_EQ(DisplayWidth(0x7F), 4u);    // DEL
  EXPECT_EQ(DisplayWidth(0x00AD), 1u);  // soft hyphen is shown
  EXPECT_EQ(DisplayWidth(0xFEFF), 12u);  // byte order mark, shown as \xef\xbb\xbf
  EXPECT_EQ(DisplayWidth(0x2066), 12u);  // LEFT-TO-RIGHT ISOLATE
  EXPECT_EQ(DisplayWidth(0x200D), 0u);  // zero width joiner
  EXPECT_EQ(DisplayWidth(0x3000), 2u);  // ideographic space
  EXPECT_EQ(DisplayWidth(0xFF21), 2u);  // fullwidth A
  EXPECT_EQ(DisplayWidth(0xAC00), 2u);  // Hangul syllable
  EXPECT_EQ(DisplayWidth(0x1F600), 2u);
  EXPECT_EQ(DisplayWidth(0x00E9), 1u);
}

TEST(SourceFileTest, DecodeRefusesMalformedSequences) {
  size_t n = 0;
  EXPECT_EQ(DecodeUtf8("\xf0\x9f\x8e\x89", 0, &n), U'\U0001F389');
  EXPECT_EQ(n, 4u);
  // Overlong, surrogate, truncated, above U+10FFFF, a lone continuation byte.
  for (std::string_view bad : {"\xc0\x80", "\xed\xa0\x80", "\xe6\x97", "\xf4\x90\x80\x80", "\x80"}) {
    SCOPED_TRACE(std::string(bad));
    EXPECT_EQ(DecodeUtf8(bad, 0, &n), U'\uFFFD');
    EXPECT_EQ(n, 1u);
    EXPECT_EQ(ColumnWidth(bad, ColumnUnit::kCodePoint), bad.size());  // each byte one character
  }
}

// A well-formed sequence gives its length; an ill-formed one minus the length
// of its maximal subpart, the bytes one U+FFFD replaces (Unicode's practice,
// and nlohmann's dump's).
TEST(SourceFileTest, Utf8SequenceGivesTheMaximalSubpartOfAnIllFormedOne) {
  EXPECT_EQ(Utf8Sequence("a", 0), 1);
  EXPECT_EQ(Utf8Sequence("\xc3\xa9", 0), 2);
  EXPECT_EQ(Utf8Sequence("\xe6\x97\xa5", 0), 3);
  EXPECT_EQ(Utf8Sequence("\xf0\x9f\x8e\x89", 0), 4);
  EXPECT_EQ(Utf8Sequence("\xf4\x8f\xbf\xbf", 0), 4);  // U+10FFFF
  EXPECT_EQ(Utf8Sequence("\x80", 0), -1);                // a lone continuation byte
  EXPECT_EQ(Utf8Sequence("\xc0\x80", 0), -1);            // overlong: C0 never begins a sequence
  EXPECT_EQ(Utf8Sequence("\xe0\x80\x80", 0), -1);        // overlong: E0 needs A0..BF next
  EXPECT_EQ(Utf8Sequence("\xed\xa0\x80", 0), -1);        // a surrogate
  EXPECT_EQ(Utf8Sequence("\xf4\x90\x80\x80", 0), -1);    // above U+10FFFF
  EXPECT_EQ(Utf8Sequence("\xe6\x97", 0), -2);            // truncated after two bytes
  EXPECT_EQ(Utf8Sequence("\xf0\x9f\x8ex", 0), -3);       // three of four, then ASCII
  size_t n = 0;
  EXPECT_EQ(DecodeUtf8("\xf0\x9f\x8ex", 0, &n), U'\uFFFD');
  EXPECT_EQ(n, 1u);  // DecodeUtf8 replaces byte by byte, as a terminal shows them
}

TEST(SourceFileTest, OffsetInsideACharacterIsItsStart) {
  SourceFile f("t.conf", kLine);
  // The second UTF-16 unit of 🎉 (columns 5 and 6), the second column of 日 (columns 7 and 8).
  EXPECT_EQ(f.OffsetOf({1, 6}, ColumnUnit::kUtf16), 7u);
  EXPECT_EQ(f.OffsetOf({1, 7}, ColumnUnit::kUtf16), 11u);
  EXPECT_EQ(f.OffsetOf({1, 8}, ColumnUnit::kDisplay), 4u);
  EXPECT_EQ(f.OffsetOf({1, 9}, ColumnUnit::kDisplay), 7u);
  EXPECT_EQ(f.OffsetOf({1, 3}, ColumnUnit::kDisplay), 1u);  // inside the tab
  EXPECT_EQ(f.OffsetOf({1, 4}, ColumnUnit::kUtf8), 2u);     // the second byte of é
}

TEST(SourceFileTest, OffsetIsClamped) {
  SourceFile f("t.conf", "ab\r\ncd\nlast");
  EXPECT_EQ(f.OffsetOf({2, 1}, ColumnUnit::kUtf16), 4u);
  EXPECT_EQ(f.OffsetOf({1, 99}, ColumnUnit::kUtf16), 2u);  // before "\r\n"
  EXPECT_EQ(f.OffsetOf({2, 99}, ColumnUnit::kCodePoint), 6u);
  EXPECT_EQ(f.OffsetOf({3, 99}, ColumnUnit::kDisplay), 11u);
  EXPECT_EQ(f.OffsetOf({9, 1}, ColumnUnit::kUtf16), 11u);  // past the last line
  EXPECT_EQ(f.OffsetOf({0, 0}, ColumnUnit::kUtf16), 0u);
  EXPECT_EQ(f.PositionOf(999).line, 3u);
  EXPECT_EQ(f.PositionOf(999).column, 5u);
  EXPECT_EQ(f.LineText(1), "ab");
  EXPECT_EQ(f.LineStart(3), 7u);
}

// Text made of the characters that differ between units, invalid and
// truncated sequences, line ends and plain ASCII.
rc::Gen<std::string> MixedText() {
  return rc::gen::map(
      rc::gen::container<std::vector<std::string>>(rc::gen::element<std::string>(
          "a", "=", " ", "\t", "\xc3\xa9", "\xf0\x9f\x8e\x89", "\xe6\x97\xa5", "\xcc\x81", "\xff", "\x80",
          "\xe6\x97", "\x1b", "\xc2\x9b", "\xef\xbb\xbf", "\r", "\n", "\r\n")),
      [](const std::vector<std::string>& parts) {
        std::string s;
        for (const std::string& p : parts) s += p;
        return s;
      });
}

// Offsets at character boundaries survive the round trip in every unit but
// display columns, where a zero-width character shares its column with the next.
RC_GTEST_PROP(SourceFileTest, RoundTripAtCharacterBoundaries, ()) {
  const std::string text = *MixedText();
  SourceFile f("p.conf", text);
  for (uint32_t line = 1; line <= f.line_count(); ++line) {
    std::string_view s = f.LineText(line);
    uint32_t start = f.LineStart(line);
    size_t n = 0;
    for (size_t i = 0;; i += n) {
      uint32_t off = start + static_cast<uint32_t>(i);
      for (ColumnUnit u : {ColumnUnit::kUtf8, ColumnUnit::kCodePoint, ColumnUnit::kUtf16})
        RC_ASSERT(f.OffsetOf(f.PositionOf(off, u), u) == off);
      Position d = f.PositionOf(off, ColumnUnit::kDisplay);
      uint32_t back = f.OffsetOf(d, ColumnUnit::kDisplay);
      RC_ASSERT(back <= off);
      RC_ASSERT(f.PositionOf(back, ColumnUnit::kDisplay).column == d.column);
      if (i >= s.size()) break;
      DecodeUtf8(s, i, &n);
    }
  }
}

// A file holding some lines of another (a snapshot's rebuilt file): each
// physical line answers to its number; the lines between are empty.
TEST(SourceFileTest, SparseLinesKeepTheirNumbers) {
  SourceFile f("p.conf", "a = 1\nbb = 2\n", {7, 1000000000});
  EXPECT_EQ(f.line_count(), 1000000001u);  // the empty line after the final newline
  EXPECT_EQ(f.LineOf(0), 7u);
  EXPECT_EQ(f.LineOf(6), 1000000000u);
  EXPECT_EQ(f.PositionOf(7).line, 1000000000u);
  EXPECT_EQ(f.PositionOf(7).column, 2u);
  EXPECT_EQ(f.LineText(7), "a = 1");
  EXPECT_EQ(f.LineText(1000000000), "bb = 2");
  EXPECT_EQ(f.LineText(8), "");
  EXPECT_EQ(f.LineText(1), "");
  EXPECT_EQ(f.LineStart(1000000000), 6u);
  EXPECT_EQ(f.LineStart(1), 0u);  // before the first line held: its start
  EXPECT_EQ(f.OffsetOf({1000000000, 3}, ColumnUnit::kUtf8), 8u);
  EXPECT_EQ(f.OffsetOf({2000000000, 1}, ColumnUnit::kUtf8), 13u);
}

}  // namespace
}  // namespace pgconflint
