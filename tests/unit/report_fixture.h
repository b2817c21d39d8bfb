// The report tests' input: the non-ASCII golden fixture
// (tests/fixtures/golden/non-ascii/postgresql.conf), analysed in memory
// below /repo, so that each CI format's columns can be checked in its own
// unit. Line 3 is `application_name = 'été 🚀' extra`: "extra" starts at
// code point column 28, UTF-16 column 29 and byte column 33.
#ifndef PGCONFLINT_TESTS_UNIT_REPORT_FIXTURE_H_
#define PGCONFLINT_TESTS_UNIT_REPORT_FIXTURE_H_

#include <sstream>
#include <string>
#include <vector>

#include "core/conf/analyze.h"
#include "core/workspace/workspace.h"
#include "report/reporter.h"

namespace pgconflint {

inline constexpr char kNonAsciiConf[] =
    "# Paramètres réglés à la main 🐘\n"
    "cluster_name = 'café 🐘'\n"
    "application_name = 'été 🚀' extra\n"
    "work_mem = 64                # é 🐘 in a trailing comment\n";

/// The fixture linted as /repo/pg/postgresql.conf (shown as pg/postgresql.conf).
inline std::vector<Analysis> NonAsciiReport() {
  static const RuleSet rules;
  std::vector<Analysis> v;
  v.push_back(LintText("/repo/pg/postgresql.conf", kNonAsciiConf, *Catalog::ForMajor(18), rules, Profile(), "/repo"));
  return v;
}

/// `format`'s output for `analyses`, paths relative to /repo.
inline std::string RenderReport(const char* format, const std::vector<Analysis>& analyses,
                                const std::string& base = "/repo") {
  ReportOptions options;
  options.pg_version = 18;
  options.tool_version = "X";
  options.base_dir = base;
  std::ostringstream out;
  FindReporter(format)->render(analyses, options, out);
  return out.str();
}

}  // namespace pgconflint

#endif  // PGCONFLINT_TESTS_UNIT_REPORT_FIXTURE_H_
