// Helpers shared by the output formats: escaping what comes from files, the
// path shown for a location, and the counts of a run.
#ifndef PGCONFLINT_REPORT_TEXT_H_
#define PGCONFLINT_REPORT_TEXT_H_

#include <string>
#include <string_view>
#include <vector>

#include "core/analysis.h"

namespace pgconflint {

/// `s` with every control character (C0 but tab, DEL, C1) written as the
/// `\xNN` escapes of its UTF-8 bytes (ESC -> `\x1b`, U+0085 -> `\xc2\x85`),
/// so that file contents and file names can neither drive the terminal nor
/// split an output line. Everything else, invalid UTF-8 bytes included, is
/// copied. Every text output passes file-derived text through this.
std::string EscapeControls(std::string_view s);

/// One source line as the full format shows it: tabs as 4 spaces, control
/// characters escaped. Its width is ColumnWidth(s, ColumnUnit::kDisplay).
std::string DisplayLine(std::string_view s);

/// The display path of `file` in `analysis` (an index into its files), or
/// the root as given for -1.
const std::string& FilePath(const Analysis& analysis, int file);

/// Counts per severity over all analyses.
struct Summary {
  int errors = 0;
  int warnings = 0;
  int info = 0;
};
Summary Summarize(const std::vector<Analysis>& analyses);

/// The last line of the text formats: "Found 1 error, 2 warnings, 0 info in 1
/// root (PostgreSQL 17, from PG_VERSION in /srv/pg)", and which roots
/// PostgreSQL would refuse to start with or could not be read at all.
std::string SummaryLine(const std::vector<Analysis>& analyses, int pg_version, const std::string& reason);

}  // namespace pgconflint

#endif  // PGCONFLINT_REPORT_TEXT_H_
