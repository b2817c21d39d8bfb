// SqlScriptSource: read the script, find the cluster state it runs against,
// run its statements (sql_simulation.cc), and turn what they leave behind
// into settings.
#include "core/sql/sql_source.h"

#include <algorithm>
#include <map>

#include "core/sql/auto_conf_writer.h"
#include "core/knowledge/sql_knowledge.h"
#include "core/sql/sql_scanner.h"
#include "core/sql/sql_simulation.h"
#include "core/sql/sql_statements.h"
#include "core/model/syntax_diagnostics.h"
#include "core/knowledge/value.h"

namespace pgconflint {
namespace {

// Base settings kept aside while the script runs, by (file, name offset).
using Originals = std::map<std::pair<int, uint32_t>, Setting>;

int AddFile(Analysis* a, std::string abs, std::string display, const std::string& text, bool auto_conf) {
  LoadedFile f{std::move(abs), SourceFile(std::move(display), text), ParsedFile(), {}, 0, auto_conf};
  a->files.push_back(std::move(f));
  return static_cast<int>(a->files.size() - 1);
}

// The cluster facts a script's statements depend on: allow_alter_system and
// the custom names the configuration defines (placeholders).
void ReadClusterFacts(const std::vector<Setting>& settings, SqlState* state) {
  for (const Setting& s : settings) {
    if (s.name.find('.') != std::string::npos) state->placeholders.insert(AsciiLower(s.name));
    bool on;
    if (AsciiLower(s.name) == "allow_alter_system" && ParseBool(s.text, &on)) state->allow_alter_system = on;
  }
}

// Takes the settings of file `idx` out of the analysis (they come back, in
// the order ALTER SYSTEM leaves them, through AppendState).
void TakeFile(int idx, Analysis* a, SqlState* state, Originals* originals) {
  const LoadedFile& f = a->files[idx];
  state->auto_conf_parses = f.parsed.errors.empty();
  std::vector<Setting> kept;
  for (Setting& s : a->settings) {
    if (s.file != idx) {
      kept.push_back(std::move(s));
      continue;
    }
    AutoConfEntry e;
    e.name = s.name;
    e.value = s.text;
    e.file = idx;
    e.line = s.line;
    e.name_range = s.name_range;
    e.value_range = s.value_range;
    state->auto_conf.Append(AsciiLower(e.name), e);
    (*originals)[{idx, s.name_range.begin}] = std::move(s);
  }
  a->settings = std::move(kept);
}

Setting SettingOf(const Analysis& a, const StatementValue& v) {
  Setting s;
  s.name = v.name;
  s.raw = s.text = v.value;
  s.origin = v.origin;
  s.file = v.file;
  s.line = a.files[v.file].source.LineOf(v.name_range.begin);
  s.name_range = v.name_range;
  s.value_range = v.value_range;
  s.quoted = true;
  return s;
}

// ALTER SYSTEM reads postgresql.auto.conf with ParseConfigFp, which follows
// `include` and `include_if_exists`: the included file's settings take the
// directive's place in the rewrite, a missing `include` makes every ALTER
// SYSTEM fail ("could not parse contents of file"), a missing
// `include_if_exists` is dropped. `include_dir` is kept as it is.
void ExpandIncludes(const CollectContext& ctx, const std::string& dir, SqlState* state) {
  std::vector<AutoConfEntry> rows = state->auto_conf.Rows();
  bool any = false;
  for (const AutoConfEntry& e : rows) {
    std::string n = AsciiLower(e.name);
    any = any || n == "include" || n == "include_if_exists";
  }
  if (!any) return;
  state->auto_conf.Clear();
  for (AutoConfEntry& e : rows) {
    std::string n = AsciiLower(e.name);
    if (n != "include" && n != "include_if_exists") {
      state->auto_conf.Append(n, std::move(e));
      continue;
    }
    // As the tree resolves an include (conf_tree.cc): against the including file's directory.
    std::string path = !e.value.empty() && e.value[0] == '/' ? e.value : CanonicalizePath(dir + "/" + e.value);
    ReadStatus status;
    std::string error;
    std::shared_ptr<const FileCache::Entry> inc = ctx.files->Get(path, &status, &error);
    if (!inc || !inc->parsed.errors.empty()) {
      if (n == "include" || inc) state->auto_conf_parses = false;
      if (n == "include") state->auto_conf.Append(n, std::move(e));
      continue;
    }
    for (const SettingLine& line : inc->parsed.settings) {
      AutoConfEntry x = e;
      x.name = std::string(inc->text.substr(line.name.begin, line.name.end - line.name.begin));
      x.value = line.value_text;
      // The key before the row is moved: the order in which a call's
      // arguments are evaluated is unspecified (GCC built the row first, and
      // every included setting was keyed "", out of reach of SET and RESET).
      std::string key = AsciiLower(x.name);
      state->auto_conf.Append(key, std::move(x));
    }
  }
}

// What the script leaves behind, as settings after those of the cluster:
// postgresql.auto.conf is read last, and per-database/role and session
// values never decide the cluster's.
void AppendState(const SqlState& state, Originals* originals, Analysis* a) {
  for (const AutoConfEntry& e : state.auto_conf.Rows()) {
    auto it = originals->find({e.file, e.name_range.begin});
    if (!e.from_statement && it != originals->end()) {
      a->settings.push_back(std::move(it->second));
      originals->erase(it);
      continue;
    }
    StatementValue v;
    v.origin.kind = Origin::Kind::kAlterSystem;
    v.name = e.name;
    v.value = e.value;
    v.file = e.file;
    v.name_range = e.name_range;
    v.value_range = e.value_range;
    a->settings.push_back(SettingOf(*a, v));
  }
  state.scoped.ForEach([&](const StatementValue& v) { a->settings.push_back(SettingOf(*a, v)); });
  for (const StatementValue& v : state.session) a->settings.push_back(SettingOf(*a, v));
  state.tablespaces.ForEach([&](const StatementValue& v) {
    a->tablespace_settings.push_back({v.tablespace, v.name, v.value, v.file, v.name_range, v.value_range});
  });
  a->tablespaces = state.tablespace_names.Rows();
  a->session_loads = state.loads;
  state.database_tablespaces.ForEach([&](const auto& d) { a->database_tablespaces[d.first] = d.second; });
}

}  // namespace

void SqlScriptSource::Collect(const CollectContext& ctx, Analysis* a) const {
  static const UnknownHost kUnknownHost;
  const FileSystem& fs = ctx.files->fs();
  const SqlFacts* facts = a->catalog ? SqlFacts::ForMajor(a->catalog->major()) : nullptr;
  if (!facts) {
    a->failure = Analysis::Failure::kUsage;
    a->failure_message = "no SQL knowledge of this PostgreSQL major (knowledge/sql.json)";
    return;
  }
  ReadStatus status;
  std::string error;
  const std::string abs = AbsolutePath(fs, script_);
  std::shared_ptr<const FileCache::Entry> script = ctx.files->Get(abs, &status, &error);
  if (!script) {
    a->failure = status == ReadStatus::kNotReadable ? Analysis::Failure::kIo : Analysis::Failure::kUsage;
    a->failure_message = script_ + ": " + error;
    return;
  }
  SqlState state;
  Originals originals;
  int original = -1;  // the file holding the postgresql.auto.conf the script starts from
  if (options_.over_tree) {
    ReadClusterFacts(a->settings, &state);
    for (size_t i = 0; i < a->files.size(); ++i)
      if (a->files[i].auto_conf && a->files[i].included_from.file < 0) {
        TakeFile(static_cast<int>(i), a, &state, &originals);
        original = static_cast<int>(i);
      }
  } else if (!options_.auto_conf.empty()) {
    const std::string conf = AbsolutePath(fs, options_.auto_conf);
    std::shared_ptr<const FileCache::Entry> base = ctx.files->Get(conf, &status, &error);
    if (!base) {
      a->failure = status == ReadStatus::kNotReadable ? Analysis::Failure::kIo : Analysis::Failure::kUsage;
      a->failure_message = options_.auto_conf + ": " + error;
      return;
    }
    int idx = AddFile(a, conf, ctx.display_base.empty() ? options_.auto_conf : DisplayPath(conf, ctx.display_base),
                      base->text, true);
    a->files[idx].parsed = base->parsed;
    ReportSyntaxErrors(a, idx);
    for (const SettingLine& line : base->parsed.settings)
      a->settings.push_back(SettingFromLine(a->files[idx].source, line, idx));
    ReadClusterFacts(a->settings, &state);
    TakeFile(idx, a, &state, &originals);
    ExpandIncludes(ctx, ParentDirectory(conf), &state);
    original = idx;
  }
  const int file = AddFile(a, abs, ctx.display_base.empty() ? script_ : DisplayPath(abs, ctx.display_base),
                           script->text, false);
  const std::string& text = a->files[file].source.text();
  SqlStatementScanner scanner(text, {facts, a->catalog->build().max_identifier_length, {}});
  auto next = [&](const SqlLexerMode& mode, SqlStatement* out) {
    SqlStatementTokens tokens;
    if (!scanner.Next(mode, &tokens)) return false;
    *out = ParseSqlStatement(text, tokens, *facts);
    return true;
  };
  RunSqlStatements(next, *facts, ctx.host ? *ctx.host : kUnknownHost, file, &state, a);
  AppendState(state, &originals, a);
  // Only a statement that succeeds rewrites the file: otherwise its bytes
  // stay as they are, comments and hand-made lines included.
  if (options_.auto_conf_out)
    *options_.auto_conf_out = state.auto_conf_written || original < 0 ? WriteAutoConf(state.auto_conf.Rows())
                                                                     : a->files[original].source.text();
}

}  // namespace pgconflint
