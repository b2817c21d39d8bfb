// References and rename of user name maps: the `map=` options of pg_hba.conf
// and the MAPNAME fields of pg_ident.conf that name the same map, across the
// files of the root (included files too), as the server pairs them.
// References of a parameter: every line of the root that sets it, the one
// that wins first; of an include directive: every directive of the root that
// reads the same file; of an included file (anywhere but on a setting): the
// directives that read it.
#include <algorithm>
#include <set>

#include "core/hba/hba.h"
#include "lsp/cursor.h"
#include "lsp/session.h"

namespace pgconflint::lsp {
namespace {

// One place a name is used: a map name (the declarations are the
// pg_ident.conf lines), a setting line (the winning one is the declaration),
// an include directive (the files it reads are the declarations).
struct Use {
  int file = -1;
  Range range;
  bool declaration = false;
};

// The name part of a map=NAME option.
Range MapValue(const HbaOption& o) { return {o.range.begin + static_cast<uint32_t>(o.name.size()) + 1, o.range.end}; }

bool Within(uint32_t offset, Range r) { return offset >= r.begin && offset <= r.end; }

// Every use of a map name, in file order; *at is the name under `offset` of `file` ("" if none).
std::vector<Use> MapUses(const AuthConfig& auth, int file, uint32_t offset, std::string* at) {
  std::vector<std::pair<std::string, Use>> all;
  for (const HbaRule& r : auth.hba) {
    const AuthLine& line = auth.hba_lines[r.line_index];
    for (const HbaOption& o : r.options)
      if (o.name == "map" && !o.value.empty()) all.push_back({o.value, {line.file, MapValue(o), false}});
  }
  for (const IdentMap& m : auth.ident) {
    const AuthLine& line = auth.ident_lines[m.line_index];
    if (m.map.from_file < 0 && !m.map.text.empty()) all.push_back({m.map.text, {line.file, m.map.range, true}});
  }
  at->clear();
  for (const auto& [name, use] : all)
    if (use.file == file && Within(offset, use.range)) *at = name;
  std::vector<Use> out;
  if (at->empty()) return out;
  for (const auto& [name, use] : all)
    if (name == *at) out.push_back(use);
  return out;
}

// A name the server reads back the same without quotes in both files.
bool PlainMapName(const std::string& name) {
  if (name.empty()) return false;
  return std::all_of(name.begin(), name.end(), [](unsigned char c) {
    return std::isalnum(c) || c == '_' || c == '-' || c == '.' || c >= 0x80;
  });
}

// Every include directive of the root that reads one of `paths`, in file order.
void AppendIncludeSites(const Analysis& a, const std::set<std::string>& paths, std::vector<Use>* out) {
  std::set<std::pair<int, uint32_t>> sites;
  for (const LoadedFile& f : a.files)
    if (f.included_from.file >= 0 && paths.count(f.abs_path)) sites.insert({f.included_from.file, f.included_from.offset});
  for (const auto& [f, at] : sites)
    for (const SettingLine& s : a.files[f].parsed.settings)
      if (s.name.begin == at) out->push_back({f, {s.name.begin, s.value.end}, false});
}

// The lines of the root that set the parameter named at `offset` of `file`
// (the winning one first, marked as the declaration), or the include
// directives that read what the directive at `offset` reads; elsewhere in
// an included file (a comment, a blank line), the directives that read it.
std::vector<Use> ConfUses(const Analysis& a, int file, uint32_t offset) {
  std::vector<Use> out;
  for (const SettingLine& line : a.files[file].parsed.settings) {
    if (!Within(offset, {line.name.begin, line.value.end})) continue;
    const SourceFile& src = a.files[file].source;
    if (IsIncludeDirective(src.Slice(line.name))) {
      // The files it reads (their first line: the declarations), then every
      // directive of the root that reads one of them.
      std::set<std::string> paths;
      for (int f : IncludedBy(a, file, line.name.begin)) {
        out.push_back({f, {0, 0}, true});
        paths.insert(a.files[f].abs_path);
      }
      AppendIncludeSites(a, paths, &out);
      return out;
    }
    if (!Within(offset, line.name) || !a.catalog) return out;
    bool old_name = false;
    const Parameter* p = ParameterNamed(*a.catalog, src.Slice(line.name), &old_name);
    const std::string lower = AsciiLower(src.Slice(line.name));
    const Setting* winner = p ? a.Effective(p->name) : nullptr;
    for (const Setting& s : a.settings) {
      if (s.file < 0 || a.files[s.file].kind != FileKind::kConf) continue;
      if (p ? s.param != p : (s.param || AsciiLower(s.name) != lower)) continue;
      Use use{s.file, {s.name_range.begin, s.value_range.end}, &s == winner};
      if (use.declaration) out.insert(out.begin(), use);
      else out.push_back(use);
    }
    return out;
  }
  if (a.files[file].included_from.file >= 0) {
    out.push_back({file, {0, 0}, true});
    AppendIncludeSites(a, {a.files[file].abs_path}, &out);
  }
  return out;
}

}  // namespace

json Session::References(const json& params) {
  FileView view;
  json out = json::array();
  if (!FreshView(params, &view)) return out;
  const Analysis& a = *view.analysis;
  const uint32_t offset = OffsetOfPosition(view.source(), Object(params, "position"), unit_);
  const json* context = Find(params, "context");
  const bool declarations = !context || !context->is_object() || context->value("includeDeclaration", true);
  std::string name;
  std::vector<Use> uses;
  if (view.loaded().kind == FileKind::kConf) uses = ConfUses(a, view.file, offset);
  else if (a.auth) uses = MapUses(*a.auth, view.file, offset, &name);
  std::set<std::tuple<std::string, uint32_t, uint32_t>> seen;  // a file read twice is one place
  for (const Use& u : uses)
    if ((declarations || !u.declaration) && seen.insert({a.files[u.file].abs_path, u.range.begin, u.range.end}).second)
      out.push_back({{"uri", PathToUri(a.files[u.file].abs_path)}, {"range", RangeJson(a.files[u.file].source, u.range, unit_)}});
  return out;
}

json Session::Rename(const json& params) {
  FileView view;
  if (!FreshView(params, &view) || !view.analysis->auth) return nullptr;
  const Analysis& a = *view.analysis;
  const uint32_t offset = OffsetOfPosition(view.source(), Object(params, "position"), unit_);
  const std::string new_name = String(params, "newName");
  std::string name;
  std::vector<Use> uses = MapUses(*a.auth, view.file, offset, &name);
  if (uses.empty()) throw RpcError(kRequestFailed, "only a user name map (map= in pg_hba.conf, pg_ident.conf) can be renamed here");
  if (!PlainMapName(new_name))
    throw RpcError(kRequestFailed, "a map name of letters, digits, '_', '-' and '.' (no spaces, quotes or commas)");
  json changes = json::object();
  for (const Use& u : uses) {
    const std::string uri = PathToUri(a.files[u.file].abs_path);
    if (!changes.contains(uri)) changes[uri] = json::array();
    changes[uri].push_back({{"range", RangeJson(a.files[u.file].source, u.range, unit_)}, {"newText", new_name}});
  }
  return {{"changes", changes}};
}

json Session::PrepareRename(const json& params) {
  FileView view;
  if (!FreshView(params, &view) || !view.analysis->auth) return nullptr;
  const uint32_t offset = OffsetOfPosition(view.source(), Object(params, "position"), unit_);
  std::string name;
  for (const Use& u : MapUses(*view.analysis->auth, view.file, offset, &name))
    if (u.file == view.file && Within(offset, u.range))
      return {{"range", RangeJson(view.source(), u.range, unit_)}, {"placeholder", name}};
  return nullptr;
}

}  // namespace pgconflint::lsp
