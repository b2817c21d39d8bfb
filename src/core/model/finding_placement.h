// Where findings go when no single line decides them, and how findings about
// one problem become one: a finding about a parameter that no line sets is
// about the default, placed where a reader would set the parameter, and only
// for a whole configuration (Analysis::whole_configuration: a lone
// postgresql.auto.conf or conf.d fragment is not blamed for the cluster's
// defaults); findings of several
// cross-parameter rules about the same setting fold into the most specific.
#ifndef PGCONFLINT_CORE_MODEL_FINDING_PLACEMENT_H_
#define PGCONFLINT_CORE_MODEL_FINDING_PLACEMENT_H_

#include <string_view>

#include "core/model/analysis.h"

namespace pgconflint {

/// Where a finding about `parameter` at its default goes: the commented-out
/// line for it in the root file (`#shared_buffers = 128MB`: the name, then
/// '='), where a reader
/// would set it), else the end of the root file's last line (where one would
/// add it). REQUIRES: a.files non-empty.
Location DefaultLocation(const Analysis& a, std::string_view parameter);

/// Folds the findings of cross-parameter rules (PGC4xx-PGC7xx) that point at
/// the same place and parameter into one: the most severe, then the lowest
/// code, is kept, with the others in its `also` (their rules and messages)
/// and its outcome the strongest of the group. Other findings are kept as
/// they are.
void FoldRelatedFindings(Analysis* a);

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_MODEL_FINDING_PLACEMENT_H_
