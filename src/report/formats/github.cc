// The `github` format: GitHub Actions workflow commands, which the runner
// turns into annotations on the pull request's files. GitHub shows at most
// 10 annotations per level (error, warning, notice) per step and 50 per job,
// so fatal findings come first, then errors, warnings and notices; what did
// not fit is counted, and the full text report follows in the same log, so
// that nothing is lost. Messages escape `%`, CR and LF, properties also `:`
// and `,`, as the runner requires. Columns count code points.
#include <algorithm>

#include "report/reporter.h"
#include "report/text.h"

namespace pgconflint {

void RenderFull(const std::vector<Analysis>& analyses, const ReportOptions& options, std::ostream& out);

namespace {

// Annotations GitHub shows per level in one step.
constexpr int kPerLevel = 10;

// Workflow command data: '%', CR and LF encoded.
std::string EscapeData(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '%') out += "%25";
    else if (c == '\r') out += "%0D";
    else if (c == '\n') out += "%0A";
    else out += c;
  }
  return out;
}

// Workflow command property values: also ':' and ','.
std::string EscapeProperty(std::string_view s) {
  std::string out;
  for (char c : EscapeData(s)) {
    if (c == ':') out += "%3A";
    else if (c == ',') out += "%2C";
    else out += c;
  }
  return out;
}

const char* Command(Severity s) {
  switch (s) {
    case Severity::kError: return "error";
    case Severity::kWarning: return "warning";
    case Severity::kInfo: return "notice";
  }
  return "notice";
}

struct Item {
  const Analysis* a;
  const Diagnostic* d;
};

// Fatal first, then by severity; reading order within each (stable).
std::vector<Item> Ordered(const std::vector<Analysis>& analyses) {
  std::vector<Item> items;
  for (const Analysis& a : analyses)
    for (const Diagnostic& d : a.diagnostics) items.push_back({&a, &d});
  std::stable_sort(items.begin(), items.end(), [](const Item& x, const Item& y) {
    if (x.d->fatal() != y.d->fatal()) return x.d->fatal();
    return static_cast<int>(x.d->severity()) < static_cast<int>(y.d->severity());
  });
  return items;
}

void WriteAnnotation(const Item& it, const std::string& base, std::ostream& out) {
  const Diagnostic& d = *it.d;
  Span s = SpanOf(*it.a, d.where(), ColumnUnit::kCodePoint);
  out << "::" << Command(d.severity()) << " file=" << EscapeProperty(EscapeControls(BasePath(*it.a, d.file, base)));
  if (d.file >= 0) {
    out << ",line=" << s.begin.line << ",endLine=" << s.end.line;
    // GitHub takes columns only for a range on one line.
    if (s.begin.line == s.end.line) out << ",col=" << s.begin.column << ",endColumn=" << s.end.column;
  }
  std::string message = EscapeControls(d.message);
  if (!d.help.empty()) message += "\n" + EscapeControls(d.help);
  if (std::string note = OutcomeNote(d); !note.empty()) message += "\n" + note;
  out << ",title=" << EscapeProperty(std::string(d.rule->code) + " " + d.rule->name) << "::" << EscapeData(message)
      << "\n";
}

}  // namespace

void RenderGithub(const std::vector<Analysis>& analyses, const ReportOptions& options, std::ostream& out) {
  int shown[3] = {0, 0, 0}, skipped = 0;
  for (const Item& it : Ordered(analyses)) {
    int& n = shown[static_cast<int>(it.d->severity())];
    if (n == kPerLevel) {
      ++skipped;
      continue;
    }
    ++n;
    WriteAnnotation(it, options.base_dir, out);
  }
  // A plain line, not a command: it must show even when every level is full.
  if (skipped)
    out << "pgconflint: " << skipped << " more finding" << (skipped == 1 ? " was" : "s were")
        << " not annotated (GitHub shows " << kPerLevel
        << " annotations per level in a step); every finding is listed below\n";
  ReportOptions text = options;
  text.color = false;
  RenderFull(analyses, text, out);
}

extern const Reporter kFormat_github;
const Reporter kFormat_github = {"github", "GitHub Actions annotations (::error file=...), then the full report", RenderGithub, 40};

}  // namespace pgconflint
