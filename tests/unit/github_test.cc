// The github format: workflow commands with escaped data and properties,
// code-point columns, at most 10 annotations per level with fatal ones
// first, then the full report.
#include <gtest/gtest.h>

#include "report_fixture.h"

namespace pgconflint {
namespace {

TEST(GithubTest, AnnotationsCountCodePoints) {
  std::string out = RenderReport("github", NonAsciiReport());
  EXPECT_NE(out.find("::error file=pg/postgresql.conf,line=3,endLine=3,col=28,endColumn=33,title=PGC001 syntax-error::"),
            std::string::npos)
      << out;
  // The full report follows.
  EXPECT_NE(out.find("Found "), std::string::npos);
}

TEST(GithubTest, EscapesDataAndProperties) {
  static const RuleSet rules;
  std::vector<Analysis> v;
  // A file name with ':' and ',' and a message that quotes '%'.
  v.push_back(LintText("/repo/a:b,c.conf", "work_mem = '10%'\n", *Catalog::ForMajor(18), rules, Profile(), "/repo"));
  std::string out = RenderReport("github", v);
  EXPECT_NE(out.find("::error file=a%3Ab%2Cc.conf,line=1"), std::string::npos) << out;
  size_t cmd = out.find("::error");
  std::string line = out.substr(cmd, out.find('\n', cmd) - cmd);
  EXPECT_NE(line.find("10%25"), std::string::npos) << line;
  EXPECT_NE(line.find("%0A"), std::string::npos) << "help on its own line: " << line;
  EXPECT_EQ(line.find("10%'"), std::string::npos) << line;
}

size_t Count(const std::string& out, const std::string& command) {
  size_t n = out.rfind(command, 0) == 0, at = 0;
  while ((at = out.find("\n" + command, at)) != std::string::npos) ++n, ++at;
  return n;
}

TEST(GithubTest, TenPerLevelFatalFirstAndTheRestCounted) {
  static const RuleSet rules;
  // Twelve values in 8kB blocks without a unit (notices; one warning:
  // effective_cache_size below shared_buffers), then a fatal syntax error.
  std::string conf;
  for (const char* p : {"backend_flush_after", "bgwriter_flush_after", "checkpoint_flush_after", "effective_cache_size",
                        "min_parallel_index_scan_size", "min_parallel_table_scan_size", "wal_buffers",
                        "wal_writer_flush_after", "commit_timestamp_buffers", "notify_buffers", "serializable_buffers",
                        "subtransaction_buffers"})
    conf += std::string(p) + " = 64\n";
  conf += "work_mem = 64 MB\n";
  std::vector<Analysis> v;
  v.push_back(LintText("/repo/postgresql.conf", conf, *Catalog::ForMajor(18), rules, Profile(), "/repo"));
  std::string out = RenderReport("github", v);
  EXPECT_EQ(out.rfind("::error file=postgresql.conf,line=13", 0), 0u) << "the fatal finding comes first:\n" << out;
  EXPECT_EQ(Count(out, "::error "), 1u) << out;
  EXPECT_EQ(Count(out, "::warning "), 1u) << out;
  EXPECT_EQ(Count(out, "::notice "), 10u) << out;
  EXPECT_NE(out.find(" not annotated (GitHub shows 10 annotations per level in a step)"), std::string::npos) << out;
}

}  // namespace
}  // namespace pgconflint
