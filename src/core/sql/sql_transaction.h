// Whether a script's statements run in a read-only transaction: the session's
// default_transaction_read_only and a block's transaction_read_only, as the
// server applies them (the cases of tests/fixtures/sql/read_only.sql and of the
// fuzzer's regressions, asked of 14-18; RESET ALL was not asked).
#ifndef PGCONFLINT_CORE_SQL_SQL_TRANSACTION_H_
#define PGCONFLINT_CORE_SQL_SQL_TRANSACTION_H_

#include <string_view>

#include "core/sql/sql_statements.h"

namespace pgconflint {

class TransactionModes {
 public:
  /// BEGIN: the block is read-only as default_transaction_read_only is now.
  void Begin();
  /// COMMIT or ROLLBACK of the block: a rollback (and the end of a block
  /// that ran SET LOCAL default_transaction_read_only) restores the default
  /// the block began with.
  void End(bool commit);
  /// SET (on) or RESET (off) of `name` in or out of a block. Outside a block
  /// default_transaction_read_only applies from the next statement (each one
  /// is a transaction of its own) and transaction_read_only to nothing.
  void Set(std::string_view name, bool on, bool local, bool in_block);
  /// Whether SET of `name` can change the modes (the two parameters above).
  static bool Tracks(std::string_view name) {
    return name == "default_transaction_read_only" || name == "transaction_read_only";
  }
  /// Whether the statement runs read-only.
  bool ReadOnly(bool in_block) const { return in_block ? block_read_only_ : default_read_only_; }

  /// The command as a read-only transaction names it when it refuses it
  /// (ALTER ROLE, ALTER DATABASE, CREATE/ALTER TABLESPACE write catalogs);
  /// nullptr for one it runs (ALTER SYSTEM, SET, LOAD).
  static const char* WritingCommand(SqlStatement::Kind kind);

 private:
  // off at the start: the boot value (the cluster's configuration is not known here)
  bool default_read_only_ = false;
  bool block_default_read_only_ = false, local_default_ = false, block_read_only_ = false;
};

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_SQL_SQL_TRANSACTION_H_
