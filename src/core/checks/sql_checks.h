// Checks about SQL-side configuration that need more than one statement:
// the lines of postgresql.auto.conf that block every reload (PGC1009), and
// tablespace options against the storage the profile gives each tablespace
// (PGC1012, as PGC703 does for the cluster's settings).
#ifndef PGCONFLINT_CORE_CHECKS_SQL_CHECKS_H_
#define PGCONFLINT_CORE_CHECKS_SQL_CHECKS_H_

#include "core/model/analysis.h"
#include "core/checks/rule_engine.h"

namespace pgconflint {

/// PGC1009 for every line of a postgresql.auto.conf file that the server
/// cannot read at a reload: a syntax error or an unknown parameter name.
/// REQUIRES: the passes ran (ResolveNames).
void ReportAutoConfTraps(Analysis* a);

/// PGC1012 for tablespace options outside the range `recommend` gives for
/// the storage the profile names for their tablespace (--tablespace).
void AddTablespaceHints(const EngineOptions& options, Analysis* a);

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_CHECKS_SQL_CHECKS_H_
