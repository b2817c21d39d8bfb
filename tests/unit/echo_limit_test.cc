// Abridging what outputs echo: a long text keeps its start and end and says
// how much is left out; a long source line is shown as a window around the
// finding, its caret still under the range.
#include "core/model/echo_limit.h"

#include <gtest/gtest.h>

#include <sstream>

#include "core/conf/analyze.h"
#include "core/base/limits.h"
#include "report/reporter.h"

namespace pgconflint {
namespace {

TEST(EchoLimitTest, ShortTextsStayAsTheyAre) {
  EXPECT_EQ(Abridged("work_mem"), "work_mem");
  const std::string exact(kMaxEchoBytes, 'x');
  EXPECT_EQ(Abridged(exact), exact);
}

TEST(EchoLimitTest, LongTextsKeepStartAndEnd) {
  const std::string text = "start" + std::string(1 << 20, 'x') + "end";
  const std::string a = Abridged(text);
  EXPECT_LE(a.size(), kMaxEchoBytes);
  EXPECT_EQ(a.substr(0, 5), "start");
  EXPECT_EQ(a.substr(a.size() - 3), "end");
  ASSERT_NE(a.find(" bytes not shown] ... "), std::string::npos) << a;
  // The count is what is missing: shown + missing = the whole.
  const size_t open = a.find(" ... [") + 6;
  const size_t missing = std::stoul(a.substr(open));
  const std::string marker = " ... [" + std::to_string(missing) + " bytes not shown] ... ";
  EXPECT_EQ(a.size() - marker.size() + missing, text.size());
}

TEST(EchoLimitTest, CutsFallBetweenCodePoints) {
  std::string text;
  while (text.size() < 4 * kMaxEchoBytes) text += "\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80";  // é € 😀
  const std::string a = Abridged(text);
  // Every multi-byte sequence is whole: decoding never meets a stray byte.
  for (size_t i = 0; i < a.size();) {
    size_t n = 1;
    EXPECT_NE(DecodeUtf8(a, i, &n), 0xFFFDu) << "at " << i;
    i += n;
  }
}

TEST(EchoLimitTest, WindowsKeepTheRangeInView) {
  const std::string line(100000, 'a');
  EchoWindow w = WindowAround(line, 50000, 50010);
  EXPECT_LE(w.begin, 50000u);
  EXPECT_GE(w.end, 50010u);
  EXPECT_LE(w.end - w.begin, kMaxEchoBytes);
  w = WindowAround(line, 99990, 100000);  // at the end: a full window
  EXPECT_EQ(w.end, line.size());
  EXPECT_EQ(w.end - w.begin, kMaxEchoBytes);
  w = WindowAround("short", 1, 2);
  EXPECT_EQ(w.begin, 0u);
  EXPECT_EQ(w.end, 5u);
}

TEST(EchoLimitTest, TheFullFormatShowsAWindowWithItsCaret) {
  OverlayFileSystem fs(nullptr, "/d");
  const std::string filler(200000, 'y');
  fs.Set("/d/postgresql.conf", "cluster_name = '" + filler + "' bogus\n");
  AnalyzeOptions o;
  o.catalog = Catalog::ForMajor(18);
  o.fs = &fs;
  o.display_base = "/d";
  std::vector<Analysis> analyses;
  analyses.push_back(Analyze("postgresql.conf", o));
  ASSERT_FALSE(analyses[0].diagnostics.empty());
  AbridgeEchoes(&analyses[0]);
  ReportOptions ro;
  std::ostringstream out;
  FindReporter("full")->render(analyses, ro, out);
  const std::string text = out.str();
  EXPECT_LT(text.size(), 8 * kMaxEchoBytes) << text.size();
  // The source line: "1 | ...yyy' bogus", the caret under "bogus".
  const size_t line = text.find("1 | ...");
  ASSERT_NE(line, std::string::npos) << text.substr(0, 2000);
  const size_t line_end = text.find('\n', line);
  const std::string source = text.substr(line, line_end - line);
  const std::string carets = text.substr(line_end + 1, text.find('\n', line_end + 1) - line_end - 1);
  EXPECT_EQ(source.substr(source.size() - 5), "bogus");
  EXPECT_EQ(carets.find('^'), source.size() - 5) << carets;
}

}  // namespace
}  // namespace pgconflint
