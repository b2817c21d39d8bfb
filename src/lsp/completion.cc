// textDocument/completion, from what precedes the cursor on its line:
// parameter names of the file's major (old names marked deprecated) at the
// start of a line, enum values and booleans after the name, units after a
// number, file and directory names after include/include_if_exists/include_dir,
// and directive keywords, rule codes and names in `# pgconflint:` comments;
// in pg_hba.conf and pg_ident.conf the words of the field at the cursor
// (core's CompleteAuthPosition), with a live server's databases and roles.
#include <algorithm>
#include <set>

#include "core/hba/hba_docs.h"
#include "core/base/quantity.h"
#include "core/knowledge/value.h"
#include "lsp/cursor.h"
#include "lsp/session.h"

namespace pgconflint::lsp {
namespace {

// CompletionItemKind and CompletionItemTag values.
constexpr int kKindUnit = 11, kKindValue = 12, kKindKeyword = 14, kKindProperty = 10, kKindFile = 17,
              kKindFolder = 19, kKindEnumMember = 20;
constexpr int kCompletionItemDeprecated = 1;
constexpr size_t kMaxPathItems = 500;
constexpr std::string_view kDirective = "pgconflint:";

// Collects items that replace one range of the line.
class Items {
 public:
  Items(const SourceFile& src, Range replace, ColumnUnit unit) : range_(RangeJson(src, replace, unit)) {}
  json& Add(const std::string& label, int kind, const std::string& detail, const std::string& text = "") {
    json item = {{"label", label},
                 {"kind", kind},
                 {"textEdit", {{"range", range_}, {"newText", text.empty() ? label : text}}}};
    if (!detail.empty()) item["detail"] = detail;
    if (!text.empty()) item["filterText"] = text;
    items_.push_back(std::move(item));
    return items_.back();
  }
  json Take() { return {{"isIncomplete", false}, {"items", std::move(items_)}}; }

 private:
  json range_;
  json items_ = json::array();
};

// Where a comment starts in a line's text before the cursor (a '#' outside a
// quoted value), or npos.
size_t CommentStart(std::string_view line) {
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    if (quoted && line[i] == '\\') ++i;
    else if (line[i] == '\'') quoted = !quoted;
    else if (!quoted && line[i] == '#') return i;
  }
  return std::string_view::npos;
}

std::string ParameterDetail(const Parameter& p) {
  std::string d(VarTypeName(p.type));
  if (p.unit[0]) d += std::string(", ") + p.unit;
  return d + " · " + std::string(ContextName(p.context));
}

void ParameterItems(const Catalog& cat, const ExtensionSet& extensions, Items* items) {
  for (const Parameter& p : cat.parameters()) {
    if (!p.in_pg_settings || p.context == Context::kInternal) continue;
    items->Add(p.name, kKindProperty, ParameterDetail(p))["documentation"] = p.short_desc;
  }
  // Module parameters: the user's catalogs first, as they may describe a module anew.
  std::set<std::string> seen;
  std::vector<const ExtensionCatalog*> catalogs = extensions.user;
  if (extensions.builtin) catalogs.push_back(extensions.builtin);
  for (const ExtensionCatalog* c : catalogs)
    for (const ExtensionParameter& ep : c->parameters())
      if (seen.insert(AsciiLower(ep.param.name)).second)
        items->Add(ep.param.name, kKindProperty,
                   ParameterDetail(ep.param) + " · module " + c->modules()[ep.module].name)["documentation"] =
            ep.param.short_desc;
  for (const Alias& al : cat.aliases()) {
    json& item = items->Add(al.old_name, kKindProperty, std::string("old name for ") + al.new_name);
    item["tags"] = {kCompletionItemDeprecated};
    item["deprecated"] = true;
  }
  for (const char* kw : {"include", "include_dir", "include_if_exists"}) items->Add(kw, kKindKeyword, "directive");
}

// Items in the `# pgconflint:` comment `comment` (from its '#' to the cursor
// at `end`); null when nothing fits there.
json DirectiveItems(const SourceFile& src, const RuleSet& rules, std::string_view comment, uint32_t end,
                    ColumnUnit unit) {
  auto replacing = [&](std::string_view typed) {
    return Items(src, {end - static_cast<uint32_t>(typed.size()), end}, unit);
  };
  std::string_view rest = comment.substr(1);
  rest.remove_prefix(std::min(rest.size(), rest.find_first_not_of(" \t")));
  if (rest.substr(0, kDirective.size()) != kDirective) {
    if (rest.empty() || kDirective.substr(0, rest.size()) != rest) return nullptr;
    Items items = replacing(rest);
    for (const char* kw : {"pgconflint: disable=", "pgconflint: disable-file=", "pgconflint: pg-version="})
      items.Add(kw, kKindKeyword, "pgconflint directive");
    return items.Take();
  }
  std::string_view body = rest.substr(kDirective.size());
  std::string_view tail = body.substr(std::min(body.size(), body.find_last_of(" \t") + 1));
  size_t eq = tail.find('=');
  std::string_view key = tail.substr(0, eq);
  if (eq == std::string_view::npos) {
    Items items = replacing(tail);
    for (const char* kw : {"disable=", "disable-file=", "pg-version="}) items.Add(kw, kKindKeyword, "pgconflint directive");
    return items.Take();
  }
  if (key == "pg-version") {
    Items items = replacing(tail.substr(eq + 1));
    for (int m : Catalog::SupportedMajors()) items.Add(std::to_string(m), kKindValue, "PostgreSQL " + std::to_string(m));
    return items.Take();
  }
  if (key != "disable" && key != "disable-file") return nullptr;
  Items items = replacing(tail.substr(tail.find_last_of("=,") + 1));
  for (const RuleInfo* r : rules.rules()) {
    if (std::string_view(r->code).substr(0, 4) == "PGC9") continue;  // PGC9xx findings are never suppressed
    items.Add(r->code, kKindValue, r->name)["documentation"] = r->summary;
    items.Add(r->name, kKindValue, r->code)["documentation"] = r->summary;
  }
  return items.Take();
}

// pg_hba.conf / pg_ident.conf: the candidates replace the token typed so
// far (fields are separated by blanks, list items by commas).
json AuthItems(const Analysis& a, int file, const SourceFile& src, uint32_t line_start, uint32_t offset,
               ColumnUnit unit, const AuthNames* names) {
  uint32_t begin = offset;
  auto separator = [](char c) { return c == ' ' || c == '\t' || c == ','; };
  while (begin > line_start && !separator(src.text()[begin - 1])) --begin;
  Items items(src, {begin, offset}, unit);
  for (const AuthCompletion& c : CompleteAuthPosition(a, file, offset, names)) items.Add(c.label, kKindKeyword, c.detail);
  return items.Take();
}

}  // namespace

json Session::Completion(const json& params) {
  FileView view;
  json none = {{"isIncomplete", false}, {"items", json::array()}};
  Document* doc = FreshView(params, &view);
  if (!doc) return none;
  const SourceFile& src = view.source();
  const uint32_t offset = OffsetOfPosition(src, Object(params, "position"), unit_);
  const uint32_t line_start = src.LineStart(src.LineOf(offset));
  const std::string_view before = std::string_view(src.text()).substr(line_start, offset - line_start);
  if (size_t hash = CommentStart(before); hash != std::string_view::npos) {
    json items = DirectiveItems(src, workspace_->rules(), before.substr(hash), offset, unit_);
    return items.is_null() ? none : items;
  }
  if (view.loaded().kind != FileKind::kConf) {
    // A live server's databases and roles.
    AuthNames names;
    const Snapshot* live = LiveSnapshot();
    if (live) {
      names.server = live->server;
      for (const SnapshotDatabase& d : live->databases) names.databases.push_back(d.name);
      for (const SnapshotRole& r : live->roles) names.roles.push_back({r.name, r.login});
    }
    return AuthItems(*view.analysis, view.file, src, line_start, offset, unit_, live ? &names : nullptr);
  }
  const ExtensionSet extensions = workspace_->extensions(view.analysis->catalog->major());
  // name [=] value, as far as the cursor.
  size_t name_begin = before.find_first_not_of(" \t");
  if (name_begin == std::string_view::npos) name_begin = before.size();
  size_t name_end = name_begin;
  while (name_end < before.size() && IsNameChar(before[name_end])) ++name_end;
  const uint32_t name_at = line_start + static_cast<uint32_t>(name_begin);
  if (name_end == before.size()) {
    Items names(src, {name_at, offset}, unit_);
    ParameterItems(*view.analysis->catalog, extensions, &names);
    return names.Take();
  }
  std::string_view name = before.substr(name_begin, name_end - name_begin);
  size_t value_begin = before.find_first_not_of(" \t", name_end);
  if (value_begin != std::string_view::npos && before[value_begin] == '=')
    value_begin = before.find_first_not_of(" \t", value_begin + 1);
  if (value_begin == std::string_view::npos) value_begin = before.size();
  if (value_begin < before.size() && before[value_begin] == '\'') ++value_begin;
  std::string_view value = before.substr(value_begin);
  const uint32_t value_at = line_start + static_cast<uint32_t>(value_begin);
  const std::string lower = AsciiLower(name);
  if (lower == "include" || lower == "include_if_exists" || lower == "include_dir")
    return PathCompletion(*doc, src, value, value_at, offset, lower == "include_dir");
  bool old_name = false;
  const Parameter* p = ParameterNamed(*view.analysis->catalog, name, &old_name, &extensions);
  if (!p) return none;
  // A number followed by (part of) a unit: the units of the parameter.
  size_t letters = value.size();
  while (letters > 0 && ((value[letters - 1] >= 'a' && value[letters - 1] <= 'z') ||
                         (value[letters - 1] >= 'A' && value[letters - 1] <= 'Z')))
    --letters;
  std::string_view number = value.substr(0, letters);
  bool numeric = !number.empty() && std::all_of(number.begin(), number.end(), [](char c) {
    return (c >= '0' && c <= '9') || c == '.' || c == '-' || c == '+';
  }) && number.find_first_of("0123456789") != std::string_view::npos;
  Items out(src, {value_at, offset}, unit_);
  if (numeric && p->unit_kind != UnitKind::kNone) {
    for (const Unit& u : UnitsOf(UnitDim(*p))) out.Add(u.name, kKindUnit, "", std::string(number) + u.name);
  } else if (p->type == VarType::kEnum) {
    for (const EnumChoice& c : EnumChoices(*p))
      out.Add(c.value, kKindEnumMember,
              c.needs ? std::string(p->name) + " (needs a server built with " + c.needs->name + ")" : std::string(p->name));
  } else if (p->type == VarType::kBool) {
    // What the server prints for true and false (see ParseBool for every spelling).
    for (const char* v : {"on", "off"}) out.Add(v, kKindValue, "boolean");
  }
  return out.Take();
}

json Session::PathCompletion(const Document& doc, const SourceFile& src, std::string_view value, uint32_t value_at,
                             uint32_t offset, bool directories_only) {
  // The directory part as written (relative to the file's directory, as
  // PostgreSQL reads it), and the name being typed after it.
  const size_t slash = value.rfind('/');
  const size_t base = slash == std::string_view::npos ? 0 : slash + 1;
  std::string dir_part(value.substr(0, base));
  std::string dir = !dir_part.empty() && dir_part[0] == '/' ? dir_part : ParentDirectory(doc.path) + "/" + dir_part;
  Items out(src, {value_at + static_cast<uint32_t>(base), offset}, unit_);
  std::vector<DirEntry> entries;
  std::string error;
  if (!workspace_->fs().List(CanonicalizePath(dir), &entries, &error)) return out.Take();
  std::sort(entries.begin(), entries.end(), [](const DirEntry& a, const DirEntry& b) { return a.name < b.name; });
  const bool hidden = base < value.size() && value[base] == '.';
  size_t n = 0;
  for (const DirEntry& e : entries) {
    if (n >= kMaxPathItems) break;
    if (e.name[0] == '.' && !hidden) continue;  // dot files only when asked for
    FileInfo info = workspace_->fs().Stat(CanonicalizePath(dir + "/" + e.name));
    if (info.type == FileInfo::Type::kDirectory) out.Add(e.name + "/", kKindFolder, "directory");
    else if (info.type == FileInfo::Type::kRegular && !directories_only) out.Add(e.name, kKindFile, "file");
    else continue;
    ++n;
  }
  return out.Take();
}

}  // namespace pgconflint::lsp
