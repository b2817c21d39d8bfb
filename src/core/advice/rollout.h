// A rollout: parameters to change, grouped by what applying them takes (a
// session SET, a reload, a restart: the parameter's context), with the
// statements that apply each group and the queries that verify it. Shared by
// `recommend --plan` (from a configuration to the recommendation, applied
// with ALTER SYSTEM) and `pgconflint diff` (a change of the configuration
// files, applied by deploying them).
#ifndef PGCONFLINT_CORE_ADVICE_ROLLOUT_H_
#define PGCONFLINT_CORE_ADVICE_ROLLOUT_H_

#include <ostream>
#include <string>
#include <vector>

#include "core/knowledge/catalog.h"

namespace pgconflint {

/// One parameter to change.
struct RolloutStep {
  const Parameter* param = nullptr;  // never null
  std::string now;    // the current value as shown ("4MB")
  std::string value;  // the new value, postgresql.conf spelling ("'64MB'")
  std::string why;    // shown after the change; may be empty
  std::string waits_for;  // set by WaitForCaps: the restart-only parameter that caps it
};

struct Rollout {
  std::vector<RolloutStep> session, reload, restart;
  std::vector<std::string> tablespace_sql;  // ALTER TABLESPACE statements, run on their own
  std::vector<std::string> table_sql;       // ALTER TABLE ... SET (autovacuum ...) statements, run on their own
  /// Changed pg_hba.conf and pg_ident.conf files (display paths), deployed
  /// and checked before a reload: the server keeps its old rules if it cannot
  /// load them.
  std::vector<std::string> hba_files, ident_files;
  bool empty() const {
    return session.empty() && reload.empty() && restart.empty() && tablespace_sql.empty() && table_sql.empty() &&
           hba_files.empty() && ident_files.empty();
  }
};

/// How the new values reach the server.
enum class RolloutSource {
  kAlterSystem,  // ALTER SYSTEM statements (recommend --plan); user-context ones are tried per session first
  kFiles,        // the changed configuration files are deployed (diff): a reload or a restart reads them
  kScript,       // a changed SQL script is run (diff): its ALTER SYSTEM statements, then a reload or a restart
};

/// Adds `step` to its group: postmaster parameters wait for a restart,
/// user-context ones (kAlterSystem) are tried per session, the rest reload.
/// Internal parameters cannot be changed and are left out.
void AddRolloutStep(RolloutStep step, RolloutSource source, Rollout* r);

/// Moves a step capped by a restart-only parameter that the rollout changes
/// (max_parallel_workers by max_worker_processes, io_combine_limit by
/// io_max_combine_limit, ...) to the restart: it takes effect only then.
void WaitForCaps(Rollout* r);

/// How a rollout is written: indented text (the terminal, JSON), or
/// CommonMark with a heading of `heading_level` per step and fenced code
/// blocks for the statements.
struct RolloutStyle {
  bool markdown = false;
  int heading_level = 3;
};

/// The numbered steps with their statements and verification queries.
/// `major` adds the effective values to verify after a restart (18:
/// asynchronous I/O).
void WriteRollout(const Rollout& r, int major, RolloutSource source, const RolloutStyle& style, std::ostream& o);

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_ADVICE_ROLLOUT_H_
