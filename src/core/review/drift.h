// Drift: the repository's configuration against the one a server runs
// (`check PATH --live CONNINFO`, `check PATH --snapshot FILE`). For each
// parameter that either side sets, the values are compared as the server
// prints them (pg_settings.setting, in the base unit), and a difference is
// a finding that says where the running value comes from; a value waiting
// for a restart is compared with what the server's files say as well
// (pg_file_settings), and each database and role setting
// (pg_db_role_setting) with the value the repository gives those sessions.
#ifndef PGCONFLINT_CORE_REVIEW_DRIFT_H_
#define PGCONFLINT_CORE_REVIEW_DRIFT_H_

#include "core/model/analysis.h"
#include "core/server/snapshot.h"

namespace pgconflint {

/// Adds PGC1103 (configuration-drift) for every parameter whose value in
/// `repo` (an analysis of the repository's files, passes run) differs from
/// the server's, and PGC1102 for the lines of the server's files it could
/// not apply. Findings stand at the repository's deciding line, or at the
/// root when the repository does not set the parameter.
void CompareWithServer(const Snapshot& server, Analysis* repo);

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_REVIEW_DRIFT_H_
