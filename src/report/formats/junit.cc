// The `junit` format: JUnit XML, which most CI systems (GitLab, Jenkins,
// Azure Pipelines, CircleCI) show as a test report. One test suite per root;
// one failed test case per finding (classname the file, name the rule and
// position); a root without findings has one passing test case, so that the
// report counts what was checked. Columns count code points.
#include "report/reporter.h"
#include "report/text.h"

namespace pgconflint {
namespace {

void WriteCase(const Analysis& a, const Diagnostic& d, const std::string& base, std::ostream& out) {
  Span s = SpanOf(a, d.where(), ColumnUnit::kCodePoint);
  std::string path = BasePath(a, d.file, base);
  std::string where = path + ":" + std::to_string(s.begin.line) + ":" + std::to_string(s.begin.column);
  out << "    <testcase classname=\"" << XmlEscape(path) << "\" name=\"" << d.rule->code << " " << d.rule->name
      << " at " << XmlEscape(where) << "\">\n"
      << "      <failure type=\"" << SeverityName(d.severity()) << "\" message=\"" << XmlEscape(d.message) << "\">"
      << XmlEscape(where) << ": " << SeverityName(d.severity()) << ": " << XmlEscape(d.message) << " [" << d.rule->code
      << "]";
  if (!d.help.empty()) out << "\nhelp: " << XmlEscape(d.help);
  for (const Note& n : d.notes) out << "\nnote: " << XmlEscape(n.message);
  for (const Also& also : d.also) out << "\nnote: " << XmlEscape(AlsoText(also));
  if (std::string note = OutcomeNote(d); !note.empty()) out << "\n" << note;
  out << "</failure>\n    </testcase>\n";
}

}  // namespace

void RenderJunit(const std::vector<Analysis>& analyses, const ReportOptions& options, std::ostream& out) {
  size_t total = 0, cases = 0;
  for (const Analysis& a : analyses) {
    total += a.diagnostics.size();
    cases += a.diagnostics.empty() ? 1 : a.diagnostics.size();
  }
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<testsuites name=\"pgconflint\" tests=\"" << cases << "\" failures=\"" << total << "\" errors=\"0\">\n";
  for (const Analysis& a : analyses) {
    size_t n = a.diagnostics.size();
    out << "  <testsuite name=\"" << XmlEscape(a.root) << "\" tests=\"" << (n ? n : 1) << "\" failures=\"" << n
        << "\" errors=\"0\" skipped=\"0\">\n";
    if (!n)
      out << "    <testcase classname=\"" << XmlEscape(BasePath(a, a.files.empty() ? -1 : 0, options.base_dir))
          << "\" name=\"pgconflint\"/>\n";
    for (const Diagnostic& d : a.diagnostics) WriteCase(a, d, options.base_dir, out);
    out << "  </testsuite>\n";
  }
  out << "</testsuites>\n";
}

extern const Reporter kFormat_junit;
const Reporter kFormat_junit = {"junit", "JUnit XML: one test case per finding", RenderJunit, 90};

}  // namespace pgconflint
