// The session settings that change how a script's next statements run, as the
// server applies them in and out of transaction blocks: whether they run in a
// read-only transaction (default_transaction_read_only and a block's
// transaction_read_only; the cases of tests/fixtures/sql/read_only.sql and of
// the fuzzer's regressions, asked of 14-18; RESET ALL was not asked), how
// the lexer reads their string constants (standard_conforming_strings,
// backslash_quote; tests/fixtures/sql/standard_strings.sql), where LOAD
// looks for a library (dynamic_library_path), which statistics switches
// a statement may turn on (StatsFlags) and how a list value is quoted
// (quote_all_identifiers).
#ifndef PGCONFLINT_CORE_SQL_SQL_TRANSACTION_H_
#define PGCONFLINT_CORE_SQL_SQL_TRANSACTION_H_

#include <iterator>
#include <string>
#include <string_view>

#include "core/knowledge/catalog.h"
#include "core/sql/sql_scanner.h"
#include "core/sql/sql_statements.h"

namespace pgconflint {

class TransactionModes {
 public:
  /// The session begins with the boot values of `catalog` (the cluster's
  /// configuration is not known here).
  explicit TransactionModes(const Catalog& catalog);
  /// BEGIN: the block is read-only as default_transaction_read_only is now.
  void Begin();
  /// COMMIT or ROLLBACK of the block: a rollback (and the end of a block
  /// that ran SET LOCAL of a setting) restores the value the block began with.
  void End(bool commit);
  /// SET of `name` to `normalized` (the value as the server shows it) in or
  /// out of a block. Outside a block a setting applies from the next
  /// statement (each one is a transaction of its own), transaction_read_only
  /// to nothing, and SET LOCAL changes nothing.
  void Set(std::string_view name, std::string_view normalized, bool local, bool in_block);
  /// RESET of `name` (RESET ALL: every setting): the boot value.
  void Reset(std::string_view name, bool local, bool in_block);
  void ResetAll(bool in_block);
  /// Whether SET of `name` can change the modes (the parameters above and
  /// below).
  static bool Tracks(std::string_view name);
  /// Whether the statement runs read-only.
  bool ReadOnly(bool in_block) const { return in_block ? block_read_only_ : Now(kReadOnly) == "on"; }
  /// How the lexer reads the next statement.
  SqlLexerMode Lexer() const { return {Now(kStandardStrings) == "on", Now(kBackslashQuote) != "off"}; }
  /// The session's value now of a parameter Tracks (dynamic_library_path,
  /// which LOAD searches; the statistics switches of StatsFlags;
  /// quote_all_identifiers), as the server shows it; "" for another name.
  std::string_view Value(std::string_view name) const;

  /// The command as a read-only transaction names it when it refuses it
  /// (ALTER ROLE, ALTER DATABASE, CREATE/ALTER TABLESPACE write catalogs);
  /// nullptr for one it runs (ALTER SYSTEM, SET, LOAD).
  static const char* WritingCommand(SqlStatement::Kind kind);

 private:
  // A session setting with its value at BEGIN and whether the block SET it LOCAL.
  struct Setting {
    std::string boot, now, at_begin;
    bool local = false;
  };
  static constexpr std::string_view kNames[] = {
      "default_transaction_read_only", "standard_conforming_strings", "backslash_quote", "dynamic_library_path",
      "log_statement_stats", "log_parser_stats", "log_planner_stats", "log_executor_stats", "quote_all_identifiers"};
  static constexpr size_t kReadOnly = 0, kStandardStrings = 1, kBackslashQuote = 2;
  static constexpr size_t kCount = std::size(kNames);
  const std::string& Now(size_t i) const { return settings_[i].now; }
  Setting* Find(std::string_view name);
  void Change(Setting* s, std::string_view value, bool local, bool in_block);

  Setting settings_[kCount];
  bool block_read_only_ = false;
};

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_SQL_SQL_TRANSACTION_H_
