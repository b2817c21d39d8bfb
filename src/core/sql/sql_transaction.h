// The session settings that change how a script's next statements run, as the
// server applies them in and out of transaction blocks: whether they run in a
// read-only transaction (default_transaction_read_only and a block's
// transaction_read_only; the cases of tests/fixtures/sql/read_only.sql and of
// the fuzzer's regressions, asked of 14-18; RESET ALL was not asked) and how
// the lexer reads their string constants (standard_conforming_strings,
// backslash_quote; tests/fixtures/sql/standard_strings.sql).
#ifndef PGCONFLINT_CORE_SQL_SQL_TRANSACTION_H_
#define PGCONFLINT_CORE_SQL_SQL_TRANSACTION_H_

#include <string_view>

#include "core/sql/sql_scanner.h"
#include "core/sql/sql_statements.h"

namespace pgconflint {

class TransactionModes {
 public:
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
  /// RESET of `name` (RESET ALL: every setting): the value the session began
  /// with, the boot value (the cluster's configuration is not known here).
  void Reset(std::string_view name, bool local, bool in_block);
  void ResetAll(bool in_block);
  /// Whether SET of `name` can change the modes (the four parameters above).
  static bool Tracks(std::string_view name);
  /// Whether the statement runs read-only.
  bool ReadOnly(bool in_block) const { return in_block ? block_read_only_ : default_read_only_.now; }
  /// How the lexer reads the next statement.
  SqlLexerMode Lexer() const { return {standard_strings_.now, backslash_quote_.now}; }

  /// The command as a read-only transaction names it when it refuses it
  /// (ALTER ROLE, ALTER DATABASE, CREATE/ALTER TABLESPACE write catalogs);
  /// nullptr for one it runs (ALTER SYSTEM, SET, LOAD).
  static const char* WritingCommand(SqlStatement::Kind kind);

 private:
  // A session setting with its value at BEGIN and whether the block SET it LOCAL.
  struct Setting {
    bool boot, now = boot, at_begin = boot, local = false;
  };
  Setting* Find(std::string_view name);
  void Change(Setting* s, bool value, bool local, bool in_block);

  Setting default_read_only_{false};
  Setting standard_strings_{true};   // standard_conforming_strings = on
  Setting backslash_quote_{true};    // backslash_quote is not off (safe_encoding: UTF8 is safe)
  bool block_read_only_ = false;
};

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_SQL_SQL_TRANSACTION_H_
