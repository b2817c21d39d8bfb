// The server's checks of storage options in SQL scripts: a tablespace's
// (CREATE/ALTER TABLESPACE ... SET/WITH (...)) and a table's (ALTER TABLE ...
// SET (...)), against the options each major accepts (knowledge/sql.json),
// with the server's messages.
#ifndef PGCONFLINT_CORE_SQL_STORAGE_OPTIONS_H_
#define PGCONFLINT_CORE_SQL_STORAGE_OPTIONS_H_

#include <string>
#include <vector>

#include "core/knowledge/catalog.h"
#include "core/knowledge/sql_knowledge.h"
#include "core/rules/rule_ids.h"
#include "core/sql/sql_statements.h"

namespace pgconflint {

/// Why the server refuses one option: the rule, where, its message and a hint.
struct OptionRefusal {
  RuleId rule;
  Range where;
  std::string message, help;
};

/// tablespace_reloptions: known names, each once, values of the option's type
/// within its range. Every refusal, in option order.
std::vector<OptionRefusal> CheckTablespaceOptions(const SqlFacts& facts, const Catalog& cat,
                                                  const std::vector<SqlOption>& options);

/// heap_reloptions for ALTER TABLE ... SET (...): known names, each once,
/// values of the option's type. A `toast.` option is validated by the server
/// only where the table has a TOAST table, which a script does not tell: it
/// is taken as written.
std::vector<OptionRefusal> CheckTableOptions(const SqlFacts& facts, const Catalog& cat,
                                             const std::vector<SqlOption>& options);

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_SQL_STORAGE_OPTIONS_H_
