// References and rename of user name maps: the `map=` options of pg_hba.conf
// and the MAPNAME fields of pg_ident.conf that name the same map, across the
// files of the root (included files too), as the server pairs them.
#include <algorithm>

#include "core/hba/hba.h"
#include "lsp/cursor.h"
#include "lsp/session.h"

namespace pgconflint::lsp {
namespace {

struct MapUse {
  int file = -1;
  Range range;              // the map name as written
  bool declaration = false;  // a pg_ident.conf line (the map's own lines)
};

// The name part of a map=NAME option.
Range MapValue(const HbaOption& o) { return {o.range.begin + static_cast<uint32_t>(o.name.size()) + 1, o.range.end}; }

bool Within(uint32_t offset, Range r) { return offset >= r.begin && offset <= r.end; }

// Every use of a map name, in file order; *at is the name under `offset` of `file` ("" if none).
std::vector<MapUse> MapUses(const AuthConfig& auth, int file, uint32_t offset, std::string* at) {
  std::vector<std::pair<std::string, MapUse>> all;
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
  std::vector<MapUse> out;
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

}  // namespace

json Session::References(const json& params) {
  FileView view;
  json out = json::array();
  if (!FreshView(params, &view) || !view.analysis->auth) return out;
  const Analysis& a = *view.analysis;
  const uint32_t offset = OffsetOfPosition(view.source(), Object(params, "position"), unit_);
  const json* context = Find(params, "context");
  const bool declarations = !context || !context->is_object() || context->value("includeDeclaration", true);
  std::string name;
  for (const MapUse& u : MapUses(*a.auth, view.file, offset, &name))
    if (declarations || !u.declaration)
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
  std::vector<MapUse> uses = MapUses(*a.auth, view.file, offset, &name);
  if (uses.empty()) throw RpcError(kRequestFailed, "only a user name map (map= in pg_hba.conf, pg_ident.conf) can be renamed here");
  if (!PlainMapName(new_name))
    throw RpcError(kRequestFailed, "a map name of letters, digits, '_', '-' and '.' (no spaces, quotes or commas)");
  json changes = json::object();
  for (const MapUse& u : uses) {
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
  for (const MapUse& u : MapUses(*view.analysis->auth, view.file, offset, &name))
    if (u.file == view.file && Within(offset, u.range))
      return {{"range", RangeJson(view.source(), u.range, unit_)}, {"placeholder", name}};
  return nullptr;
}

}  // namespace pgconflint::lsp
