// PGC703 (setting-outside-recommended-range): `check` quoting `recommend`.
// It lives above both the rule engine and the recommender (the engine does
// not run the recommender, the recommender does not run `check`) and runs
// after the rules, so that it stays silent where a storage rule already
// reported the same line.
#ifndef PGCONFLINT_CORE_CHECKS_RECOMMENDATION_HINTS_H_
#define PGCONFLINT_CORE_CHECKS_RECOMMENDATION_HINTS_H_

#include "core/model/analysis.h"
#include "core/checks/rule_engine.h"

namespace pgconflint {

/// Adds an info finding for each storage-dependent setting outside the range
/// `recommend` gives for the profile's storage, quoting the range, the start
/// value and the reason. Does nothing without a storage in the profile, with
/// options.recommendation_hints off, when options.rules lacks PGC703 or the
/// analysis' major is outside its versions, or for a root that could not be
/// read. REQUIRES: the options RunRules was given, after RunRules.
void AddRecommendationHints(const EngineOptions& options, Analysis* analysis);

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_CHECKS_RECOMMENDATION_HINTS_H_
