// Helpers shared by the output formats: escaping what comes from files, the
// path shown for a location, the counts of a run, and what the CI formats
// share (paths relative to the repository, positions in a unit, rule pages,
// XML text).
#ifndef PGCONFLINT_REPORT_TEXT_H_
#define PGCONFLINT_REPORT_TEXT_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "core/model/analysis.h"
#include "core/base/escape.h"
#include "core/base/source_file.h"

namespace pgconflint {

/// `shown` (a path or server name at the start of an output line) made
/// unable to start a CI workflow command: GitHub's runner reads a line whose
/// first non-blank characters are "::" (or the older "##[") as one, so such
/// a text gets "./" in front (the same path). Everything else is unchanged.
std::string LineStartSafe(std::string shown);

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

/// The path of `file` (-1: the root) relative to `base` (absolute; the
/// directory CI paths and fingerprints start from), or its display path when
/// `base` is empty or the file lies outside it.
std::string BasePath(const Analysis& analysis, int file, const std::string& base);

/// The begin and end of a location in `unit` (1-based; the end is exclusive,
/// the column just after the range). Line 1, column 1 for -1.
struct Span {
  Position begin, end;
};
Span SpanOf(const Analysis& analysis, const Location& where, ColumnUnit unit);

/// What a refusal does, as a note line ("PostgreSQL refuses to start with
/// this (fatal)"); "" for advice and skipped lines, whose message says it.
std::string OutcomeNote(const Diagnostic& d);

/// A folded finding as a note line: "also NAME (CODE): message".
std::string AlsoText(const Also& also);

/// The fixes of `d` that are safe to apply without review.
std::vector<const Fix*> SafeFixes(const Diagnostic& d);

/// The project's home page (set at build time).
std::string HomeUrl();

/// The web page of a rule: docs/rules/<name>.md of the project for a
/// built-in rule, the first http(s) reference of a user rule, else "".
std::string RuleDocUrl(const RuleInfo& rule);

/// The rules that appear in a report, in code order.
std::vector<const RuleInfo*> RulesInReport(const std::vector<Analysis>& analyses);

/// The most bytes of Markdown a report or a change summary prints: below
/// GitHub's 65,536-character limit for a comment.
constexpr size_t kMaxMarkdown = 65000;

/// Serialized JSON (valid UTF-8) with DEL and the C1 controls, which JSON
/// allows raw inside strings, written as `\u007f`..`\u009f`: the same
/// document, with no control byte a terminal or log viewer would obey.
std::string JsonWithoutRawControls(std::string_view json);

/// The last line of the text formats: "Found 1 error, 2 warnings, 0 info in 1
/// root (PostgreSQL 17, from PG_VERSION in /srv/pg)", and which roots
/// PostgreSQL would refuse to start with or could not be read at all.
std::string SummaryLine(const std::vector<Analysis>& analyses, int pg_version, const std::string& reason);

/// The majors the analyses were checked against: "PostgreSQL 18" (with
/// `reason`, how pg_version was chosen, when it is theirs) or, for a fleet of
/// several, "PostgreSQL 14, 17 and 18".
std::string VersionsText(const std::vector<Analysis>& analyses, int pg_version, const std::string& reason = "");

}  // namespace pgconflint

#endif  // PGCONFLINT_REPORT_TEXT_H_
