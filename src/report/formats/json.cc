// The `json` format, version 1: a contract (docs/json-format.md). Fields are
// added, never renamed or removed. Columns count code points. The output is
// written root by root and diagnostic by diagnostic, as nlohmann's dump(2)
// would write the whole document, without holding it.
#include <nlohmann/json.hpp>

#include <cstdio>

#include "core/model/effective.h"
#include "core/hba/hba_server.h"
#include "core/base/quantity.h"
#include "core/knowledge/value.h"
#include "report/reporter.h"
#include "report/text.h"

namespace pgconflint {
namespace {

using ordered_json = nlohmann::ordered_json;

bool EqualsName(std::string_view a, std::string_view b) { return AsciiLower(a) == AsciiLower(b); }

// The effective value of an applied setting, as `postgres -C` would print a
// value in the parameter's base unit (e.g. io_max_concurrency -1 -> "64").
std::optional<std::string> EffectiveValue(const EffectiveConfig& eff, const Setting& s) {
  if (!s.applied || !s.value) return std::nullopt;
  if (!s.param) return s.value;
  // Only the deciding line of a parameter is in effect.
  if (eff.SettingFor(s.param->name) != &s) return std::nullopt;
  std::optional<DerivedValue> d = eff.Derived(s.param->name);
  if (!d || d->value.kind != ExprValue::Kind::kNumber) return s.value;
  double v = d->value.number;
  if (d->value.dim != Dim::kNone && s.param->unit_amount > 0) v /= s.param->unit_amount;
  return s.param->type == VarType::kReal ? FormatReal(v) : FormatWhole(v);
}

ordered_json SettingJson(const Analysis& a, const EffectiveConfig& eff, const Setting& s) {
  ordered_json j;
  j["name"] = s.name;
  j["raw"] = s.raw;
  j["value"] = s.value ? ordered_json(*s.value) : ordered_json(nullptr);
  std::optional<std::string> e = EffectiveValue(eff, s);
  j["effective"] = e ? ordered_json(*e) : ordered_json(nullptr);
  j["unit"] = s.param && s.param->unit[0] ? ordered_json(s.param->unit) : ordered_json(nullptr);
  j["context"] = s.param ? ordered_json(std::string(ContextName(s.param->context))) : ordered_json(nullptr);
  const SourceFile& src = a.files[s.file].source;
  Position p = src.PositionOf(s.name_range.begin, ColumnUnit::kCodePoint);
  j["file"] = src.path();
  j["line"] = p.line;
  j["column"] = p.column;
  j["applied"] = s.applied;
  if (s.param && !EqualsName(s.param->name, s.name)) j["parameter"] = s.param->name;
  return j;
}

template <typename T>
ordered_json OrNull(const std::optional<T>& v) {
  return v ? ordered_json(*v) : ordered_json(nullptr);
}

// pg_hba.conf and pg_ident.conf as the server's views would show them.
void AuthJson(const Analysis& a, ordered_json* root) {
  if (!a.auth) return;
  const AuthConfig& c = *a.auth;
  ordered_json hba = ordered_json::array(), ident = ordered_json::array();
  for (const HbaRule& r : c.hba) {
    ServerHbaRule row = ExpectedHbaRow(c, a, r);
    hba.push_back({{"file", a.files[c.hba_lines[r.line_index].file].source.path()},
                   {"line", row.line_number},
                   {"type", OrNull(row.type)},
                   {"database", OrNull(row.database)},
                   {"user_name", OrNull(row.user_name)},
                   {"address", OrNull(row.address)},
                   {"netmask", OrNull(row.netmask)},
                   {"auth_method", OrNull(row.auth_method)},
                   {"options", OrNull(row.options)},
                   {"error", OrNull(row.error)},
                   {"refused", !r.outcome.parsed}});
  }
  for (const IdentMap& m : c.ident) {
    ServerIdentMapping row = ExpectedIdentRow(c, a, m);
    ident.push_back({{"file", a.files[c.ident_lines[m.line_index].file].source.path()},
                     {"line", row.line_number},
                     {"map_name", OrNull(row.map_name)},
                     {"sys_name", OrNull(row.sys_name)},
                     {"pg_username", OrNull(row.pg_username)},
                     {"error", OrNull(row.error)},
                     {"refused", !m.outcome.parsed}});
  }
  if (c.hba_file >= 0) (*root)["hba"] = std::move(hba);
  if (c.ident_file >= 0) (*root)["ident"] = std::move(ident);
}

// {file, line, column, end_line, end_column, `key`: `value`} for a location
// (code points); the position fields are null when it is not tied to a file.
ordered_json Located(const Analysis& a, const Location& where, const char* key, const std::string& value) {
  ordered_json o;
  if (where.file < 0) {
    for (const char* k : {"file", "line", "column", "end_line", "end_column"}) o[k] = nullptr;
  } else {
    const SourceFile& src = a.files[where.file].source;
    Position p = src.PositionOf(where.range.begin, ColumnUnit::kCodePoint);
    Position e = src.PositionOf(where.range.end, ColumnUnit::kCodePoint);
    o["file"] = src.path();
    o["line"] = p.line;
    o["column"] = p.column;
    o["end_line"] = e.line;
    o["end_column"] = e.column;
  }
  o[key] = value;
  return o;
}

ordered_json NotesJson(const Analysis& a, const Diagnostic& d) {
  ordered_json notes = ordered_json::array();
  for (const Note& n : d.notes) notes.push_back(Located(a, n.where, "message", n.message));
  return notes;
}

ordered_json FixesJson(const Analysis& a, const Diagnostic& d) {
  ordered_json fixes = ordered_json::array();
  for (const Fix& f : d.fixes) {
    ordered_json edits = ordered_json::array();
    for (const Edit& e : f.edits) edits.push_back(Located(a, e.where, "text", e.text));
    fixes.push_back({{"title", f.title},
                     {"safety", f.safety == FixSafety::kSafe ? "safe" : "unsafe"},
                     {"edits", std::move(edits)}});
  }
  return fixes;
}

ordered_json DiagnosticJson(const Analysis& a, const Diagnostic& d) {
  const RuleInfo& info = *d.rule;
  ordered_json dj;
  dj["root"] = a.root;
  Position p, e;
  if (d.file >= 0) {
    p = a.files[d.file].source.PositionOf(d.range.begin, ColumnUnit::kCodePoint);
    e = a.files[d.file].source.PositionOf(d.range.end, ColumnUnit::kCodePoint);
  }
  dj["file"] = FilePath(a, d.file);
  dj["line"] = p.line;
  dj["column"] = p.column;
  dj["end_line"] = e.line;
  dj["end_column"] = e.column;
  dj["severity"] = std::string(SeverityName(d.severity()));
  dj["fatal"] = d.fatal();
  dj["outcome"] = std::string(OutcomeName(d.outcome));
  dj["code"] = info.code;
  dj["name"] = info.name;
  dj["parameter"] = d.parameter.empty() ? ordered_json(nullptr) : ordered_json(d.parameter);
  dj["message"] = d.message;
  dj["help"] = d.help;
  ordered_json chain = ordered_json::array();
  for (const IncludeSite& s : a.IncludeChain(d.file))
    chain.push_back({{"file", a.files[s.file].source.path()}, {"line", s.line}});
  dj["include_chain"] = std::move(chain);
  dj["notes"] = NotesJson(a, d);
  ordered_json also = ordered_json::array();
  for (const Also& x : d.also) also.push_back({{"code", x.rule->code}, {"name", x.rule->name}, {"message", x.message}});
  dj["also"] = std::move(also);
  dj["fixes"] = FixesJson(a, d);
  return dj;
}

// `j` as dump(2) prints it nested `depth` levels deep.
void WriteNested(const ordered_json& j, int depth, std::ostream& out) {
  std::string text = j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
  const std::string indent(2 * depth, ' ');
  size_t from = 0;
  for (size_t nl; (nl = text.find('\n', from)) != std::string::npos; from = nl + 1)
    out.write(text.data() + from, static_cast<std::streamsize>(nl + 1 - from)) << indent;
  out.write(text.data() + from, static_cast<std::streamsize>(text.size() - from));
}

// Writes `"key": [` the elements `]` of an array `depth` levels deep, as
// dump(2) prints it, one element at a time: `each(emit)` calls `emit(write)`
// per element, and `write()` prints the element `depth + 1` levels deep.
template <typename EachElement>
void WriteArray(const char* key, int depth, std::ostream& out, EachElement each) {
  const std::string indent(2 * depth, ' '), inner(2 * depth + 2, ' ');
  out << indent << '"' << key << "\": [";
  bool first = true;
  each([&](auto write) {
    out << (first ? "\n" : ",\n") << inner;
    write();
    first = false;
  });
  if (first) out << "]";
  else out << "\n" << indent << "]";
}

// One root, written as dump(2) would print it two levels deep, its settings
// one at a time: a root of a million settings is never one JSON tree.
void WriteRoot(const Analysis& a, std::ostream& out) {
  auto scalar = [](const ordered_json& j) { return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace); };
  out << "{\n      \"path\": " << scalar(a.root) << ",\n      \"fatal\": " << (a.fatal() ? "true" : "false");
  if (a.failure != Analysis::Failure::kNone) out << ",\n      \"error\": " << scalar(a.failure_message);
  out << ",\n";
  WriteArray("settings", 3, out, [&](auto emit) {
    if (!a.catalog || a.failure != Analysis::Failure::kNone) return;
    EffectiveConfig eff(a);
    for (const Setting& s : a.settings) emit([&] { WriteNested(SettingJson(a, eff, s), 4, out); });
  });
  ordered_json auth;  // hba and ident, small: one tree
  AuthJson(a, &auth);
  for (const auto& [key, value] : auth.items()) {
    out << ",\n      \"" << key << "\": ";
    WriteNested(value, 3, out);
  }
  out << "\n    }";
}

}  // namespace

void RenderJson(const std::vector<Analysis>& analyses, const ReportOptions& options, std::ostream& out) {
  out << "{\n  \"version\": 1,\n  \"tool\": ";
  WriteNested({{"name", "pgconflint"}, {"version", options.tool_version}}, 1, out);
  out << ",\n  \"pg_version\": " << options.pg_version << ",\n";
  WriteArray("roots", 1, out, [&](auto emit) {
    for (const Analysis& a : analyses) emit([&] { WriteRoot(a, out); });
  });
  out << ",\n";
  WriteArray("diagnostics", 1, out, [&](auto emit) {
    for (const Analysis& a : analyses)
      for (const Diagnostic& d : a.diagnostics) emit([&] { WriteNested(DiagnosticJson(a, d), 2, out); });
  });
  Summary sum = Summarize(analyses);
  out << ",\n  \"summary\": ";
  WriteNested({{"roots", analyses.size()}, {"errors", sum.errors}, {"warnings", sum.warnings}, {"info", sum.info}}, 1,
              out);
  out << "\n}\n";
}

extern const Reporter kFormat_json;
const Reporter kFormat_json = {"json", "the versioned JSON contract (docs/json-format.md)", RenderJson, 30};

}  // namespace pgconflint
