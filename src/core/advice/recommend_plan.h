// The rollout plan: the ordered steps from an analysed configuration to a
// recommendation, each with the SQL to apply it and the query that verifies it.
#ifndef PGCONFLINT_CORE_ADVICE_RECOMMEND_PLAN_H_
#define PGCONFLINT_CORE_ADVICE_RECOMMEND_PLAN_H_

#include <string>

#include <vector>

#include "core/model/analysis.h"
#include "core/advice/recommend.h"
#include "core/server/snapshot.h"

namespace pgconflint {

/// The ordered rollout from `current` (an analysed configuration) to the
/// recommendation: session trials, tablespaces, reloads, a restart window,
/// each with the query that verifies it. Only settings outside the
/// recommended range are changed. With `tables` (a server's largest tables,
/// from its snapshot), the per-table autovacuum statements they need
/// (recommend_tables.h). REQUIRES: current.catalog non-null.
std::string RenderPlan(const Recommendation& r, const Analysis& current, bool markdown,
                       const std::vector<SnapshotTable>* tables = nullptr);

/// The same changes as a postgresql.conf fragment (the settings, each with
/// its previous value and why), with comments that say where to write it so
/// that it wins (a file named to sort last in the root's last include_dir,
/// else the end of the root file), which later lines would still override it
/// (postgresql.auto.conf, lines after that include_dir), and the rollout once
/// it is deployed (with `tables`, the per-table statements among its steps).
/// REQUIRES: current.catalog non-null.
std::string RenderPlanFragment(const Recommendation& r, const Analysis& current,
                               const std::vector<SnapshotTable>* tables = nullptr);

/// What a plan keeps of the configuration it starts from: its explicit
/// max_connections, less the reserved slots, as profile->configured_connections
/// (the recommender sizes for them unless --connections is given, and says
/// so). REQUIRES: current.catalog non-null.
void KeepConfiguredConnections(const Analysis& current, Profile* profile);

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_ADVICE_RECOMMEND_PLAN_H_
