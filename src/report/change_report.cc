// The configuration plan of a change, in text, markdown and JSON.
#include "report/change_report.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <sstream>

#include "core/base/quantity.h"
#include "core/model/fingerprint.h"
#include "report/text.h"

namespace pgconflint {
namespace {

using ordered_json = nlohmann::ordered_json;

constexpr double kMiB = 1024.0 * 1024.0;

std::string Bytes(double b) { return ExprValue::Number(b, Dim::kBytes).Display(); }

// "conf.d/10-memory.conf:3" for a location in `a`; "" for none.
std::string Where(const Analysis* a, const Location& where, const std::string& base) {
  if (!a || where.file < 0) return "";
  return EscapeControls(BasePath(*a, where.file, base)) + ":" +
         std::to_string(a->files[where.file].source.LineOf(where.range.begin));
}

std::string Before(const ValueChange& c) {
  std::string s = EscapeControls(c.before) + (c.before_default ? " (default)" : "");
  if (!c.before_effective.empty()) s += " (effective " + c.before_effective + ")";
  return s;
}

std::string After(const ValueChange& c) {
  if (!c.refused.empty()) return "refused: " + EscapeControls(c.refused) + " (the server keeps " + Before(c) + ")";
  std::string s = EscapeControls(c.after) + (c.after_default ? " (default)" : "");
  if (!c.after_effective.empty()) s += " (effective " + c.after_effective + ")";
  return s;
}

std::string FindingLine(const FindingRef& f, const std::string& base) {
  const Diagnostic& d = *f.diagnostic;
  Span s = SpanOf(*f.analysis, d.where(), ColumnUnit::kCodePoint);
  return std::string(SeverityName(d.severity())) + "[" + d.rule->code + "] " +
         EscapeControls(BasePath(*f.analysis, d.file, base)) + ":" + std::to_string(s.begin.line) + ":" +
         std::to_string(s.begin.column) + ": " + EscapeControls(d.message);
}

// Why a root's plan has no rollout, and what a reload or a restart does meanwhile.
constexpr const char* kBlocked =
    "PostgreSQL would refuse to start with this revision: fix the findings below first. Until then a reload "
    "applies the other lines and leaves each refused one at its running value, and a restart fails.";

// The cluster a SQL script runs against, relative to the revision's directory; "" for none.
std::string ClusterOf(const RootChange& r, const ChangeReportOptions& opt) {
  return r.after && !r.after->cluster.empty() ? PathBelow(r.after->cluster, opt.base_after) : "";
}

std::string RootHeading(const RootChange& r, const ChangeReportOptions& opt) {
  const std::string cluster = ClusterOf(r, opt);
  return EscapeControls(r.root) + (r.added ? " (new root" : r.removed ? " (removed root" : "") +
         (cluster.empty() ? "" : std::string(r.added ? ", " : " (") + "run against " + EscapeControls(cluster)) +
         (r.added || r.removed || !cluster.empty() ? ")" : "");
}

// --- text ---------------------------------------------------------------------

std::string Bar(double part, double ram) {
  int n = ram > 0 ? static_cast<int>(std::lround(40.0 * std::max(0.0, part) / ram)) : 0;
  return std::string(std::min(n, 60), '#');
}

void TextMemory(const char* label, const MemoryPicture& m, std::ostream& o) {
  o << "  " << label << ": worst case " << Bytes(m.total()) << " of " << Bytes(m.ram) << " RAM, "
    << (m.free() >= 0 ? Bytes(m.free()) + " to spare after the OS headroom" : "over budget by " + Bytes(-m.free()))
    << "\n";
  const std::pair<const char*, double> parts[] = {{"shared_buffers + wal_buffers", m.shared},
                                                  {"work_mem x connections x nodes", m.work},
                                                  {"parallel workers", m.parallel},
                                                  {"maintenance + autovacuum", m.maintenance},
                                                  {"OS headroom", m.headroom}};
  for (const auto& [name, v] : parts) {
    std::string padded = name;
    padded.resize(32, ' ');
    o << "    " << padded << Bytes(v) << std::string(10 - std::min<size_t>(9, Bytes(v).size()), ' ') << Bar(v, m.ram)
      << "\n";
  }
}

void RenderText(const std::vector<RootChange>& roots, const ChangeReportOptions& opt, std::ostream& o) {
  o << "Configuration plan of " << EscapeControls(opt.base_label) << " -> " << EscapeControls(opt.head_label) << " ("
    << roots.size() << (roots.size() == 1 ? " root" : " roots") << ")\n";
  if (roots.empty()) o << "\nNo root is touched by the change.\n";
  for (const RootChange& r : roots) {
    o << "\n== " << RootHeading(r, opt) << "\n";
    if (!r.values.empty()) o << "Parameters that change:\n";
    for (const ValueChange& c : r.values)
      o << "  " << c.param->name << ": " << Before(c) << " -> " << After(c) << "  [" << c.applies << "]"
        << (c.where.file >= 0 ? "  " + Where(r.after, c.where, opt.base_after) : "") << "\n";
    if (r.values.empty() && !r.removed) o << "No parameter changes its value.\n";
    for (const IneffectiveChange& c : r.ineffective)
      o << "  no effect: " << Where(r.after, c.where, opt.base_after) << ": " << c.parameter << " = "
        << EscapeControls(c.written) << " is overridden by " << Where(r.after, c.winner, opt.base_after) << "\n";
    o << "Findings: " << r.introduced.size() << " introduced, " << r.fixed.size() << " fixed, " << r.changed.size()
      << " changed, " << r.unchanged.size() << " unchanged\n";
    for (const FindingRef& f : r.introduced) o << "  + " << FindingLine(f, opt.base_after) << "\n";
    for (const FindingRef& f : r.fixed) o << "  - " << FindingLine(f, opt.base_before) << "\n";
    for (const auto& [was, now] : r.changed)
      o << "  ~ " << FindingLine(now, opt.base_after) << "\n      was: " << EscapeControls(was.diagnostic->message)
        << "\n";
    if (!r.blocking.empty()) {
      o << "Rollout: blocked. " << kBlocked << "\n";
      for (const FindingRef& f : r.blocking) o << "  ! " << FindingLine(f, opt.base_after) << "\n";
    } else if (!r.rollout.empty()) {
      o << "Rollout:\n";
      WriteRollout(r.rollout, r.major, r.source, {}, o);
    }
    if (r.memory_after) {
      o << "Memory budget:\n";
      if (r.memory_before) TextMemory("before", *r.memory_before, o);
      TextMemory("after", *r.memory_after, o);
    }
  }
}

// --- markdown -------------------------------------------------------------------

void MermaidPie(const char* label, const MemoryPicture& m, std::ostream& o) {
  o << "```mermaid\npie showData title " << label << ": " << Bytes(m.total()) << " of " << Bytes(m.ram) << " RAM"
    << (m.free() < 0 ? " (over budget by " + Bytes(-m.free()) + ")" : "") << "\n";
  const std::pair<const char*, double> parts[] = {{"shared_buffers + wal_buffers", m.shared},
                                                  {"work_mem x connections x nodes", m.work},
                                                  {"parallel workers", m.parallel},
                                                  {"maintenance + autovacuum", m.maintenance},
                                                  {"OS headroom", m.headroom},
                                                  {"free", m.free()}};
  for (const auto& [name, v] : parts)
    if (v > 0) o << "    \"" << name << " (MiB)\" : " << std::lround(v / kMiB) << "\n";
  o << "```\n\n";
}

void MarkdownMemory(const RootChange& r, std::ostream& o) {
  o << "#### Memory budget (worst case)\n\n";
  if (r.memory_before) MermaidPie("Before", *r.memory_before, o);
  MermaidPie("After", *r.memory_after, o);
  const MemoryPicture empty;
  const MemoryPicture& b = r.memory_before ? *r.memory_before : empty;
  const MemoryPicture& a = *r.memory_after;
  o << "| part | before | after |\n|---|---|---|\n";
  const std::tuple<const char*, double, double> rows[] = {
      {"shared_buffers + wal_buffers", b.shared, a.shared},
      {"work_mem x connections x nodes", b.work, a.work},
      {"parallel workers", b.parallel, a.parallel},
      {"maintenance + autovacuum", b.maintenance, a.maintenance},
      {"**worst case**", b.total(), a.total()},
      {"OS headroom", b.headroom, a.headroom},
      {"RAM", b.ram, a.ram},
  };
  for (const auto& [name, x, y] : rows)
    o << "| " << name << " | " << (r.memory_before ? Bytes(x) : "-") << " | " << Bytes(y) << " |\n";
  o << "\n";
}

// A folded list of findings, already rendered as markdown items, cut at `cap`.
void MarkdownList(const char* title, const std::vector<std::string>& items, size_t cap, std::ostream& o) {
  if (items.empty()) return;
  const std::string_view t = title;
  o << "<details" << (t == "Introduced" || t == "Changed" ? " open" : "") << "><summary>" << title << " ("
    << items.size() << ")</summary>\n\n";
  size_t n = 0;
  for (const std::string& item : items) {
    if (n++ == cap) {
      o << "- ... " << (items.size() - cap) << " more\n";
      break;
    }
    o << "- " << item << "\n";
  }
  o << "\n</details>\n\n";
}

void MarkdownFindings(const char* title, const std::vector<FindingRef>& v, const std::string& base, size_t cap,
                      std::ostream& o) {
  std::vector<std::string> items;
  for (const FindingRef& f : v) items.push_back(MarkdownEscape(FindingLine(f, base)));
  MarkdownList(title, items, cap, o);
}

void MarkdownRoot(const RootChange& r, const ChangeReportOptions& opt, size_t cap, std::ostream& o) {
  o << "### " << MarkdownEscape(RootHeading(r, opt)) << "\n\n";
  if (!r.values.empty()) {
    o << "| parameter | before | after | applying it takes | set at |\n|---|---|---|---|---|\n";
    for (const ValueChange& c : r.values)
      o << "| `" << c.param->name << "` | " << MarkdownEscape(Before(c)) << " | " << MarkdownEscape(After(c)) << " | "
        << c.applies << " | " << MarkdownEscape(Where(r.after, c.where, opt.base_after)) << " |\n";
    o << "\n";
  } else if (!r.removed) {
    o << "No parameter changes its value.\n\n";
  }
  for (const IneffectiveChange& c : r.ineffective)
    o << "> **No effect:** `" << c.parameter << " = " << MarkdownEscape(c.written) << "` at "
      << MarkdownEscape(Where(r.after, c.where, opt.base_after)) << " is overridden by "
      << MarkdownEscape(Where(r.after, c.winner, opt.base_after)) << ".\n\n";
  o << "Findings: **" << r.introduced.size() << " introduced**, " << r.fixed.size() << " fixed, "
    << (r.changed.empty() ? "" : "**") << r.changed.size() << " changed" << (r.changed.empty() ? "" : "**") << ", "
    << r.unchanged.size() << " unchanged.\n\n";
  MarkdownFindings("Introduced", r.introduced, opt.base_after, cap, o);
  MarkdownFindings("Fixed", r.fixed, opt.base_before, cap, o);
  std::vector<std::string> changed;
  for (const auto& [was, now] : r.changed)
    changed.push_back(MarkdownEscape(FindingLine(now, opt.base_after)) + "<br>was: " +
                      MarkdownEscape(was.diagnostic->message));
  MarkdownList("Changed", changed, cap, o);
  MarkdownFindings("Unchanged", r.unchanged, opt.base_after, cap, o);
  if (!r.blocking.empty()) {
    o << "#### Rollout: blocked\n\n" << kBlocked << "\n\n";
    for (const FindingRef& f : r.blocking) o << "- " << MarkdownEscape(FindingLine(f, opt.base_after)) << "\n";
    o << "\n";
  } else if (!r.rollout.empty()) {
    o << "#### Rollout\n\n";
    WriteRollout(r.rollout, r.major, r.source, {.markdown = true, .heading_level = 5}, o);
  }
  if (r.memory_after) MarkdownMemory(r, o);
}

std::string Markdown(const std::vector<RootChange>& roots, const ChangeReportOptions& opt, size_t cap) {
  std::ostringstream o;
  if (!opt.marker.empty()) o << "<!-- " << opt.marker << " -->\n";
  o << "## pgconflint: configuration plan of " << MarkdownEscape(opt.base_label) << " → "
    << MarkdownEscape(opt.head_label) << "\n\n";
  if (roots.empty()) o << "No root is touched by the change.\n";
  for (const RootChange& r : roots) MarkdownRoot(r, opt, cap, o);
  return o.str();
}

void RenderMarkdownPlan(const std::vector<RootChange>& roots, const ChangeReportOptions& opt, std::ostream& o) {
  // Shorter finding lists until the comment fits; then cut at a line.
  for (size_t cap : {size_t(100000), size_t(50), size_t(10), size_t(0)}) {
    std::string md = Markdown(roots, opt, cap);
    if (md.size() <= kMaxMarkdown) {
      o << md;
      return;
    }
    if (cap == 0) {
      const std::string note = "\n\n*The plan was cut to fit a comment: run `pgconflint diff` for all of it.*\n";
      md.resize(md.rfind('\n', kMaxMarkdown - note.size()) + 1);
      o << md << note;
    }
  }
}

// --- JSON -------------------------------------------------------------------------

ordered_json FindingsJson(const std::vector<FindingRef>& v, const std::string& base) {
  ordered_json a = ordered_json::array();
  for (const FindingRef& f : v) {
    const Diagnostic& d = *f.diagnostic;
    Span s = SpanOf(*f.analysis, d.where(), ColumnUnit::kCodePoint);
    a.push_back({{"code", d.rule->code}, {"name", d.rule->name}, {"severity", SeverityName(d.severity())},
                 {"fatal", d.fatal()}, {"parameter", d.parameter}, {"file", BasePath(*f.analysis, d.file, base)}, {"line", s.begin.line},
                 {"column", s.begin.column}, {"message", d.message}});
  }
  return a;
}

// Each changed finding as it is now, with the message it had before.
ordered_json ChangedJson(const std::vector<std::pair<FindingRef, FindingRef>>& v, const ChangeReportOptions& opt) {
  ordered_json a = ordered_json::array();
  for (const auto& [was, now] : v) {
    ordered_json j = FindingsJson({now}, opt.base_after)[0];
    j["before_message"] = was.diagnostic->message;
    a.push_back(std::move(j));
  }
  return a;
}

ordered_json MemoryJson(const MemoryPicture& m) {
  return {{"shared", m.shared}, {"work", m.work}, {"parallel", m.parallel}, {"maintenance", m.maintenance},
          {"total", m.total()}, {"headroom", m.headroom}, {"ram", m.ram}, {"free", m.free()}};
}

ordered_json RootJson(const RootChange& r, const ChangeReportOptions& opt) {
  ordered_json values = ordered_json::array();
  for (const ValueChange& c : r.values)
    values.push_back({{"parameter", c.param->name}, {"before", c.before}, {"after", c.after},
                      {"before_default", c.before_default}, {"after_default", c.after_default},
                      {"before_effective", c.before_effective.empty() ? ordered_json(nullptr) : ordered_json(c.before_effective)},
                      {"after_effective", c.after_effective.empty() ? ordered_json(nullptr) : ordered_json(c.after_effective)},
                      {"context", ContextName(c.param->context)}, {"applies", c.applies},
                      {"set_at", Where(r.after, c.where, opt.base_after)},
                      {"refused", c.refused.empty() ? ordered_json(nullptr) : ordered_json(c.refused)}});
  ordered_json ineffective = ordered_json::array();
  for (const IneffectiveChange& c : r.ineffective)
    ineffective.push_back({{"parameter", c.parameter}, {"value", c.written},
                           {"at", Where(r.after, c.where, opt.base_after)},
                           {"overridden_by", Where(r.after, c.winner, opt.base_after)}});
  std::ostringstream rollout;
  if (!r.rollout.empty()) WriteRollout(r.rollout, r.major, r.source, {}, rollout);
  const std::string cluster = ClusterOf(r, opt);
  ordered_json j = {{"root", r.root}, {"added", r.added}, {"removed", r.removed},
                    {"cluster", cluster.empty() ? ordered_json(nullptr) : ordered_json(cluster)}, {"values", values},
                    {"ineffective", ineffective},
                    {"introduced", FindingsJson(r.introduced, opt.base_after)},
                    {"fixed", FindingsJson(r.fixed, opt.base_before)},
                    {"changed", ChangedJson(r.changed, opt)},
                    {"unchanged", FindingsJson(r.unchanged, opt.base_after)}, {"rollout", rollout.str()},
                    {"blocked_by", FindingsJson(r.blocking, opt.base_after)}};
  j["memory"] = r.memory_after ? ordered_json{{"before", r.memory_before ? MemoryJson(*r.memory_before) : nullptr},
                                              {"after", MemoryJson(*r.memory_after)}}
                               : ordered_json(nullptr);
  return j;
}

}  // namespace

const std::vector<std::string>& ChangeFormats() {
  static const std::vector<std::string> kFormats = {"text", "markdown", "json"};
  return kFormats;
}

void RenderChange(const std::vector<RootChange>& roots, const std::string& format, const ChangeReportOptions& opt,
                  std::ostream& out) {
  if (format == "markdown") return RenderMarkdownPlan(roots, opt, out);
  if (format == "text") return RenderText(roots, opt, out);
  ordered_json all = ordered_json::array();
  for (const RootChange& r : roots) all.push_back(RootJson(r, opt));
  ordered_json doc = {{"version", 1}, {"base", opt.base_label}, {"head", opt.head_label}, {"roots", all}};
  out << doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
}

}  // namespace pgconflint
