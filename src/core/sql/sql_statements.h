// The configuration statements of a SQL script, read with PostgreSQL's
// grammar (gram.y) for ALTER SYSTEM, ALTER DATABASE/ROLE/USER ... SET/RESET,
// SET/RESET, set_config(), CREATE/ALTER TABLESPACE, ALTER TABLE ... SET/RESET
// (...) and the transaction statements; every other statement is kept as kOther with its lexer error,
// if any. A statement the grammar refuses carries the server's message.
#ifndef PGCONFLINT_CORE_SQL_SQL_STATEMENTS_H_
#define PGCONFLINT_CORE_SQL_SQL_STATEMENTS_H_

#include <string>
#include <string_view>
#include <vector>

#include "core/base/source_file.h"
#include "core/knowledge/sql_knowledge.h"
#include "core/sql/sql_scanner.h"

namespace pgconflint {

/// One value of a SET list, as flatten_set_variable_args turns it into text.
struct SqlValue {
  enum class Kind : uint8_t { kString, kInteger, kNumeric, kWord };
  Kind kind = Kind::kString;
  std::string text;  // an integer in decimal, a numeric as written (with its sign), a string or a word
  Range range;
};

/// One option of a tablespace's or a table's SET (...), RESET (...) or WITH (...).
struct SqlOption {
  std::string name;        // folded; "namespace.name" when qualified
  std::string value;       // the text the server validates ("true" when none is given)
  bool has_value = false;
  Range range, name_range, value_range;
};

struct SqlStatement {
  enum class Kind : uint8_t {
    kOther,
    kAlterSystem,
    kAlterDatabase,    // ALTER DATABASE d SET/RESET
    kAlterRole,        // ALTER ROLE/USER r|ALL [IN DATABASE d] SET/RESET
    kSession,          // SET [LOCAL|SESSION] / RESET / set_config()
    kCreateTablespace,
    kAlterTablespace,  // SET (...) or RESET (...)
    kAlterTable,       // ALTER TABLE t SET (...) or RESET (...): its storage parameters, the one subcommand
    kDatabaseTablespace,  // CREATE DATABASE d ... TABLESPACE t, ALTER DATABASE d SET TABLESPACE t
    kBegin,            // BEGIN, START TRANSACTION
    kEndTransaction,   // COMMIT, END, ROLLBACK, ABORT, PREPARE TRANSACTION
    kLoad,             // LOAD 'library' (name: the string)
  };
  enum class Action : uint8_t { kNone, kSet, kReset, kResetAll, kFromCurrent };

  Kind kind = Kind::kOther;
  Action action = Action::kNone;
  Range range;           // the statement without its semicolon
  std::string name;      // the parameter as the grammar folds it ("datestyle", "Maintenance_Work_Mem")
  Range name_range;
  std::vector<SqlValue> values;  // empty for DEFAULT and RESET
  Range value_range;             // from the first to the last value
  std::string database;  // ALTER DATABASE d, ALTER ROLE ... IN DATABASE d
  std::string role;      // ALTER ROLE r; "" for ALTER ROLE ALL
  bool local = false;    // SET LOCAL, set_config(..., true)
  bool set_config = false;  // set_config(): the value is taken as given, never flattened
  bool commit = false;   // kEndTransaction: COMMIT or END (else a rollback)
  std::string tablespace;
  std::string table;     // kAlterTable: as written, schema-qualified when it is
  std::vector<SqlOption> options;
  /// Why the server refuses the statement's text (a lexer or grammar error),
  /// "" when it parses; `error_range` is where it points.
  std::string error;
  Range error_range;

  bool is_set() const { return action == Action::kSet; }
};

/// Parses one statement that the scanner split. `text` is the script it comes from.
SqlStatement ParseSqlStatement(std::string_view text, const SqlStatementTokens& statement, const SqlFacts& facts);

/// Parses the statements that ScanSql split.
std::vector<SqlStatement> ParseSqlStatements(std::string_view text, const std::vector<SqlStatementTokens>& statements,
                                             const SqlFacts& facts);

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_SQL_SQL_STATEMENTS_H_
