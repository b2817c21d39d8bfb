// The `gitlab` format: a GitLab Code Quality report (a JSON array of Code
// Climate issues), shown in merge requests. Each issue has the fields GitLab
// requires: description (prefixed with the code), check_name, a fingerprint
// unique within the report and stable when lines move (core/model/fingerprint.h),
// severity (info, minor, major, critical, blocker) and location.path relative
// to the project with lines.begin.
#include <nlohmann/json.hpp>

#include "core/model/fingerprint.h"
#include "report/reporter.h"
#include "report/text.h"

namespace pgconflint {
namespace {

using ordered_json = nlohmann::ordered_json;

// A finding PostgreSQL refuses to start with blocks; otherwise by severity.
const char* GitlabSeverity(const Diagnostic& d) {
  if (d.fatal()) return "blocker";
  switch (d.severity()) {
    case Severity::kError: return "critical";
    case Severity::kWarning: return "major";
    case Severity::kInfo: return "info";
  }
  return "info";
}

ordered_json Issue(const Analysis& a, const Diagnostic& d, const std::string& fingerprint, const std::string& base) {
  Span s = SpanOf(a, d.where(), ColumnUnit::kCodePoint);
  ordered_json j;
  j["type"] = "issue";
  j["description"] = ValidUtf8(std::string(d.rule->code) + " " + d.rule->name + ": " + EscapeControls(d.message));
  j["check_name"] = d.rule->code;
  j["fingerprint"] = fingerprint;
  j["severity"] = GitlabSeverity(d);
  j["location"] = {{"path", ValidUtf8(BasePath(a, d.file, base))}, {"lines", {{"begin", s.begin.line}, {"end", s.end.line}}}};
  j["categories"] = {d.rule->category == std::string_view("security") ? "Security" : "Bug Risk"};
  std::string body = EscapeControls(d.help);
  std::string url = RuleDocUrl(*d.rule);
  if (!url.empty()) body += (body.empty() ? "" : "\n\n") + url;
  if (!body.empty()) j["content"] = {{"body", ValidUtf8(body)}};
  j["engine_name"] = "pgconflint";
  return j;
}

}  // namespace

void RenderGitlab(const std::vector<Analysis>& analyses, const ReportOptions& options, std::ostream& out) {
  std::vector<std::vector<std::string>> fingerprints = ReportFingerprints(analyses, options.base_dir);
  ordered_json issues = ordered_json::array();
  for (size_t i = 0; i < analyses.size(); ++i)
    for (size_t k = 0; k < analyses[i].diagnostics.size(); ++k)
      issues.push_back(Issue(analyses[i], analyses[i].diagnostics[k], fingerprints[i][k], options.base_dir));
  out << issues.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
}

extern const Reporter kFormat_gitlab;
const Reporter kFormat_gitlab = {"gitlab", "GitLab Code Quality report (JSON)", RenderGitlab, 60};

}  // namespace pgconflint
