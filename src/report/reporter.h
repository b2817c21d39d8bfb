// The output formats of `pgconflint check`, as one table of reporters. Each
// format is one file, src/report/formats/NAME.cc, that defines
// `const Reporter kFormat_NAME`; the build generates the table from the files
// of that directory. The CLI's `--format` choices, its help and the
// golden-file list of the tests all come from the table. Adding a format is
// one new file plus its goldens.
#ifndef PGCONFLINT_REPORT_REPORTER_H_
#define PGCONFLINT_REPORT_REPORTER_H_

#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/model/analysis.h"

namespace pgconflint {

struct ReportOptions {
  int pg_version = 0;        // the major the run was checked against (summaries, JSON)
  std::string pg_version_reason;  // why that major: "--pg-version", "PG_VERSION in DIR"... ("" = not said)
  bool summary = true;       // the text formats end with the summary line
  bool color = false;        // ANSI colours, for the formats that have them
  std::string tool_version;  // e.g. "0.1.0"
  /// Absolute directory that the CI formats' paths (SARIF's %SRCROOT%, GitLab,
  /// reviewdog) and fingerprints are relative to: the repository, usually the
  /// current directory. Empty: display paths, and absolute fingerprints.
  std::string base_dir;
  /// The commit the checked files come from, when the CI run says (SARIF's
  /// versionControlProvenance): the repository's URL, the revision and the
  /// branch or ref. Empty repository_uri: not known, nothing is written.
  struct VersionControl {
    std::string repository_uri, revision, branch;
  } version_control;
};

/// Writes the report of one `check` run (one analysis per PATH, in order) to
/// `out`, as it goes: a format that can stream does not hold the whole output.
using RenderFunction = void (*)(const std::vector<Analysis>& analyses, const ReportOptions& options,
                                std::ostream& out);

struct Reporter {
  const char* name;         // the `--format` value; the file is formats/NAME.cc
  const char* description;  // one line, for `--help` and `--list-formats`
  RenderFunction render;
  int order;                // place in `--help`; the lowest is the default format
};

/// Every format, in the order `--help` lists them; the first is the default.
std::span<const Reporter> Reporters();

/// The reporter called `name`, or null.
const Reporter* FindReporter(std::string_view name);

}  // namespace pgconflint

#endif  // PGCONFLINT_REPORT_REPORTER_H_
