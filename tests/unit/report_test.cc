// The output formats, from the reporter table: a diagnostic built by hand
// with notes and fixes in each format, the caret after multi-byte text, the
// escaping of control characters, and the JSON writer against nlohmann's.
#include "core/conf/analyze.h"
#include "report/reporter.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <rapidcheck/gtest.h>

#include <set>
#include <sstream>

#include "report/text.h"

namespace pgconflint {
namespace {

using nlohmann::ordered_json;

std::string Render(const char* format, const std::vector<Analysis>& analyses, bool color = false) {
  const Reporter* r = FindReporter(format);
  EXPECT_NE(r, nullptr) << format;
  if (!r) return "";
  ReportOptions options;
  options.pg_version = 18;
  options.color = color;
  options.tool_version = "X";
  std::ostringstream out;
  r->render(analyses, options, out);
  return out.str();
}

std::vector<Analysis> OneRoot(Analysis a) {
  std::vector<Analysis> v;
  v.push_back(std::move(a));
  return v;
}

// A root that includes conf.d/more.conf, with one diagnostic on the quoted
// value of its first line, made by hand: two notes (one without a location)
// and a safe and an unsafe fix.
class HandMadeDiagnostic : public ::testing::Test {
 protected:
  void SetUp() override {
    fs_.Set("/data/postgresql.conf",
            "work_mem = 4MB\n"
            "include 'conf.d/more.conf'\n");
    fs_.Set("/data/conf.d/more.conf",
            "cluster_name = 'été'\n"
            "work_mem = 8MB\n");
    AnalyzeOptions o;
    o.catalog = Catalog::ForMajor(18);
    o.fs = &fs_;
    o.display_base = "/data";
    analysis_ = Analyze("postgresql.conf", o);
    ASSERT_EQ(analysis_.files.size(), 2u);
    const RuleInfo* rule = rules_.Find("PGC303");
    ASSERT_NE(rule, nullptr);
    Diagnostic d = MakeDiagnostic(*rule, {1, {15, 22}}, "the value 'été' is shadowed", "remove one of them",
                                  "cluster_name");
    d.level = Severity::kWarning;
    d.notes.push_back({{0, {0, 8}}, "set first here"});
    d.notes.push_back({{}, "the last line wins"});
    d.fixes.push_back(MakeFix("remove the first line", FixSafety::kSafe, {0, {0, 15}}, ""));
    d.fixes.push_back(MakeFix("spell it without accents", FixSafety::kUnsafe, {1, {15, 22}}, "'ete'"));
    analysis_.diagnostics = {d};
  }

  OverlayFileSystem fs_{nullptr, "/data"};
  RuleSet rules_;
  Analysis analysis_;
};

// The summary names the majors the roots were checked against: a fleet of
// servers of several majors is not summed up as the default one.
TEST(SummaryVersions, NamesEveryMajorOfAFleet) {
  std::vector<Analysis> fleet(3);
  fleet[0].catalog = Catalog::ForMajor(18);
  fleet[1].catalog = Catalog::ForMajor(14);
  fleet[2].catalog = Catalog::ForMajor(17);
  EXPECT_EQ(VersionsText(fleet, 18), "PostgreSQL 14, 17 and 18");
  EXPECT_NE(SummaryLine(fleet, 18, "the default").find("in 3 roots (PostgreSQL 14, 17 and 18)."), std::string::npos);
  fleet.resize(1);
  EXPECT_EQ(VersionsText(fleet, 18, "from PG_VERSION in /srv/pg"), "PostgreSQL 18: from PG_VERSION in /srv/pg");
  fleet[0].catalog = Catalog::ForMajor(14);
  EXPECT_EQ(VersionsText(fleet, 18, "the default"), "PostgreSQL 14");  // the root's own major, not the default
  fleet[0].catalog = nullptr;  // not read
  EXPECT_EQ(VersionsText(fleet, 16, "--pg-version"), "PostgreSQL 16: --pg-version");
}

TEST_F(HandMadeDiagnostic, Full) {
  EXPECT_EQ(Render("full", OneRoot(analysis_)),
            "warning[PGC303] [*]: the value 'été' is shadowed\n"
            " --> conf.d/more.conf:1:16\n"
            "  |\n"
            "1 | cluster_name = 'été'\n"
            "  |                ^^^^^\n"
            "  = help: remove one of them\n"
            "  = note: set first here\n"
            "    --> postgresql.conf:1:1\n"
            "  = note: the last line wins\n"
            "  = fix [*]: remove the first line\n"
            "  = fix (unsafe): spell it without accents\n"
            "  = note: included from postgresql.conf:2\n"
            "  = rule: setting-overridden (pgconflint explain setting-overridden, docs/rules/setting-overridden.md)\n"
            "\n"
            "Found 0 errors, 1 warning, 0 info in 1 root (PostgreSQL 18).\n"
            "[*] 1 finding with a safe fix.\n");
}

TEST_F(HandMadeDiagnostic, ConciseIsOneLineWithoutNotes) {
  // One line per finding, then the summary line.
  EXPECT_EQ(Render("concise", OneRoot(analysis_)),
            "conf.d/more.conf:1:16: warning: the value 'été' is shadowed [PGC303]\n"
            "Found 0 errors, 1 warning, 0 info in 1 root (PostgreSQL 18).\n");
}

TEST_F(HandMadeDiagnostic, JsonNotesAndFixesCountCodePoints) {
  ordered_json j = ordered_json::parse(Render("json", OneRoot(analysis_)));
  const ordered_json& d = j["diagnostics"][0];
  EXPECT_EQ(d["column"], 16);
  EXPECT_EQ(d["end_column"], 21);  // 'été' is 5 characters (7 bytes)
  EXPECT_EQ(d["notes"], ordered_json::parse(R"([
    {"file": "postgresql.conf", "line": 1, "column": 1, "end_line": 1, "end_column": 9,
     "message": "set first here"},
    {"file": null, "line": null, "column": null, "end_line": null, "end_column": null,
     "message": "the last line wins"}])"));
  EXPECT_EQ(d["fixes"], ordered_json::parse(R"([
    {"title": "remove the first line", "safety": "safe",
     "edits": [{"file": "postgresql.conf", "line": 1, "column": 1, "end_line": 2, "end_column": 1, "text": ""}]},
    {"title": "spell it without accents", "safety": "unsafe",
     "edits": [{"file": "conf.d/more.conf", "line": 1, "column": 16, "end_line": 1, "end_column": 21,
                "text": "'ete'"}]}])"));
}

TEST_F(HandMadeDiagnostic, ColourOnlyWhenAsked) {
  EXPECT_EQ(Render("full", OneRoot(analysis_), false).find('\x1b'), std::string::npos);
  EXPECT_NE(Render("full", OneRoot(analysis_), true).find("\x1b[1;33m"), std::string::npos);
}

// The JSON writer streams element by element; its bytes are exactly those of
// nlohmann's dump(2) of the whole document, empty arrays included.
TEST_F(HandMadeDiagnostic, JsonStreamsWhatADumpWouldWrite) {
  AnalyzeOptions o;
  o.catalog = Catalog::ForMajor(18);
  std::vector<Analysis> runs;
  runs.push_back(AnalyzeText("empty.conf", "", o));
  runs.push_back(analysis_);
  runs.push_back(AnalyzeText("bad.conf", "work_mem = 64 MB\nshared_buffers = 1\n", o));
  for (size_t n = 0; n <= runs.size(); ++n) {
    std::vector<Analysis> some(runs.begin(), runs.begin() + n);
    std::string out = Render("json", some);
    EXPECT_EQ(out, ordered_json::parse(out).dump(2) + "\n") << out;
  }
}

std::string CaretLine(const std::string& line) {
  AnalyzeOptions o;
  o.catalog = Catalog::ForMajor(18);
  std::string out = Render("full", OneRoot(AnalyzeText("t.conf", line + "\n", o)));
  std::istringstream in(out);
  std::string shown, caret;
  while (std::getline(in, shown) && shown.rfind("1 | ", 0) != 0) {
  }
  std::getline(in, caret);
  return shown + "\n" + caret;
}

// The caret stands under the token after multi-byte text, as a terminal shows
// it (issue 7: it was one column left per extra byte). `columns` is the display
// width of what precedes the token.
std::string Expected(const std::string& shown, size_t columns, size_t carets = 1) {
  return "1 | " + shown + "\n  | " + std::string(columns, ' ') + std::string(carets, '^');
}

TEST(FullFormatTest, CaretUnderTheTokenAfterMultiByteText) {
  // "cluster_name = " is 15 columns; the quotes and the space 3 more.
  EXPECT_EQ(CaretLine("cluster_name = 'ééééé' x"), Expected("cluster_name = 'ééééé' x", 15 + 3 + 5));
  EXPECT_EQ(CaretLine("cluster_name = '日本' x"), Expected("cluster_name = '日本' x", 15 + 3 + 4));
  EXPECT_EQ(CaretLine("cluster_name = '🎉' x"), Expected("cluster_name = '🎉' x", 15 + 3 + 2));
  // e + U+0301 COMBINING ACUTE ACCENT: one column.
  EXPECT_EQ(CaretLine("cluster_name = 'e\xcc\x81' x"), Expected("cluster_name = 'e\xcc\x81' x", 15 + 3 + 1));
  // A tab is shown as 4 spaces, ESC as \x1b, an invalid byte as \xff, U+202E as
  // the escapes of its three bytes: the caret stays under the token.
  EXPECT_EQ(CaretLine("cluster_name =\t'\x1b\xff' x"),
            Expected("cluster_name =    '\\x1b\\xff' x", 14 + 4 + 3 + 4 + 4));
  EXPECT_EQ(CaretLine("cluster_name = '\xe2\x80\xae" "ab' x"),
            Expected("cluster_name = '\\xe2\\x80\\xae" "ab' x", 15 + 3 + 12 + 2));
}

TEST(FullFormatTest, CaretSpansTheRangeInDisplayColumns) {
  EXPECT_EQ(CaretLine("work_mem = '日本'"), Expected("work_mem = '日本'", 11, 6));
  EXPECT_EQ(CaretLine("work_mem = '🎉'"), Expected("work_mem = '🎉'", 11, 4));
}

// The json format writes roots field by field (a root's settings are never
// one tree): the text is still what dump(2) prints, for every kind of root.
TEST(JsonFormatTest, RootsAreWrittenAsDumpPrintsThem) {
  OverlayFileSystem fs(nullptr, "/data");
  fs.Set("/data/postgresql.conf", "work_mem = '4MB'\ncluster_name = 'a\"b\\\\c'\n");
  AnalyzeOptions o;
  o.catalog = Catalog::ForMajor(18);
  o.fs = &fs;
  std::vector<Analysis> roots;
  roots.push_back(Analyze("/data/postgresql.conf", o));
  roots.push_back(Analyze("/data/missing.conf", o));  // a root that failed: "error", no settings
  ASSERT_NE(roots[1].failure, Analysis::Failure::kNone);
  const std::string text = Render("json", roots);
  const ordered_json j = ordered_json::parse(text);
  ASSERT_EQ(j["roots"].size(), 2u);
  EXPECT_EQ(j["roots"][0]["settings"].size(), 2u);
  EXPECT_EQ(j["roots"][0]["settings"][1]["value"], "a\"b\\c");  // the server unescapes
  EXPECT_EQ(j["roots"][1]["settings"], ordered_json::array());
  EXPECT_EQ(j["roots"][1]["error"], roots[1].failure_message);
  EXPECT_EQ(text, j.dump(2) + "\n");
  EXPECT_EQ(Render("json", {}), ordered_json::parse(Render("json", {})).dump(2) + "\n");
}

TEST(ReporterTableTest, NamesAreUniqueAndFound) {
  std::set<std::string> names;
  for (const Reporter& r : Reporters()) {
    EXPECT_TRUE(names.insert(r.name).second) << r.name;
    EXPECT_EQ(FindReporter(r.name), &r);
    EXPECT_NE(std::string(r.description), "");
  }
  EXPECT_EQ(FindReporter("sarif-please"), nullptr);
}

TEST(TextTest, EscapeControls) {
  EXPECT_EQ(EscapeControls("a\x1b[31mb\x07\tc\x7f\n"), "a\\x1b[31mb\\x07\tc\\x7f\\x0a");
  EXPECT_EQ(EscapeControls("\xc2\x9b" "\xc2\xa0" "é\xff"), "\\xc2\\x9b\xc2\xa0" "é\\xff");  // C1, not NBSP
  // What reorders or hides text, and invalid bytes; not the joiners.
  EXPECT_EQ(EscapeControls("a\xe2\x80\xae" "b\xef\xbb\xbf\xe2\x81\xa6" "c\xe2\x80\x8d" "d\xc3"),
            "a\\xe2\\x80\\xae" "b\\xef\\xbb\\xbf\\xe2\\x81\\xa6" "c\xe2\x80\x8d" "d\\xc3");
  EXPECT_EQ(DisplayLine("\ta\x01"), "    a\\x01");
}

TEST(TextTest, ConciseKeepsAFileNameWithANewlineOnOneLine) {
  AnalyzeOptions o;
  o.catalog = Catalog::ForMajor(18);
  std::string out = Render("concise", OneRoot(AnalyzeText("a\nb\x1b.conf", "work_mem = 64 MB\n", o)));
  EXPECT_EQ(out.substr(0, out.find('\n') + 1),
            "a\\x0ab\\x1b.conf:1:15: error: syntax error near token \"MB\" [PGC001]\n");
}

// What the full format shows of a line is exactly as wide as the display
// columns say, and holds no control character.
RC_GTEST_PROP(TextTest, DisplayLineIsAsWideAsItsDisplayColumns, (const std::string& ascii)) {
  // Arbitrary bytes, and the characters whose width differs from one.
  std::string s = ascii + *rc::gen::container<std::string>(rc::gen::arbitrary<char>()) +
                  *rc::gen::element<std::string>("\t", "\xc2\x85", "\xe6\x97\xa5", "\xcc\x81", "\xf0\x9f\x8e\x89",
                                                 "\x7f", "\xff", "\xed\xa0\x80");
  std::string shown = DisplayLine(s);
  RC_ASSERT(ColumnWidth(shown, ColumnUnit::kDisplay) == ColumnWidth(s, ColumnUnit::kDisplay));
  for (size_t i = 0, n = 0; i < shown.size(); i += n) {
    char32_t c = DecodeUtf8(shown, i, &n);
    RC_ASSERT(!(c < 0x20 || (c >= 0x7F && c <= 0x9F)));
  }
}

}  // namespace
}  // namespace pgconflint
