// The statements that set no parameter by ALTER/SET syntax but matter to a
// script's configuration: transaction control (BEGIN, COMMIT, ROLLBACK...),
// CREATE DATABASE ... TABLESPACE, and set_config() calls with constant
// arguments. Internal to sql_statements.cc.
#ifndef PGCONFLINT_CORE_SQL_SQL_OTHER_STATEMENTS_H_
#define PGCONFLINT_CORE_SQL_SQL_OTHER_STATEMENTS_H_

#include <vector>

#include "core/knowledge/sql_knowledge.h"
#include "core/sql/sql_scanner.h"
#include "core/sql/sql_statements.h"

namespace pgconflint {

/// Fills *out for a statement that is not one of the configuration
/// statements gram.y's rules read: kBegin, kEndTransaction,
/// kDatabaseTablespace, kSession (set_config) or kOther, with its first
/// lexer error, if any.
void ClassifyOtherStatement(const std::vector<SqlToken>& tokens, const SqlFacts& facts, SqlStatement* out);

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_SQL_SQL_OTHER_STATEMENTS_H_
