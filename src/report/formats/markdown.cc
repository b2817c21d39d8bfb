// The `markdown` format: a pull-request comment (also the GitHub step
// summary). Deterministic (no time, no absolute path but what messages
// quote, no ANSI), and at most kMaxMarkdown bytes, below GitHub's comment
// limit of 65,536 characters: when the full table does not fit, it gives the
// counts per rule and as many findings as fit, and says how many it left out.
#include <map>
#include <sstream>

#include "core/base/strings.h"
#include "report/reporter.h"
#include "report/text.h"

namespace pgconflint {
namespace {

std::string RuleLink(const RuleInfo& r) {
  std::string url = RuleDocUrl(r);
  std::string label = std::string(r.code) + " " + MarkdownEscape(r.name);
  return url.empty() ? label : "[" + label + "](" + url + ")";
}

std::string Row(const Analysis& a, const Diagnostic& d, const std::string& base) {
  Span s = SpanOf(a, d.where(), ColumnUnit::kCodePoint);
  std::string sev = std::string(SeverityName(d.severity())) + (d.fatal() ? " (fatal)" : "");
  std::string where = MarkdownEscape(BasePath(a, d.file, base)) + ":" + std::to_string(s.begin.line) + ":" +
                      std::to_string(s.begin.column);
  std::string text = MarkdownEscape(d.message);
  if (!d.help.empty()) text += "<br>help: " + MarkdownEscape(d.help);
  if (!SafeFixes(d).empty()) text += " [\\*]";
  return "| " + sev + " | " + RuleLink(*d.rule) + " | " + where + " | " + text + " |\n";
}

std::string ReportHeading(const std::vector<Analysis>& analyses, const ReportOptions& options) {
  Summary sum = Summarize(analyses);
  int fatal = 0;
  for (const Analysis& a : analyses) fatal += a.fatal();
  std::string h = "### pgconflint: " + Plural(sum.errors, "error") + ", " + Plural(sum.warnings, "warning") + ", " +
                  std::to_string(sum.info) + " info in " + Plural(analyses.size(), "root") + " (" +
                  VersionsText(analyses, options.pg_version) + ")\n\n";
  if (fatal) h += "**PostgreSQL would refuse to start with " + Plural(fatal, "root") + ".**\n\n";
  return h;
}

// Counts per rule, for the summary fallback.
std::string RuleCounts(const std::vector<Analysis>& analyses) {
  std::map<std::string, std::pair<const RuleInfo*, size_t>> counts;
  for (const Analysis& a : analyses)
    for (const Diagnostic& d : a.diagnostics) {
      auto& c = counts[d.rule->code];
      c.first = d.rule;
      ++c.second;
    }
  std::string t = "| rule | findings |\n|---|---|\n";
  for (const auto& [code, c] : counts) t += "| " + RuleLink(*c.first) + " | " + std::to_string(c.second) + " |\n";
  return t + "\n";
}

}  // namespace

void RenderMarkdown(const std::vector<Analysis>& analyses, const ReportOptions& options, std::ostream& out) {
  const std::string head = ReportHeading(analyses, options);
  const std::string table_head = "| severity | rule | location | finding |\n|---|---|---|---|\n";
  std::vector<std::string> rows;
  size_t size = head.size() + table_head.size(), safe = 0;
  for (const Analysis& a : analyses)
    for (const Diagnostic& d : a.diagnostics) {
      rows.push_back(Row(a, d, options.base_dir));
      size += rows.back().size();
      safe += !SafeFixes(d).empty();
    }
  const std::string fix_note =
      safe ? "\n[\\*] " + Plural(safe, "finding") + " with a safe fix: `pgconflint check --fix` applies them.\n" : "";
  if (rows.empty()) {
    out << head << "No findings.\n";
    return;
  }
  if (size + fix_note.size() <= kMaxMarkdown) {
    out << head << table_head;
    for (const std::string& r : rows) out << r;
    out << fix_note;
    return;
  }
  // Too long for one comment: the counts per rule, then what fits.
  std::string body = head + RuleCounts(analyses) + table_head;
  const std::string tail_max = "\n" + Plural(rows.size(), "more finding") + " not shown (the comment is limited to " +
                               std::to_string(kMaxMarkdown) + " characters): see the job's log or the SARIF report.\n";
  size_t shown = 0;
  while (shown < rows.size() && body.size() + rows[shown].size() + tail_max.size() + fix_note.size() <= kMaxMarkdown)
    body += rows[shown++];
  out << body << "\n" << Plural(rows.size() - shown, "more finding") << " not shown (the comment is limited to "
      << kMaxMarkdown << " characters): see the job's log or the SARIF report.\n" << fix_note;
}

extern const Reporter kFormat_markdown;
const Reporter kFormat_markdown = {"markdown", "a pull-request comment: a table of findings, at most 65,000 characters", RenderMarkdown, 110};

}  // namespace pgconflint
