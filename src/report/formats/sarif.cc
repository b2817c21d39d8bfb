// The `sarif` format: SARIF 2.1.0 for code scanning (GitHub, Azure DevOps,
// any SARIF viewer). One run; the rules that appear, with their pages; each
// result with a location relative to %SRCROOT% (the report's base directory),
// columns in code points (declared in the run's columnKind), fingerprints
// that survive moved lines, the diagnostic's notes as related locations and
// its safe fixes as SARIF fixes. Held to the SARIF multitool's `Sarif;Gh`
// rules and the 2.1.0 schema by tests/integration/test_ci_formats.py.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>

#include "core/model/fingerprint.h"
#include "core/base/limits.h"
#include "core/base/uri.h"
#include "report/reporter.h"
#include "report/text.h"

namespace pgconflint {
namespace {

using ordered_json = nlohmann::ordered_json;

constexpr ColumnUnit kUnit = ColumnUnit::kCodePoint;

// SARIF asks for messages that are sentences. Text from configuration files
// has its control characters escaped; the rules' own documentation keeps its
// line breaks (`from_file` false).
std::string Sentence(const std::string& s, bool from_file = true) {
  std::string out = from_file ? ValidUtf8(EscapeControls(s)) : ValidUtf8(s);
  if (!out.empty() && out.back() != '.' && out.back() != '?' && out.back() != '!') out += '.';
  return out;
}

// "invalid-value" -> "InvalidValue": SARIF's friendly names are Pascal case.
std::string PascalName(const char* kebab) {
  std::string out;
  bool up = true;
  for (const char* c = kebab; *c; ++c) {
    if (*c == '-' || *c == '_') {
      up = true;
      continue;
    }
    out += up ? static_cast<char>(toupper(static_cast<unsigned char>(*c))) : *c;
    up = false;
  }
  return out;
}

const char* Level(Severity s) {
  switch (s) {
    case Severity::kError: return "error";
    case Severity::kWarning: return "warning";
    case Severity::kInfo: return "note";
  }
  return "none";
}

ordered_json RuleJson(const RuleInfo& r) {
  std::string why = ValidUtf8(r.why);
  while (!why.empty() && (why.back() == '\n' || why.back() == ' ')) why.pop_back();
  std::string text = Sentence(r.summary, false) + (r.fix[0] ? " " + Sentence(r.fix, false) : "");
  std::string md = "**" + std::string(r.summary) + "**\n\n" + why + (r.fix[0] ? "\n\n" + ValidUtf8(r.fix) : "");
  ordered_json j;
  j["id"] = r.code;
  j["name"] = PascalName(r.name);
  j["shortDescription"] = {{"text", Sentence(r.summary, false)}};
  j["fullDescription"] = {{"text", Sentence(why.empty() ? r.summary : why, false)}};
  j["help"] = {{"text", text}, {"markdown", md}};
  std::string url = RuleDocUrl(r);
  if (!url.empty()) j["helpUri"] = url;
  // A complete sentence with its placeholder quoted (the multitool's SARIF2001
  // and SARIF2015); results carry their full text too (ResultJson).
  j["messageStrings"] = {{"default", {{"text", "'{0}'."}}}};
  j["defaultConfiguration"] = {{"level", Level(r.severity)}};
  j["properties"] = {{"tags", {r.category, r.name}}, {"precision", "very-high"}};
  return j;
}

ordered_json Region(const Analysis& a, const Location& where) {
  Span s = SpanOf(a, where, kUnit);
  return {{"startLine", s.begin.line},
          {"startColumn", s.begin.column},
          {"endLine", s.end.line},
          {"endColumn", s.end.column}};
}

// The region with the text it covers, and the whole lines around it.
// A snippet is the exact text of its region, so one longer than
// kMaxEchoBytes (core/base/limits.h) is left out rather than cut.
void AddSnippets(const Analysis& a, const Location& where, ordered_json* physical) {
  const SourceFile& src = a.files[where.file].source;
  if (where.range.end - where.range.begin <= kMaxEchoBytes)
    (*physical)["region"]["snippet"] = {{"text", ValidUtf8(src.Slice(where.range))}};
  uint32_t first = src.LineOf(where.range.begin);
  uint32_t last = std::max(first, src.LineOf(where.range.end > where.range.begin ? where.range.end - 1 : where.range.begin));
  std::string lines;
  for (uint32_t l = first; l <= last; ++l) {
    if (lines.size() + src.LineText(l).size() > kMaxEchoBytes) return;
    lines += std::string(src.LineText(l)) + (l < last ? "\n" : "");
  }
  (*physical)["contextRegion"] = {{"startLine", first}, {"endLine", last}, {"snippet", {{"text", ValidUtf8(lines)}}}};
}

// Relative to %SRCROOT% when the file is below the base directory; an
// absolute file URI otherwise.
ordered_json ArtifactLocation(const Analysis& a, int file, const std::string& base) {
  // Outside the base, BasePath falls back to the display path, which is not
  // relative to %SRCROOT%: the absolute path then.
  std::string path = file >= 0 && !base.empty() ? PathBelow(a.files[file].abs_path, base) : BasePath(a, file, base);
  if (!path.empty() && path[0] == '/') return {{"uri", "file://" + PercentEncodePath(path)}};
  ordered_json loc = {{"uri", PercentEncodePath(path)}};
  if (!base.empty()) loc["uriBaseId"] = "%SRCROOT%";
  return loc;
}

ordered_json PhysicalLocation(const Analysis& a, const Location& where, const std::string& base) {
  ordered_json p = {{"artifactLocation", ArtifactLocation(a, where.file, base)}};
  p["region"] = where.file >= 0 ? Region(a, where) : ordered_json{{"startLine", 1}};
  if (where.file >= 0) AddSnippets(a, where, &p);
  return p;
}

ordered_json FixJson(const Analysis& a, const Fix& f, const std::string& base) {
  // One artifactChange per file, in the order the edits name them.
  std::map<int, ordered_json> replacements;
  std::vector<int> order;
  for (const Edit& e : f.edits) {
    if (e.where.file < 0) continue;
    if (!replacements.count(e.where.file)) order.push_back(e.where.file);
    replacements[e.where.file].push_back(
        {{"deletedRegion", Region(a, e.where)}, {"insertedContent", {{"text", ValidUtf8(e.text)}}}});
  }
  ordered_json changes = ordered_json::array();
  for (int file : order)
    changes.push_back({{"artifactLocation", ArtifactLocation(a, file, base)}, {"replacements", replacements[file]}});
  return {{"description", {{"text", Sentence(f.title)}}}, {"artifactChanges", std::move(changes)}};
}

ordered_json ResultJson(const Analysis& a, const Diagnostic& d, int rule_index, const std::string& fingerprint,
                        const std::string& base) {
  ordered_json r;
  r["ruleId"] = d.rule->code;
  r["ruleIndex"] = rule_index;
  r["level"] = Level(d.severity());
  // The full text for viewers that show only it (GitHub), and the rule's
  // "default" message string with the text as its argument for the others.
  std::string text = Sentence(d.message) + (d.help.empty() ? "" : " " + Sentence(d.help));
  r["message"] = {{"text", text}, {"id", "default"}, {"arguments", {text}}};
  r["locations"] = {{{"physicalLocation", PhysicalLocation(a, d.where(), base)}}};
  r["partialFingerprints"] = {{"pgconflint/v1", fingerprint}};
  ordered_json related = ordered_json::array();
  int id = 1;
  for (const Note& n : d.notes) {
    if (n.where.file < 0) continue;
    related.push_back({{"id", id++},
                       {"physicalLocation", PhysicalLocation(a, n.where, base)},
                       {"message", {{"text", Sentence(n.message)}}}});
  }
  // A folded finding stands at the same place: its rule and message as a
  // related location, and as data in the properties.
  ordered_json also = ordered_json::array();
  for (const Also& x : d.also) {
    related.push_back({{"id", id++},
                       {"physicalLocation", PhysicalLocation(a, d.where(), base)},
                       {"message", {{"text", Sentence(AlsoText(x))}}}});
    also.push_back({{"ruleId", x.rule->code}, {"name", x.rule->name}, {"message", ValidUtf8(x.message)}});
  }
  if (!related.empty()) r["relatedLocations"] = std::move(related);
  ordered_json fixes = ordered_json::array();
  for (const Fix* f : SafeFixes(d)) fixes.push_back(FixJson(a, *f, base));
  if (!fixes.empty()) r["fixes"] = std::move(fixes);
  ordered_json props = {{"fatal", d.fatal()}, {"outcome", OutcomeName(d.outcome)}, {"root", ValidUtf8(a.root)}};
  if (!also.empty()) props["also"] = std::move(also);
  if (!d.parameter.empty()) props["parameter"] = ValidUtf8(d.parameter);
  r["properties"] = std::move(props);
  return r;
}

}  // namespace

void RenderSarif(const std::vector<Analysis>& analyses, const ReportOptions& options, std::ostream& out) {
  std::vector<const RuleInfo*> rules = RulesInReport(analyses);
  std::map<const RuleInfo*, int> index;
  ordered_json rules_json = ordered_json::array();
  for (const RuleInfo* r : rules) {
    index[r] = static_cast<int>(rules_json.size());
    rules_json.push_back(RuleJson(*r));
  }
  ordered_json driver = {{"name", "pgconflint"},
                         {"version", options.tool_version},
                         {"semanticVersion", options.tool_version},
                         {"informationUri", HomeUrl()},
                         {"rules", std::move(rules_json)}};
  std::vector<std::vector<std::string>> fingerprints = ReportFingerprints(analyses, options.base_dir);
  ordered_json results = ordered_json::array();
  for (size_t i = 0; i < analyses.size(); ++i)
    for (size_t k = 0; k < analyses[i].diagnostics.size(); ++k) {
      const Diagnostic& d = analyses[i].diagnostics[k];
      results.push_back(ResultJson(analyses[i], d, index[d.rule], fingerprints[i][k], options.base_dir));
    }
  ordered_json run = {{"tool", {{"driver", std::move(driver)}}}};
  if (!options.base_dir.empty()) {
    std::string root = options.base_dir.back() == '/' ? options.base_dir : options.base_dir + "/";
    run["originalUriBaseIds"] = {{"%SRCROOT%", {{"uri", "file://" + PercentEncodePath(root)}}}};
  }
  if (const ReportOptions::VersionControl& vc = options.version_control; !vc.repository_uri.empty()) {
    ordered_json provenance = {{"repositoryUri", vc.repository_uri}};
    if (!vc.revision.empty()) provenance["revisionId"] = vc.revision;
    if (!vc.branch.empty()) provenance["branch"] = vc.branch;
    if (!options.base_dir.empty()) provenance["mappedTo"] = {{"uriBaseId", "%SRCROOT%"}};
    run["versionControlProvenance"] = ordered_json::array({std::move(provenance)});
  }
  run["columnKind"] = "unicodeCodePoints";
  run["results"] = std::move(results);
  ordered_json doc = {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
                      {"version", "2.1.0"},
                      {"runs", {std::move(run)}}};
  // Snippets quote the source as it is: DEL and C1 controls become \u escapes.
  out << JsonWithoutRawControls(doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace)) << "\n";
}

extern const Reporter kFormat_sarif;
const Reporter kFormat_sarif = {"sarif", "SARIF 2.1.0 for code scanning, with rules, fingerprints and fixes", RenderSarif, 50};

}  // namespace pgconflint
