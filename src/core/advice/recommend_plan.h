// The rollout plan: the ordered steps from an analysed configuration to a
// recommendation, each with the SQL to apply it and the query that verifies it.
#ifndef PGCONFLINT_CORE_ADVICE_RECOMMEND_PLAN_H_
#define PGCONFLINT_CORE_ADVICE_RECOMMEND_PLAN_H_

#include <string>

#include "core/model/analysis.h"
#include "core/advice/recommend.h"

namespace pgconflint {

/// The ordered rollout from `current` (an analysed configuration) to the
/// recommendation: session trials, tablespaces, reloads, a restart window,
/// each with the query that verifies it. Only settings outside the
/// recommended range are changed. REQUIRES: current.catalog non-null.
std::string RenderPlan(const Recommendation& r, const Analysis& current, bool markdown);

/// What a plan keeps of the configuration it starts from when the profile
/// does not say: without --connections, the explicit max_connections (a line
/// that sets it, less the reserved slots) is the clients to size for, so the
/// plan does not lower it. Returns the assumption to show, "" when nothing
/// was taken. REQUIRES: current.catalog non-null.
std::string KeepConfiguredConnections(const Analysis& current, Profile* profile);

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_ADVICE_RECOMMEND_PLAN_H_
