// The front end: tokens exactly as guc-file.l, and ParseConfigFp's line grammar.
#include "core/model/syntax.h"

#include "core/base/limits.h"

#include <gtest/gtest.h>

#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

namespace pgconflint {
namespace {

std::string Kinds(const std::string& text) {
  SourceFile f("t.conf", text);
  std::string out;
  static const char* names[] = {"id", "qid", "str", "ustr", "int", "real", "=", "bad", "#"};
  for (const Token& t : Tokenize(f)) {
    if (!out.empty()) out += ' ';
    out += std::string(names[static_cast<int>(t.kind)]) + ":" + std::string(f.Slice(t.range));
  }
  return out;
}

TEST(TokenizeTest, MatchesFlexLongestMatch) {
  EXPECT_EQ(Kinds("a = 1e3"), "id:a =:= int:1e int:3");
  EXPECT_EQ(Kinds("a = 0x10"), "id:a =:= int:0x10");
  EXPECT_EQ(Kinds("a = 64MB#c"), "id:a =:= int:64MB #:#c");
  EXPECT_EQ(Kinds("a = ."), "id:a =:= real:.");
  EXPECT_EQ(Kinds("a = 1.5GB"), "id:a =:= real:1.5 id:GB");
  EXPECT_EQ(Kinds("a.b = a.b.c"), "qid:a.b =:= ustr:a.b.c");
  EXPECT_EQ(Kinds("x = en_US.utf8"), "id:x =:= qid:en_US.utf8");
  EXPECT_EQ(Kinds("x = C.UTF-8"), "id:x =:= ustr:C.UTF-8");
  EXPECT_EQ(Kinds("x = /srv"), "id:x =:= bad:/ id:srv");
  EXPECT_EQ(Kinds("x = \"dq\""), "id:x =:= bad:\" id:dq bad:\"");
  EXPECT_EQ(Kinds("x = 'it''s'"), "id:x =:= str:'it''s'");
  EXPECT_EQ(Kinds("x = 'a\\'b'"), "id:x =:= str:'a\\'b'");
  EXPECT_EQ(Kinds("x = -5"), "id:x =:= int:-5");
  EXPECT_EQ(Kinds("x = +.5e3"), "id:x =:= real:+.5e3");
  EXPECT_EQ(Kinds("x$y"), "id:x bad:$ id:y");
  EXPECT_EQ(Kinds("\xc3\xbcmlaut.x = 1"), "qid:\xc3\xbcmlaut.x =:= int:1");
}

TEST(ParseTest, AcceptsWhatPostgresAccepts) {
  SourceFile f("t.conf",
               "# comment\n"
               "work_mem 8MB\r\n"
               "search_path = a.b.c\n"
               "lc_messages = C.UTF-8   # pgconflint: disable=PGC201\n"
               "x.y = 'it''s \\'q\\' \\\\ b\\tc \\101'\n"
               "last = 1");
  ParsedFile p = Parse(f);
  ASSERT_TRUE(p.errors.empty()) << p.errors[0].near_text;
  ASSERT_EQ(p.settings.size(), 5u);
  EXPECT_EQ(p.settings[0].value_text, "8MB");
  EXPECT_EQ(p.settings[0].line, 2u);
  EXPECT_EQ(p.settings[2].value_text, "C.UTF-8");
  EXPECT_EQ(p.settings[3].value_text, "it's 'q' \\ b\tc A");
  EXPECT_EQ(p.settings[4].line, 6u);
  // Only comments that hold a directive are kept.
  ASSERT_EQ(p.comments.size(), 1u);
  EXPECT_EQ(f.Slice(p.comments[0].range), "# pgconflint: disable=PGC201");
  EXPECT_FALSE(p.comments[0].own_line);
}

TEST(ParseTest, KeepsDirectiveCommentsOnly) {
  SourceFile f("t.conf",
               "# a comment\n"
               "#pgconflint: disable-file=PGC303\n"
               "  #\t pgconflint: pg-version=17\n"
               "# PGCONFLINT: disable=PGC201\n"
               "port = 1 # pgconflint:disable=PGC202 # why\n");
  ParsedFile p = Parse(f);
  ASSERT_EQ(p.comments.size(), 3u);
  EXPECT_EQ(p.comments[0].line, 2u);
  EXPECT_TRUE(p.comments[1].own_line);
  EXPECT_EQ(p.comments[2].line, 5u);
}

TEST(ParseTest, KeepsTheErrorsThePostgresReportsAndCountsTheRest) {
  std::string text;
  for (int i = 0; i < 5000; ++i) text += "=\n";
  text += "work_mem = '4MB'\n";
  ParsedFile p = Parse(SourceFile("t.conf", text));
  EXPECT_EQ(p.error_count, 5000u);
  EXPECT_EQ(p.errors.size(), kMaxSyntaxErrors + 1);
  EXPECT_EQ(p.settings.size(), 1u);
  EXPECT_FALSE(p.truncated);
}

TEST(ParseTest, StopsAfterTheEntriesLimit) {
  std::string text;
  text.reserve(4 * (kMaxEntriesPerRoot + 2));
  for (size_t i = 0; i < kMaxEntriesPerRoot + 2; ++i) text += "a=1\n";
  ParsedFile p = Parse(SourceFile("t.conf", text));
  EXPECT_TRUE(p.truncated);
  EXPECT_EQ(p.settings.size(), kMaxEntriesPerRoot + 1);
}

TEST(ParseTest, RejectsWhatPostgresRejects) {
  struct {
    const char* line;
    const char* near;  // "" = near end of line
  } cases[] = {
      {"work_mem = 64 MB", "MB"},    {"work_mem = 1.5GB", "GB"},  {"work_mem = 1e3", "3"},
      {"listen_addresses = *", "*"}, {"x = 0.0.0.0", ".0"},       {"x = a,b", ","},
      {"data_directory = /srv/x", "/"}, {"cluster_name = \"dq\"", "\""}, {"name = 'unterminated", "'"},
      {"work_mem", ""},              {"a.b.c = 1", "a.b.c"},      {"foo-bar = 1", "foo-bar"},
      {"1abc = 1", "1abc"},          {"x = pg_catalog.english", "pg_catalog.english"},
      {"application_name = 'abc' x", "x"}, {"= 5", "="},          {"x = = 5", "="},
  };
  for (const auto& c : cases) {
    SourceFile f("t.conf", std::string(c.line) + "\nok = 1\n");
    ParsedFile p = Parse(f);
    ASSERT_EQ(p.errors.size(), 1u) << c.line;
    EXPECT_EQ(p.errors[0].near_text, c.near) << c.line;
    EXPECT_EQ(p.errors[0].at_end_of_line, std::string(c.near).empty()) << c.line;
    EXPECT_EQ(p.errors[0].line, 1u);
    ASSERT_EQ(p.settings.size(), 1u) << "parsing goes on after " << c.line;
    EXPECT_EQ(p.settings[0].line, 2u);
  }
}

TEST(UnescapeTest, FollowsDeescapeQuotedString) {
  EXPECT_EQ(UnescapeString("'it''s \\'quoted\\' \\\\ back\\tslash \\101'"), "it's 'quoted' \\ back\tslash A");
  EXPECT_EQ(UnescapeString("'a\\0b'"), "a");
  EXPECT_EQ(UnescapeString("'\\x41'"), "x41");
  EXPECT_EQ(UnescapeString("''"), "");
}

// Arbitrary bytes never crash the front end, and every range lies in the file.
RC_GTEST_PROP(ParseProperty, NeverCrashesAndRangesStayInside, (const std::string& text)) {
  SourceFile f("fuzz.conf", text);
  ParsedFile p = Parse(f);
  for (const SettingLine& s : p.settings) {
    RC_ASSERT(s.name.begin <= s.name.end && s.name.end <= text.size());
    RC_ASSERT(s.value.begin <= s.value.end && s.value.end <= text.size());
    RC_ASSERT(s.line >= 1 && s.line <= f.line_count());
  }
  for (const SyntaxError& e : p.errors) {
    RC_ASSERT(e.near.begin <= e.near.end && e.near.end <= text.size());
    RC_ASSERT(e.line >= 1 && e.line <= f.line_count());
  }
}


// Reparse gives Parse's result after any edit of any text: lines of settings,
// comments, directives and errors, edited anywhere (within a line, across
// lines, at either end), including newlines in the replacement.
void ExpectSameParse(const ParsedFile& a, const ParsedFile& b) {
  RC_ASSERT(a.settings.size() == b.settings.size());
  for (size_t i = 0; i < a.settings.size(); ++i) {
    const SettingLine &x = a.settings[i], &y = b.settings[i];
    RC_ASSERT(x.line == y.line);
    RC_ASSERT(x.name.begin == y.name.begin && x.name.end == y.name.end);
    RC_ASSERT(x.value.begin == y.value.begin && x.value.end == y.value.end);
    RC_ASSERT(x.quoted == y.quoted && x.value_text == y.value_text);
    RC_ASSERT(x.comment.begin == y.comment.begin && x.comment.end == y.comment.end);
  }
  RC_ASSERT(a.errors.size() == b.errors.size() && a.error_count == b.error_count);
  for (size_t i = 0; i < a.errors.size(); ++i) {
    const SyntaxError &x = a.errors[i], &y = b.errors[i];
    RC_ASSERT(x.line == y.line && x.at_end_of_line == y.at_end_of_line);
    RC_ASSERT(x.near.begin == y.near.begin && x.near.end == y.near.end);
    RC_ASSERT(x.near_text == y.near_text && x.expected == y.expected);
    RC_ASSERT(x.name.begin == y.name.begin && x.name.end == y.name.end);
    RC_ASSERT(x.value.begin == y.value.begin && x.value.end == y.value.end);
  }
  RC_ASSERT(a.comments.size() == b.comments.size());
  for (size_t i = 0; i < a.comments.size(); ++i) {
    RC_ASSERT(a.comments[i].line == b.comments[i].line && a.comments[i].own_line == b.comments[i].own_line);
    RC_ASSERT(a.comments[i].range.begin == b.comments[i].range.begin);
    RC_ASSERT(a.comments[i].range.end == b.comments[i].range.end);
  }
  RC_ASSERT(a.truncated == b.truncated);
}

RC_GTEST_PROP(ParseProperty, ReparseAfterAnEditEqualsParse, ()) {
  static const std::vector<std::string> kLines = {
      "work_mem = '64MB'", "shared_buffers = 8GB  # tuned", "#max_connections = 100", "# pgconflint: disable=PGC201",
      "# a comment", "", "   ", "port 5432", "a.b = 'x''y'", "work_mem = 64 MB", "= 1", "x = 'unterminated",
      "include_dir 'conf.d'", "ab\xff = 1\r", "wal_level = replica # \xe2\x82\xac", "\t"};
  std::vector<std::string> lines =
      *rc::gen::container<std::vector<std::string>>(rc::gen::elementOf(kLines));
  std::string old_text;
  for (const std::string& l : lines) old_text += l + "\n";
  if (*rc::gen::arbitrary<bool>() && !old_text.empty()) old_text.pop_back();  // no final newline
  const size_t at = *rc::gen::inRange<size_t>(0, old_text.size() + 1);
  const size_t len = *rc::gen::inRange<size_t>(0, old_text.size() - at + 1);
  const std::string alphabet = "ab_=' #\n\r1.x";
  const std::string insert = *rc::gen::container<std::string>(rc::gen::elementOf(alphabet));
  std::string text = old_text;
  text.replace(at, len, insert);
  ExpectSameParse(Reparse(Parse(old_text), old_text, text), Parse(text));
}

TEST(ParseTest, ReparseOfAKeystrokeInALargeFileMovesTheRest) {
  std::string old_text;
  for (int i = 0; i < 2000; ++i) old_text += i % 10 ? "# comment " + std::to_string(i) + "\n" : "work_mem = 64MB\n";
  std::string text = old_text;
  text.insert(text.find("64MB", 5000), "1");  // 164MB on one line in the middle
  ParsedFile p = Reparse(Parse(old_text), old_text, text), q = Parse(text);
  ASSERT_EQ(p.settings.size(), 200u);
  for (size_t i = 0; i < p.settings.size(); ++i) {
    EXPECT_EQ(p.settings[i].line, q.settings[i].line);
    EXPECT_EQ(p.settings[i].value.begin, q.settings[i].value.begin);
    EXPECT_EQ(p.settings[i].value_text, q.settings[i].value_text);
  }
}
}  // namespace
}  // namespace pgconflint

namespace pgconflint {
namespace {

// The lexer-only scan and the full tree-sitter parse give the same tokens,
// whatever the bytes (including invalid UTF-8, a BOM and control characters).
RC_GTEST_PROP(TokenizeProperty, LexerScanEqualsTreeParse, ()) {
  const std::string alphabet = "ab_Z09.-+xeE'\\\"#=*/,:$ \t\r\n\xc3\xbc\xff\xef\xbb\xbf";
  std::string text = *rc::gen::container<std::string>(rc::gen::elementOf(alphabet));
  SourceFile f("p.conf", text);
  std::vector<Token> a = Tokenize(f), b = TokenizeWithTree(f);
  RC_ASSERT(a.size() == b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    RC_ASSERT(a[i].kind == b[i].kind);
    RC_ASSERT(a[i].range.begin == b[i].range.begin);
    RC_ASSERT(a[i].range.end == b[i].range.end);
  }
}

// A file that is not plain ASCII is lexed a chunk of lines at a time: the
// tokens are those of the whole file, across every chunk boundary.
TEST(TokenizeTest, ChunksOfALargeNonAsciiFileGiveTheWholeFilesTokens) {
  std::string text;
  for (int i = 0; text.size() < (300u << 10); ++i)
    text += "\xc3\xbc" "ber_" + std::to_string(i) + " = 'gr\xc3\xbc\xc3\x9f " + std::string(i % 97, 'x') +
            "' # \xe2\x82\xac\n" + std::string(i % 3, '\0') + (i % 5 ? "" : "\n\n");
  text += std::string(200 << 10, 'y') + "\xff = 1";  // a line longer than a chunk, no final newline
  SourceFile f("big.conf", text);
  std::vector<Token> a = Tokenize(f), b = TokenizeWithTree(f);
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    ASSERT_EQ(a[i].kind, b[i].kind) << i;
    ASSERT_EQ(a[i].range.begin, b[i].range.begin) << i;
    ASSERT_EQ(a[i].range.end, b[i].range.end) << i;
  }
}

TEST(TokenizeTest, ByteOrderMarkAndInvalidUtf8AreLetters) {
  // As flex: every byte >= 0x80 is a LETTER, so they join the identifier.
  EXPECT_EQ(Kinds("\xef\xbb\xbfwork_mem = 1"), "id:\xef\xbb\xbfwork_mem =:= int:1");
  EXPECT_EQ(Kinds("ab\xff" "cd = 1"), "id:ab\xff" "cd =:= int:1");
}

}  // namespace
}  // namespace pgconflint
