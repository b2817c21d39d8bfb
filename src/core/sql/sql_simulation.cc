// Statement by statement, as the server executes a script sent by psql. Messages in
// quotes are the server's (the catalog's alter_system answers, knowledge/sql.json).
#include "core/sql/sql_simulation.h"

#include <algorithm>

#include "core/base/strings.h"
#include "core/conf/process_counts.h"
#include "core/conf/stats_flags.h"
#include "core/knowledge/extension_catalog.h"
#include "core/knowledge/hooks.h"
#include "core/knowledge/unit_spelling.h"
#include "core/model/syntax.h"
#include "core/sql/library_path.h"
#include "core/sql/sql_quote.h"
#include "core/sql/storage_options.h"
#include "core/sql/sql_transaction.h"

namespace pgconflint {
namespace {

using Kind = SqlStatement::Kind;
using Action = SqlStatement::Action;

bool IsCustom(std::string_view name) { return name.find('.') != std::string_view::npos; }

// valid_custom_variable_name: two or more parts separated by dots, each a
// letter, `_` or a byte >= 0x80 first, then also digits and `$`.
bool ValidCustomName(std::string_view name) {
  bool saw_dot = false, part_start = true;
  for (char ch : name) {
    unsigned char c = static_cast<unsigned char>(ch);
    if (c == '.') {
      if (part_start) return false;
      saw_dot = part_start = true;
    } else if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c >= 0x80) {
      part_start = false;
    } else if (!part_start && ((c >= '0' && c <= '9') || c == '$')) {
      continue;
    } else {
      return false;
    }
  }
  return saw_dot && !part_start;
}

class Runner {
 public:
  Runner(const SqlFacts& facts, const HostFacts& host, int file, SqlState* state, Analysis* a)
      : facts_(facts), host_(host), cat_(*a->catalog), file_(file), state_(*state), a_(a) {}

  void Run(const SqlStatementSource& next) {
    for (SqlStatement st; next(modes_.Lexer(), &st);) {
      if (st.kind == Kind::kBegin) {
        if (!in_block_) Begin();
        in_block_ = true;
      } else if (st.kind == Kind::kEndTransaction) {
        // COMMIT of an aborted block rolls back, like ROLLBACK.
        if (in_block_) End(!aborted_ && st.commit);
        in_block_ = aborted_ = false;
      } else if (!(in_block_ && aborted_)) {
        if (!Execute(st) && in_block_) aborted_ = true;
      } else if (!st.error.empty()) {
        // The parser runs before "current transaction is aborted": a
        // syntax error is reported there too.
        Execute(st);
      }
    }
  }

 private:
  // A transaction block: every change is journaled, and undone at its end
  // unless it commits (in time of the changes, not of the state).
  void Begin() {
    session_size_ = state_.session.size();
    modes_.Begin();
    Each([](auto& rows) { rows.Begin(); });
  }
  void End(bool commit) {
    if (!commit) state_.session.resize(session_size_);
    modes_.End(commit);
    Each([commit](auto& rows) { commit ? rows.Commit() : rows.Rollback(); });
  }
  template <class F>
  void Each(F f) {
    f(state_.auto_conf);
    f(state_.scoped);
    f(state_.tablespaces);
    f(state_.tablespace_names);
    f(state_.database_tablespaces);
  }

  static std::string Key(std::initializer_list<std::string_view> parts) {
    std::string key;
    for (std::string_view p : parts) key.append(p).push_back('\0');  // no identifier holds a NUL
    return key;
  }

  bool Execute(const SqlStatement& st) {
    if (!st.error.empty()) return Refuse(RuleId::kSqlSyntaxError, st.error_range, st.error, SyntaxHelp(st));
    const char* writing = TransactionModes::WritingCommand(st.kind);
    if (writing && modes_.ReadOnly(in_block_) && facts_.HasMessage("read_only"))
      return Refuse(RuleId::kCannotRunInTransaction, st.range, facts_.Message("read_only", {{"command", writing}}),
                    "a SET above made the transaction read-only: turn default_transaction_read_only (or "
                    "transaction_read_only) off before this statement, or run it in a session of its own");
    switch (st.kind) {
      case Kind::kAlterSystem: return AlterSystem(st);
      case Kind::kAlterDatabase:
      case Kind::kAlterRole: return Scoped(st);
      case Kind::kSession: return Session(st);
      case Kind::kCreateTablespace:
      case Kind::kAlterTablespace: return Tablespace(st);
      case Kind::kAlterTable: return TableOptionsValid(st);
      case Kind::kLoad: return Load(st);
      case Kind::kDatabaseTablespace:
        state_.database_tablespaces.Set(st.database, {st.database, st.tablespace});
        return true;
      default: return true;
    }
  }

  static std::string SyntaxHelp(const SqlStatement& st) {
    if (st.error.find("trailing junk") != std::string::npos || st.error.find("syntax error at or near") == 0)
      return "quote values that are not a plain number or a single word: '64MB', '*', '/path'";
    return "the server refuses the whole statement";
  }

  // Adds a finding; the statement fails. Always false, for `return Refuse(...)`.
  bool Refuse(RuleId rule, Range where, std::string message, std::string help, std::string parameter = "",
              std::optional<Fix> fix = std::nullopt) {
    Diagnostic d = MakeDiagnostic(Rule(rule), {file_, where}, std::move(message), std::move(help), std::move(parameter));
    if (fix) d.fixes.push_back(std::move(*fix));
    // The statement fails; no server refuses to start for it. A rule that
    // only may fail (a module may define the name) keeps its advice.
    if (IsRefusal(d.outcome)) d.Set(Outcome::kErrorsWhenRun, Severity::kError);
    a_->Add(std::move(d));
    return false;
  }

  bool Unknown(const SqlStatement& st) {
    std::vector<std::string> hint = cat_.Suggest(st.name, 1);
    return Refuse(RuleId::kUnknownParameter, st.name_range, facts_.Message("unknown", {{"name", st.name}}),
                  hint.empty() ? "check the spelling with `pgconflint params`" : "did you mean \"" + hint[0] + "\"?",
                  st.name);
  }

  // The value text the statement stores (flatten_set_variable_args), checked as the server does.
  bool Value(const SqlStatement& st, const Parameter* p, std::string* value) {
    std::string error;
    if (st.set_config) {
      *value = st.values.empty() ? "" : st.values[0].text;
    } else if (!FlattenSetValues(facts_, st.name, p && p->list_input, modes_.Value("quote_all_identifiers") == "on",
                                 st.values, value, &error)) {
      return Refuse(RuleId::kInvalidValue, st.value_range, error, "give one value, or quote a list as one string",
                    st.name);
    }
    if (!p) return true;
    ParsedValue v = CheckValue(cat_, host_, *p, *value);
    // A file and ALTER SYSTEM refuse some hidden parameters' own boot value
    // (session_authorization = ''); ALTER ROLE/DATABASE store that one value,
    // and refuse the other refused ones (default_with_oids = on).
    const bool scoped = st.kind == Kind::kAlterRole || st.kind == Kind::kAlterDatabase;
    if (!v.ok() && scoped && !p->in_pg_settings && v.normalized == p->boot_val) {
      const char* refused = RefusedValueMessage(*p, v.normalized);
      if (refused && v.message == refused) return true;
    }
    if (v.ok() && st.kind == Kind::kAlterSystem) counts_.Check(*p, &v, false);
    // Checked against the session's switches, whatever the statement.
    StatsFlags::Check(*p, &v, [this](std::string_view n) { return modes_.Value(n) == "on"; });
    if (v.ok()) return SessionKeywordsValid(st, *p, *value);
    if (v.host_dependent && !host_.is_server_host()) return true;  // the server's host decides
    std::string help = v.hint.empty() && p->min_val[0]
                           ? std::string("the range is ") + p->min_val + " .. " + p->max_val
                           : v.hint.empty() ? "see `pgconflint params " + std::string(p->name) + "`" : v.hint;
    // '2gb' as one literal: the unit in the server's spelling, when the server takes that.
    std::optional<Fix> fix;
    std::optional<std::string> fixed = AcceptedUnitCaseFix(cat_, host_, *p, *value);
    if (fixed && st.values.size() == 1) {
      help = UnitCaseHelp(*fixed, help);
      fix = MakeFix("write '" + *fixed + "'", FixSafety::kSafe, {file_, st.value_range}, QuoteLiteral(*fixed));
    }
    return Refuse(v.problem == ValueProblem::kOutOfRange ? RuleId::kValueOutOfRange : RuleId::kInvalidValue,
                  st.value_range, v.message, help, p->name, std::move(fix));
  }

  // A list whose words a backend checks where a file is not checked
  // (wal_consistency_checking from 15). False after a finding.
  bool SessionKeywordsValid(const SqlStatement& st, const Parameter& p, const std::string& value) {
    const std::vector<std::string>& words = facts_.SessionListKeywords(p.name);
    std::vector<std::string> items;  // the list syntax is the hook's (CheckValue ran)
    if (words.empty() || !SplitIdentifierList(value, ',', &items)) return true;
    for (const std::string& item : items) {
      if (std::find(words.begin(), words.end(), AsciiLower(item)) != words.end()) continue;
      return Refuse(RuleId::kInvalidValue, st.value_range,
                    "invalid value for parameter " + DoubleQuoted(p.name) + ": " + DoubleQuoted(value),
                    "a running server accepts only " + CommaList(words) + " (comma-separated)", p.name);
    }
    return true;
  }

  AutoConfEntry Entry(const SqlStatement& st, std::string value) const {
    AutoConfEntry e;
    e.name = st.name;
    e.value = std::move(value);
    e.file = file_;
    e.name_range = st.name_range;
    e.value_range = st.value_range;
    e.from_statement = true;
    return e;
  }

  bool AlterSystem(const SqlStatement& st) {
    if (in_block_)
      return Refuse(RuleId::kCannotRunInTransaction, st.range, facts_.Message("in_transaction"),
                    "run it outside BEGIN ... COMMIT; the error aborts the transaction, so the statements after it "
                    "fail and the ones before it are rolled back");
    if (state_.allow_alter_system == false && facts_.HasMessage("alter_system_disabled"))
      return Refuse(RuleId::kAlterSystemDisabled, st.range, facts_.Message("alter_system_disabled"),
                    "allow_alter_system is off in the cluster's configuration: change the setting where the "
                    "configuration is managed");
    // RESET ALL writes an empty file without reading the old one.
    if (st.action == Action::kResetAll) {
      state_.auto_conf.Clear();
      state_.auto_conf_written = true;
      state_.auto_conf_parses = true;
      return true;
    }
    if (!state_.auto_conf_parses)
      return Refuse(RuleId::kAlterSystemCannotFixAutoConf, st.range,
                    "ALTER SYSTEM fails: the existing postgresql.auto.conf has a line it cannot parse",
                    "repair postgresql.auto.conf by hand, or run ALTER SYSTEM RESET ALL (it writes an empty file "
                    "without reading the old one)");
    const Parameter* p = cat_.FindAnyName(st.name);
    if (!p && !CustomAllowed(st)) return false;
    if (p && !SettableByAlterSystem(*p))
      return Refuse(RuleId::kParameterCannotBeChanged, st.name_range, p->alter_system_message,
                    "remove the statement: no SQL can change this parameter", p->name);
    if (!st.is_set()) {
      state_.auto_conf.Erase(AsciiLower(st.name));
      state_.auto_conf_written = true;
      return true;
    }
    std::string value;
    if (!Value(st, p, &value)) return false;
    if (value.find('\n') != std::string::npos && facts_.HasMessage("newline"))
      return Refuse(RuleId::kInvalidValue, st.value_range, facts_.Message("newline"),
                    "postgresql.auto.conf holds one setting per line: write the value without a line break",
                    p ? std::string(p->name) : st.name);
    // replace_auto_config_value: every entry of the name (ASCII case
    // ignored) goes, the new one is appended.
    state_.auto_conf.Set(AsciiLower(st.name), Entry(st, std::move(value)));
    state_.auto_conf_written = true;
    // A name the configuration file lexer does not read (a custom name with
    // `$` or three parts): the file is written, and every later ALTER
    // SYSTEM, like the next start, fails to parse it.
    if (!Parse(st.name + " = ''\n").errors.empty()) {
      state_.auto_conf_parses = false;
      Diagnostic d = MakeDiagnostic(Rule(RuleId::kAlterSystemCannotFixAutoConf), {file_, st.name_range},
                                    "ALTER SYSTEM writes " + DoubleQuoted(st.name) + " into postgresql.auto.conf, where "
                                    "the configuration file syntax cannot read it: later ALTER SYSTEM statements "
                                    "and the next server start fail",
                                    "use a name of two identifiers without `$` (myapp.setting), then remove the line "
                                    "from postgresql.auto.conf by hand",
                                    st.name);
      d.Set(Outcome::kAdvisory, Severity::kError);
      a_->Add(std::move(d));
    }
    return true;
  }

  // A name the catalog does not know, in ALTER SYSTEM: custom names as the
  // major allows them; other names are refused.
  bool CustomAllowed(const SqlStatement& st) {
    if (!IsCustom(st.name)) {
      std::string lower = AsciiLower(st.name);
      bool in_file = state_.auto_conf.Find(lower) != nullptr;
      if (!st.is_set() && in_file)
        return Refuse(RuleId::kAlterSystemCannotFixAutoConf, st.name_range,
                      facts_.Message("unknown", {{"name", st.name}}) +
                          ": ALTER SYSTEM RESET cannot remove the entry postgresql.auto.conf has for it",
                      "remove the line by hand, or run ALTER SYSTEM RESET ALL (which removes every entry)",
                      st.name);
      return Unknown(st);
    }
    const char* key = st.is_set() ? "custom_alter_system" : "custom_reset";
    if (!facts_.HasMessage(key) || state_.placeholders.count(AsciiLower(st.name))) return CustomNameValid(st);
    return Refuse(RuleId::kUnregisteredCustomParameter, st.name_range, facts_.Message(key, {{"name", st.name}}),
                  "up to PostgreSQL 16 the name must be defined first: load the module that defines it "
                  "(shared_preload_libraries, LOAD) or set it in postgresql.conf; 17 and later accept it",
                  st.name);
  }

  // LOAD 'library': the module is in the session from here on.
  bool Load(const SqlStatement& st) {
    if (!LibraryPathSearchable(st)) return false;
    state_.loads.push_back({ModuleName(st.name), st.range.begin});
    return true;
  }

  // The session's dynamic_library_path must let LOAD find the library (core/sql/library_path.h).
  bool LibraryPathSearchable(const SqlStatement& st) {
    std::optional<LoadFailure> f = LibraryPathFailure(facts_, st.name, modes_.Value("dynamic_library_path"));
    if (!f) return true;
    return Refuse(RuleId::kLoadLibraryPathInvalid, st.range, std::move(f->message),
                  f->why + ": make every directory of dynamic_library_path absolute or $libdir (RESET "
                  "dynamic_library_path restores $libdir), or LOAD the library by its path ('$libdir/" +
                      ModuleName(st.name) + "')",
                  "dynamic_library_path");
  }

  // 15+: once a module that reserves its prefix is loaded, SET and ALTER
  // ROLE/DATABASE refuse a name under it that the module does not define.
  bool ReservedPrefixAllows(const SqlStatement& st) {
    if (!facts_.HasMessage("reserved_prefix")) return true;
    const ExtensionCatalog* ext = ExtensionCatalog::ForMajor(cat_.major());
    if (!ext || ext->Find(st.name)) return true;
    const ExtensionPrefix* prefix = nullptr;
    const ExtensionModule* m = ext->ModuleForPrefix(st.name.substr(0, st.name.find('.')), &prefix);
    if (!m || !prefix || !prefix->reserved ||
        std::none_of(state_.loads.begin(), state_.loads.end(), [m](const SessionLoad& l) { return l.module == m->name; }))
      return true;
    return Refuse(RuleId::kUnknownParameter, st.name_range, facts_.Message("reserved_prefix", {{"name", st.name}}),
                  DoubleQuoted(prefix->prefix) + " is a reserved prefix: the session loaded " + m->name +
                      ", which defines no such parameter (see `pgconflint params --extensions " + m->name + "`)",
                  st.name);
  }

  // A custom name the server can store. False after a finding.
  bool CustomNameValid(const SqlStatement& st) {
    if (ValidCustomName(st.name) || !facts_.HasMessage("invalid_custom_name")) return true;
    return Refuse(RuleId::kUnknownParameter, st.name_range, facts_.Message("invalid_custom_name", {{"name", st.name}}),
                  "custom parameter names are two or more simple identifiers separated by dots (letters, digits, _ "
                  "and $, not starting with a digit or $): rename it, e.g. myapp.setting",
                  st.name);
  }

  // The checks ALTER DATABASE/ROLE ... SET and SET share: the name, then the
  // parameter's context. False after a finding.
  bool SessionParameter(const SqlStatement& st, const Parameter** out) {
    *out = cat_.FindAnyName(st.name);
    if (!*out) {
      if (!IsCustom(st.name)) return Unknown(st);
      if (!CustomNameValid(st) || !ReservedPrefixAllows(st)) return false;
      // The session now has a placeholder for it: ALTER SYSTEM accepts the name (up to 16).
      if (st.is_set()) state_.placeholders.insert(AsciiLower(st.name));
      return true;
    }
    const std::string& refusal = facts_.ContextRefusal((*out)->name);
    if (refusal.empty()) return true;
    bool internal = (*out)->context == Context::kInternal;
    return Refuse(internal ? RuleId::kParameterCannotBeChanged : RuleId::kParameterNotSettablePerSession,
                  st.name_range, refusal,
                  internal ? "remove the statement: no SQL can change this parameter"
                           : "set it for the whole cluster (postgresql.conf or ALTER SYSTEM), then reload or "
                             "restart as its context (" + std::string(ContextName((*out)->context)) + ") requires",
                  (*out)->name);
  }

  bool Scoped(const SqlStatement& st) {
    Origin origin{st.kind == Kind::kAlterDatabase ? Origin::Kind::kAlterDatabase : Origin::Kind::kAlterRole,
                  st.database, st.role};
    const std::string scope = Key({st.database, st.role});
    if (st.action == Action::kResetAll) {
      state_.scoped.EraseGroup(scope);
      return true;
    }
    const Parameter* p = nullptr;
    if (!SessionParameter(st, &p)) return false;
    std::string value;
    if (st.action == Action::kFromCurrent) return true;  // the session's value: unknown here
    if (st.is_set() && !Value(st, p, &value)) return false;
    if (st.is_set() && p && !ScopedValueAccepted(st, *p, value)) return false;
    const std::string key = scope + AsciiLower(st.name);
    if (st.is_set()) state_.scoped.Set(key, {origin, st.name, value, file_, st.name_range, st.value_range, ""}, scope);
    else state_.scoped.Erase(key);
    return true;
  }

  // A value the check hook judges against the running session
  // (transaction_isolation = 'serializable' after the statement's snapshot).
  bool ScopedValueAccepted(const SqlStatement& st, const Parameter& p, const std::string& value) {
    // As written (an enum's -C output may differ: transaction_isolation
    // prints "read committed" for every value in a file), then as -C prints it.
    const std::string* refusal = &facts_.ScopedValueRefusal(p.name, value);
    if (refusal->empty()) {
      ParsedValue v = CheckValue(cat_, host_, p, value);
      if (v.ok()) refusal = &facts_.ScopedValueRefusal(p.name, v.normalized);
    }
    if (refusal->empty()) return true;
    return Refuse(RuleId::kInvalidValue, st.value_range, *refusal,
                  "ALTER ROLE/DATABASE ... SET cannot store this value: set it per transaction (BEGIN ISOLATION LEVEL "
                  "..., SET TRANSACTION) or with its default_ parameter (default_transaction_isolation, ...)",
                  p.name);
  }

  bool Session(const SqlStatement& st) {
    if (st.action == Action::kResetAll) {
      modes_.ResetAll(in_block_);
      return true;
    }
    const Parameter* p = nullptr;
    if (!SessionParameter(st, &p)) return false;
    std::string value;
    if (p && !st.is_set()) modes_.Reset(p->name, st.local, in_block_);
    if (!st.is_set()) return true;
    if (!Value(st, p, &value)) return false;
    if (p && TransactionModes::Tracks(p->name)) {
      ParsedValue v = CheckValue(cat_, host_, *p, value);
      if (v.ok()) modes_.Set(p->name, v.normalized, st.local, in_block_);
    }
    state_.session.push_back({{Origin::Kind::kSession, "", ""}, st.name, value, file_, st.name_range, st.value_range, ""});
    return true;
  }

  // The script names tablespace st.tablespace (kept once, where first named).
  void Named(const SqlStatement& st) {
    if (!state_.tablespace_names.Find(st.tablespace))
      state_.tablespace_names.Set(st.tablespace, {st.tablespace, file_, st.range});
  }

  bool Tablespace(const SqlStatement& st) {
    KeyedRows<StatementValue>& opts = state_.tablespaces;
    auto option = [&](const std::string& name) { return Key({st.tablespace, name}); };
    if (st.kind == Kind::kAlterTablespace && st.action == Action::kReset) {
      Named(st);
      for (const SqlOption& o : st.options) opts.Erase(option(o.name));
      return true;
    }
    if (st.kind == Kind::kCreateTablespace && in_block_ && facts_.HasMessage("ts_in_transaction"))
      return Refuse(RuleId::kCannotRunInTransaction, st.range, facts_.Message("ts_in_transaction"),
                    "run it outside BEGIN ... COMMIT");
    if (!TablespaceOptionsValid(st)) return false;
    Named(st);
    if (st.kind == Kind::kCreateTablespace) opts.EraseGroup(st.tablespace);
    for (const SqlOption& o : st.options)
      opts.Set(option(o.name),
               {{Origin::Kind::kFile, "", ""}, o.name, o.value, file_, o.name_range, o.value_range, st.tablespace},
               st.tablespace);
    return true;
  }

  // Reports every refusal of a statement's storage options (storage_options.h).
  bool RefuseAll(const std::vector<OptionRefusal>& refusals) {
    for (const OptionRefusal& r : refusals) Refuse(r.rule, r.where, r.message, r.help);
    return refusals.empty();
  }
  bool TablespaceOptionsValid(const SqlStatement& st) {
    return RefuseAll(CheckTablespaceOptions(facts_, cat_, st.options));
  }
  bool TableOptionsValid(const SqlStatement& st) {
    return st.action != Action::kSet || RefuseAll(CheckTableOptions(facts_, cat_, st.options));
  }

  const SqlFacts& facts_;
  const HostFacts& host_;
  const Catalog& cat_;
  const int file_;
  SqlState& state_;
  Analysis* a_;
  ProcessCounts counts_{cat_};  // the session's values: boot values (the script's cluster is not running)
  bool in_block_ = false, aborted_ = false;
  size_t session_size_ = 0;  // SETs before the block
  TransactionModes modes_{cat_};  // read-only or not, the lexer's mode, the session's values that later statements read
};

}  // namespace

void RunSqlStatements(const SqlStatementSource& next, const SqlFacts& facts, const HostFacts& host, int file,
                      SqlState* state, Analysis* a) {
  Runner(facts, host, file, state, a).Run(next);
}

}  // namespace pgconflint
