// Running a script's configuration statements as the server does, statement
// by statement: what each statement changes in the cluster's state (the
// postgresql.auto.conf entries, pg_db_role_setting rows, tablespace options,
// session settings), and a finding for each statement the server refuses.
// Transaction blocks are honoured: a failure aborts the block, whose
// statements are then rolled back, as is everything before ROLLBACK.
// Internal to sql_source.cc and its tests.
#ifndef PGCONFLINT_CORE_SQL_SQL_SIMULATION_H_
#define PGCONFLINT_CORE_SQL_SQL_SIMULATION_H_

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/model/analysis.h"
#include "core/sql/auto_conf_writer.h"
#include "core/base/host.h"
#include "core/base/keyed_rows.h"
#include "core/knowledge/sql_knowledge.h"
#include "core/sql/sql_scanner.h"
#include "core/sql/sql_statements.h"

namespace pgconflint {

/// One value a statement leaves behind (a pg_db_role_setting entry, a
/// session setting, a tablespace option), with the statement that set it.
struct StatementValue {
  Origin origin;            // its kind and scope
  std::string name, value;  // the parameter (or option) as written, and the value text
  int file = -1;
  Range name_range, value_range;
  std::string tablespace;   // tablespace options only
};

/// The cluster's state as far as a script changes it. Keyed, so that a
/// statement costs O(1) on average however many roles, databases or
/// tablespaces the script names (core/base/keyed_rows.h).
struct SqlState {
  KeyedRows<AutoConfEntry> auto_conf;  // by name in lower case (guc_name_compare)
  bool auto_conf_parses = true;        // ALTER SYSTEM can read the existing file
  bool auto_conf_written = false;      // a statement rewrote it (else the server leaves its bytes alone)
  KeyedRows<StatementValue> scoped;    // pg_db_role_setting rows, by scope and name; grouped by scope
  std::vector<StatementValue> session;      // SET, set_config()
  KeyedRows<StatementValue> tablespaces;    // options, by tablespace and option; grouped by tablespace
  KeyedRows<TablespaceRef> tablespace_names;  // each tablespace created or altered, once, where first named
  KeyedRows<std::pair<std::string, std::string>> database_tablespaces;  // database -> tablespace
  /// From the configuration the script runs against: allow_alter_system
  /// (nullopt: unknown) and the custom names it defines (lower case).
  std::optional<bool> allow_alter_system;
  /// The script's LOAD statements, in order.
  std::vector<SessionLoad> loads;
  std::set<std::string> placeholders;
};

/// The script's statements one at a time into *out, each read with the
/// lexer mode the statements before it leave; false at the end.
using SqlStatementSource = std::function<bool(const SqlLexerMode& mode, SqlStatement* out)>;

/// Runs the statements of the script `file` of `a` against `state`; adds a
/// diagnostic to `a` for each statement the server would refuse.
/// REQUIRES: a->catalog non-null; `facts` of the same major.
void RunSqlStatements(const SqlStatementSource& next, const SqlFacts& facts, const HostFacts& host, int file,
                      SqlState* state, Analysis* a);

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_SQL_SQL_SIMULATION_H_
