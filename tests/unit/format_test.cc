#include "core/conf/format.h"

#include <gtest/gtest.h>

#include "core/model/syntax.h"

namespace pgconflint {
namespace {

FormatResult Format(const std::string& text, bool align = false) {
  FormatOptions o;
  o.align = align;
  return FormatConf(SourceFile("t.conf", text), o);
}

std::string Formatted(const std::string& text, bool align = false) {
  FormatResult r = Format(text, align);
  EXPECT_TRUE(r.ok) << r.problem;
  return r.text;
}

// Applies the edits to `text` as an editor would (from the end).
std::string Apply(std::string text, const std::vector<FormatEdit>& edits) {
  for (auto it = edits.rbegin(); it != edits.rend(); ++it)
    text.replace(it->old.begin, it->old.end - it->old.begin, it->text);
  return text;
}

TEST(FormatTest, EverySettingIsNameEqualsQuotedValue) {
  EXPECT_EQ(Formatted("shared_buffers 128MB\n"), "shared_buffers = '128MB'\n");
  EXPECT_EQ(Formatted("  work_mem=4MB\n"), "work_mem = '4MB'\n");
  EXPECT_EQ(Formatted("max_connections = 100\n"), "max_connections = '100'\n");
  EXPECT_EQ(Formatted("log_line_prefix = '%m [%p] '\n"), "log_line_prefix = '%m [%p] '\n");
  EXPECT_EQ(Formatted("pg_stat_statements.max=10000\n"), "pg_stat_statements.max = '10000'\n");
  EXPECT_EQ(Formatted("include 'extra.conf'\n"), "include = 'extra.conf'\n");
  EXPECT_EQ(Formatted("search_path = ''\n"), "search_path = ''\n");
}

TEST(FormatTest, QuotesAndBackslashesAreWrittenAsAlterSystemWritesThem) {
  // \' and '' are one quote; ALTER SYSTEM doubles it. \\ stays \\; \q is q.
  EXPECT_EQ(Formatted("a.b = 'it\\'s'\n"), "a.b = 'it''s'\n");
  EXPECT_EQ(Formatted("a.b = 'C:\\\\dir'\n"), "a.b = 'C:\\\\dir'\n");
  EXPECT_EQ(Formatted("a.b = '\\q\\101'\n"), "a.b = 'qA'\n");
}

TEST(FormatTest, AControlCharacterKeepsItsSpelling) {
  EXPECT_EQ(Formatted("a.b='x\\ny'\n"), "a.b = 'x\\ny'\n");
  EXPECT_EQ(Formatted("a.b='x\\ty'\n"), "a.b = 'x\\ty'\n");
}

TEST(FormatTest, CommentsBlankLinesAndTerminatorsAreKept) {
  EXPECT_EQ(Formatted("# intro   \n\n   \n#work_mem = 4MB\n\t# indented\n"),
            "# intro\n\n\n#work_mem = 4MB\n\t# indented\n");
  EXPECT_EQ(Formatted("work_mem = 4MB\t\t# per sort  \n"), "work_mem = '4MB'\t\t# per sort\n");
  EXPECT_EQ(Formatted("work_mem = 4MB# tight\n"), "work_mem = '4MB' # tight\n");
  EXPECT_EQ(Formatted("a.b = 1\r\n# c \r\n"), "a.b = '1'\r\n# c\r\n");
  EXPECT_EQ(Formatted("a.b = 1  # c \r\nc.d 2# e\r\n"), "a.b = '1'  # c\r\nc.d = '2' # e\r\n");
  EXPECT_EQ(Formatted("a.b = 1"), "a.b = '1'\n");
  EXPECT_EQ(Formatted(""), "");
}

TEST(FormatTest, AlignPadsEachRunOfSettings) {
  EXPECT_EQ(Formatted("a.b = 1\nlonger.name = 2\n\nx.y = 3\n", true),
            "a.b         = '1'\nlonger.name = '2'\n\nx.y = '3'\n");
}

TEST(FormatTest, TheLayoutIsAFixedPoint) {
  const std::string input =
      "# sample\nshared_buffers 128MB  # min 128kB\n  work_mem=4MB\nlog_line_prefix='%m \\'x\\' '\n\n";
  for (bool align : {false, true}) {
    FormatResult once = Format(input, align);
    ASSERT_TRUE(once.ok);
    FormatResult twice = Format(once.text, align);
    ASSERT_TRUE(twice.ok);
    EXPECT_TRUE(twice.edits.empty()) << twice.text;
    EXPECT_EQ(twice.text, once.text);
  }
}

TEST(FormatTest, TheEditsMakeTheFormattedText) {
  for (const std::string input : {"a.b 1\n# x  \nc.d = 2", "a.b = '1'\n", "x.y=1\r\n\r\n  \r\n"}) {
    FormatResult r = Format(input);
    ASSERT_TRUE(r.ok);
    EXPECT_EQ(Apply(input, r.edits), r.text) << input;
  }
  EXPECT_TRUE(Format("a.b = '1'\n").edits.empty());
}

TEST(FormatTest, EveryValueReadsTheSameAfterFormatting) {
  const std::string input =
      "a.b = on\nc.d 'x''y'\ne.f = -1.5e3\ng.h = 0x10\ni.j = '\\101\\\\'\nk.l = unquoted/path:x-y.z\n";
  FormatResult r = Format(input);
  ASSERT_TRUE(r.ok);
  ParsedFile before = Parse(input), after = Parse(r.text);
  ASSERT_EQ(before.settings.size(), after.settings.size());
  for (size_t i = 0; i < before.settings.size(); ++i) {
    EXPECT_EQ(before.settings[i].value_text, after.settings[i].value_text);
    EXPECT_TRUE(after.settings[i].quoted);
  }
}

TEST(FormatTest, AFileWithASyntaxErrorIsNotFormatted) {
  FormatResult r = Format("work_mem = 4MB\nshared_buffers = = 1\n");
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.problem, "syntax error near token \"=\"");
  EXPECT_EQ(r.line, 2u);
  EXPECT_EQ(r.column, 18u);
  EXPECT_TRUE(r.edits.empty());
  FormatResult end = Format("work_mem =\n");
  EXPECT_FALSE(end.ok);
  EXPECT_EQ(end.problem, "syntax error near end of line");
}

}  // namespace
}  // namespace pgconflint
