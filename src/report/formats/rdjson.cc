// The `rdjson` format: reviewdog's diagnostic format (a DiagnosticResult
// document; `rdjsonl` in rdjsonl.cc writes one Diagnostic per line), which reviewdog
// posts as review comments with suggested changes. Columns count UTF-8 bytes
// as reviewdog's Position requires; ranges end exclusively; safe fixes become
// `suggestions`; notes become `related_locations`.
#include <nlohmann/json.hpp>

#include "report/rdjson.h"
#include "report/reporter.h"
#include "report/text.h"

namespace pgconflint {
namespace {

using ordered_json = nlohmann::ordered_json;

const char* RdSeverity(Severity s) {
  switch (s) {
    case Severity::kError: return "ERROR";
    case Severity::kWarning: return "WARNING";
    case Severity::kInfo: return "INFO";
  }
  return "UNKNOWN_SEVERITY";
}

ordered_json RangeJson(const Analysis& a, const Location& where) {
  Span s = SpanOf(a, where, ColumnUnit::kUtf8);
  return {{"start", {{"line", s.begin.line}, {"column", s.begin.column}}},
          {"end", {{"line", s.end.line}, {"column", s.end.column}}}};
}

ordered_json LocationJson(const Analysis& a, const Location& where, const std::string& base) {
  ordered_json j = {{"path", ValidUtf8(BasePath(a, where.file, base))}};
  if (where.file >= 0) j["range"] = RangeJson(a, where);
  return j;
}

}  // namespace

nlohmann::ordered_json RdjsonDiagnostic(const Analysis& a, const Diagnostic& d, const std::string& base) {
  ordered_json j;
  std::string message = EscapeControls(d.message);
  if (!d.help.empty()) message += "\n" + EscapeControls(d.help);
  j["message"] = ValidUtf8(message);
  j["location"] = LocationJson(a, d.where(), base);
  j["severity"] = RdSeverity(d.severity());
  j["source"] = {{"name", "pgconflint"}, {"url", HomeUrl()}};
  ordered_json code = {{"value", d.rule->code}};
  std::string url = RuleDocUrl(*d.rule);
  if (!url.empty()) code["url"] = url;
  j["code"] = std::move(code);
  ordered_json suggestions = ordered_json::array();
  for (const Fix* f : SafeFixes(d))
    for (const Edit& e : f->edits)
      if (e.where.file == d.file) suggestions.push_back({{"range", RangeJson(a, e.where)}, {"text", ValidUtf8(e.text)}});
  if (!suggestions.empty()) j["suggestions"] = std::move(suggestions);
  ordered_json related = ordered_json::array();
  for (const Note& n : d.notes)
    if (n.where.file >= 0)
      related.push_back({{"message", ValidUtf8(EscapeControls(n.message))}, {"location", LocationJson(a, n.where, base)}});
  if (!related.empty()) j["related_locations"] = std::move(related);
  return j;
}

void RenderRdjson(const std::vector<Analysis>& analyses, const ReportOptions& options, std::ostream& out) {
  ordered_json diagnostics = ordered_json::array();
  for (const Analysis& a : analyses)
    for (const Diagnostic& d : a.diagnostics) diagnostics.push_back(RdjsonDiagnostic(a, d, options.base_dir));
  ordered_json doc = {{"source", {{"name", "pgconflint"}, {"url", HomeUrl()}}}, {"diagnostics", std::move(diagnostics)}};
  out << JsonWithoutRawControls(doc.dump(2, ' ', false, kRdjsonReplace)) << "\n";
}

extern const Reporter kFormat_rdjson;
const Reporter kFormat_rdjson = {"rdjson", "reviewdog diagnostic format, one document (columns in UTF-8 bytes)", RenderRdjson, 70};

}  // namespace pgconflint
