// Going places in a configuration tree: the line that decides a parameter
// (definition), the files an include directive reads (document links), the
// settings of a file (document symbols), and inlay hints for the effective
// value, for lines that another line overrides, and for a live server's
// value where it is not the line's.
#include <algorithm>

#include "core/model/effective.h"
#include "lsp/cursor.h"
#include "lsp/session.h"

namespace pgconflint::lsp {
namespace {

constexpr int kSymbolFile = 1, kSymbolProperty = 7;

// Where an include directive links: the file, or for include_dir the directory.
std::string IncludeTarget(const Analysis& a, const SourceFile& src, const SettingLine& s, int file) {
  std::vector<int> read = IncludedBy(a, file, s.name.begin);
  if (read.empty()) return "";
  const std::string& first = a.files[read[0]].abs_path;
  return AsciiLower(src.Slice(s.name)) == "include_dir" ? ParentDirectory(first) : first;
}

// The value of a setting line without its quotes.
Range Unquoted(const SettingLine& s) {
  if (!s.quoted || s.value.end - s.value.begin < 2) return s.value;
  return {s.value.begin + 1, s.value.end - 1};
}

// A pg_hba.conf / pg_ident.conf record as one line: its fields with single
// spaces between them.
std::string RecordText(std::string_view text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const bool continuation = c == '\\' && i + 1 < text.size() && (text[i + 1] == '\n' || text[i + 1] == '\r');
    const bool blank = c == ' ' || c == '\t' || c == '\n' || c == '\r' || continuation;
    if (!blank) out += c;
    else if (!out.empty() && out.back() != ' ') out += ' ';
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

json LocationJson(const Analysis& a, int file, Range range, ColumnUnit unit) {
  return {{"uri", PathToUri(a.files[file].abs_path)}, {"range", RangeJson(a.files[file].source, range, unit)}};
}

}  // namespace

json Session::Definition(const json& params) {
  FileView view;
  if (!FreshView(params, &view)) return nullptr;
  const Analysis& a = *view.analysis;
  const SourceFile& src = view.source();
  const uint32_t offset = OffsetOfPosition(src, Object(params, "position"), unit_);
  for (const SettingLine& s : view.loaded().parsed.settings) {
    if (offset < s.value.begin || offset > s.value.end || !IsIncludeDirective(src.Slice(s.name))) continue;
    std::vector<int> read = IncludedBy(a, view.file, s.name.begin);
    if (read.empty()) return nullptr;
    json out = json::array();
    for (int f : read) out.push_back(LocationJson(a, f, {0, 0}, unit_));
    return out;
  }
  Range word = WordAround(src.text(), offset, IsNameChar);
  bool old_name = false;
  const Parameter* p = ParameterNamed(*a.catalog, src.Slice(word), &old_name);
  const Setting* deciding = p ? a.Effective(p->name) : nullptr;
  if (!deciding) return nullptr;
  return LocationJson(a, deciding->file, {deciding->name_range.begin, deciding->value_range.end}, unit_);
}

json Session::DocumentLink(const json& params) {
  FileView view;
  json out = json::array();
  if (!FreshView(params, &view)) return out;
  const SourceFile& src = view.source();
  for (const SettingLine& s : view.loaded().parsed.settings) {
    if (!IsIncludeDirective(src.Slice(s.name))) continue;
    std::string target = IncludeTarget(*view.analysis, src, s, view.file);
    if (!target.empty())
      out.push_back({{"range", RangeJson(src, Unquoted(s), unit_)}, {"target", PathToUri(target)}, {"tooltip", target}});
  }
  return out;
}

json Session::DocumentSymbol(const json& params) {
  FileView view;
  json out = json::array();
  if (!FreshView(params, &view)) return out;
  const SourceFile& src = view.source();
  const bool auth = view.loaded().kind != FileKind::kConf;  // one symbol per record: its fields
  for (const SettingLine& s : view.loaded().parsed.settings) {
    Range whole{s.name.begin, std::max(s.value.end, s.comment.end)};
    std::string name(auth ? RecordText(src.Slice({s.name.begin, std::max(s.name.end, s.value.end)})) : src.Slice(s.name));
    if (name.empty()) continue;  // a symbol needs a name
    std::string detail(auth ? (view.loaded().kind == FileKind::kHba ? "record" : "mapping") : src.Slice(s.value));
    out.push_back({{"name", name},
                   {"detail", detail.empty() ? std::string("''") : detail},
                   {"kind", IsIncludeDirective(src.Slice(s.name)) ? kSymbolFile : kSymbolProperty},
                   {"range", RangeJson(src, whole, unit_)},
                   {"selectionRange", RangeJson(src, s.name, unit_)}});
  }
  return out;
}

json Session::InlayHint(const json& params) {
  FileView view;
  json out = json::array();
  if (!FreshView(params, &view)) return out;
  const Analysis& a = *view.analysis;
  const SourceFile& src = view.source();
  const Range range = RangeOf(src, Object(params, "range"), unit_);
  EffectiveConfig eff(a);
  for (const Setting& s : a.settings) {
    if (s.file != view.file || s.value_range.end < range.begin || s.name_range.begin > range.end) continue;
    auto hint = [&](const std::string& label, const std::string& tooltip) {
      out.push_back({{"position", PositionJson(src, s.value_range.end, unit_)},
                     {"label", label},
                     {"tooltip", tooltip},
                     {"paddingLeft", true}});
    };
    if (s.overridden_by >= 0) {
      const Setting& later = a.settings[s.overridden_by];
      hint("overridden by " + a.Describe({later.file, later.name_range}), later.name + " = " + later.raw);
    } else if (s.param && eff.SettingFor(s.param->name) == &s) {
      if (std::optional<DerivedValue> d = eff.Adjusted(s.param->name))
        hint(d->value.Display() + " effective", d->explanation);
      // What a live server runs, when it is not what this deciding line says.
      if (auto live = LiveHint(s, *a.catalog)) hint(live->first, live->second);
    }
  }
  return out;
}

}  // namespace pgconflint::lsp
