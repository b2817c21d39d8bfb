// The server's complaints about its own files, and running values.
#include "core/server/server_state.h"

#include <algorithm>

#include "core/knowledge/catalog.h"
#include "core/knowledge/value.h"

namespace pgconflint {
namespace {

std::string At(const std::string& file, int line) { return file + ":" + std::to_string(line); }

// The file of `a` at `path`, or -1.
int FileAt(const Analysis& a, const std::string& path) {
  for (size_t i = 0; i < a.files.size(); ++i)
    if (a.files[i].abs_path == path) return static_cast<int>(i);
  return -1;
}

// Line `line` of file `file`: the setting of parameter `name` there, when
// the file still says so (an edited file may have moved it), else nullopt.
std::optional<Range> SettingLineOf(const Analysis& a, int file, int line, const std::string& name) {
  for (const Setting& s : a.settings)
    if (s.file == file && static_cast<int>(s.line) == line && AsciiLower(s.name) == AsciiLower(name))
      return Range{s.name_range.begin, s.value_range.end};
  return std::nullopt;
}

// Line `line` of file `file` when it holds a record (not blank, not a comment).
std::optional<Range> RecordLine(const Analysis& a, int file, int line) {
  const SourceFile& src = a.files[file].source;
  if (line <= 0 || static_cast<uint32_t>(line) > src.line_count()) return std::nullopt;
  std::string_view text = src.LineText(static_cast<uint32_t>(line));
  const size_t first = text.find_first_not_of(" \t\r");
  if (first == std::string_view::npos || text[first] == '#') return std::nullopt;
  const uint32_t start = src.LineStart(static_cast<uint32_t>(line));
  return Range{start + static_cast<uint32_t>(first), start + static_cast<uint32_t>(text.size())};
}

}  // namespace

Diagnostic RefusedLineFinding(const Snapshot& s, const SnapshotFileSetting& f, Location where) {
  const bool none_applied = s.file_settings && std::none_of(s.file_settings->begin(), s.file_settings->end(),
                                                            [](const SnapshotFileSetting& r) { return r.applied; });
  const std::string refused = f.error == "setting could not be applied"
                                  ? " (the value was refused: no restart is pending for " + f.name + ")"
                                  : "";
  const std::string nothing =
      none_applied ? "; because of it the last reload applied nothing from any configuration file" : "";
  if (where.file < 0)
    return MakeDiagnostic(Rule(RuleId::kServerRefusedSetting), where,
                          s.server + " did not apply " + At(f.sourcefile, f.sourceline) +
                              (f.name.empty() ? "" : " (" + f.name + ")") + ": " + f.error + refused + nothing,
                          "fix the server's file, then reload", f.name);
  return MakeDiagnostic(Rule(RuleId::kServerRefusedSetting), where,
                        "the server did not apply this line: " + f.error + refused + nothing,
                        "fix or remove the line, then reload and check pg_file_settings", f.name);
}

Diagnostic AuthLoadFinding(const std::string& error, bool ident, Location where, const std::string& placed_at) {
  const std::string at = where.file < 0 && !placed_at.empty() ? " (" + placed_at + ")" : "";
  if (!ident && error.find("cannot match") != std::string::npos) {
    Diagnostic d = MakeDiagnostic(Rule(RuleId::kHbaFileError), where,
                                  "the server skips this pg_hba.conf rule" + at + ": " + error,
                                  "remove the rule, or give the server what it needs (ssl = on, a build with GSSAPI)");
    d.Set(Outcome::kIgnoresLine, Severity::kWarning);
    return d;
  }
  Diagnostic d = MakeDiagnostic(
      Rule(RuleId::kHbaFileError), where,
      std::string("the server cannot load this ") + (ident ? "pg_ident.conf mapping" : "pg_hba.conf rule") + at + ": " +
          error,
      ident ? "fix the line and reload; until then the server keeps the mappings it loaded before"
            : "fix the rule and reload; until then the server keeps the rules it loaded before, and a restart fails");
  d.Set(ident ? Outcome::kRefusesReload : Outcome::kRefusesStart, Severity::kError);
  return d;
}

void AddServerComplaints(const Snapshot& s, Analysis* a) {
  const bool conf_root = !a->files.empty() && a->files[0].kind == FileKind::kConf;
  if (s.file_settings)
    for (const SnapshotFileSetting& f : *s.file_settings) {
      if (!s.Refused(f)) continue;
      const int file = f.name.empty() ? -1 : FileAt(*a, f.sourcefile);
      std::optional<Range> line = file >= 0 ? SettingLineOf(*a, file, f.sourceline, f.name) : std::nullopt;
      if (line) a->Add(RefusedLineFinding(s, f, {file, *line}));
      else if (conf_root) a->Add(RefusedLineFinding(s, f, {}));
    }
  const SnapshotSetting* hba = s.Setting("hba_file");
  const SnapshotSetting* ident = s.Setting("ident_file");
  auto complain = [&](bool is_ident, const std::string& file_name, int line, const std::string& error) {
    const SnapshotSetting* setting = is_ident ? ident : hba;
    const std::string path = !file_name.empty() ? file_name : setting ? setting->setting : "";
    const int file = path.empty() ? -1 : FileAt(*a, path);
    std::optional<Range> at = file >= 0 ? RecordLine(*a, file, line) : std::nullopt;
    if (at) a->Add(AuthLoadFinding(error, is_ident, {file, *at}));
    else if (conf_root) a->Add(AuthLoadFinding(error, is_ident, {}, s.server + " " + At(path, line)));
  };
  if (s.hba_rules)
    for (const ServerHbaRule& r : *s.hba_rules)
      if (r.error && !r.error->empty()) complain(false, r.file_name, r.line_number, *r.error);
  if (s.ident_mappings)
    for (const ServerIdentMapping& m : *s.ident_mappings)
      if (m.error && !m.error->empty()) complain(true, m.file_name, m.line_number, *m.error);
}

std::string RunningText(const Catalog& catalog, const SnapshotSetting& r) {
  if (const Parameter* p = catalog.Find(r.name)) return ShownWithUnit(*p, r.setting);
  return r.unit.empty() ? r.setting : r.setting + " (in units of " + r.unit + ")";
}

std::optional<RunningValue> RunningValueOf(const Snapshot& s, const Catalog& catalog, std::string_view name) {
  const Parameter* p = catalog.FindAnyName(name);
  const SnapshotSetting* r = s.Setting(p ? std::string_view(p->name) : name);
  if (!r) return std::nullopt;
  RunningValue v;
  v.value = RunningText(catalog, *r);
  v.source = r->source;
  v.where = r->sourcefile.empty() ? "" : At(r->sourcefile, r->sourceline);
  v.context = r->context;
  v.pending_restart = r->pending_restart;
  if (r->pending_restart && s.file_settings) {
    // The last line of the parameter in the server's files is the value the restart applies.
    const SnapshotFileSetting* last = nullptr;
    for (const SnapshotFileSetting& f : *s.file_settings)
      if (!f.name.empty() && AsciiLower(f.name) == AsciiLower(r->name) && (!last || f.seqno > last->seqno)) last = &f;
    if (last) {
      v.pending_value = last->setting;
      v.pending_where = At(last->sourcefile, last->sourceline);
    }
  }
  return v;
}

}  // namespace pgconflint
