// The passes over collected settings, in the order guc.c's
// ProcessConfigFileInternal applies them: names, duplicates, values. Each adds
// its diagnostics to the analysis; RunPasses runs them all.
#ifndef PGCONFLINT_CORE_CONF_PASSES_H_
#define PGCONFLINT_CORE_CONF_PASSES_H_

#include <span>
#include <string_view>

#include "core/model/analysis.h"
#include "core/base/host.h"

namespace pgconflint {

/// Resolves each setting's parameter (old names included): PGC101-PGC103.
void ResolveNames(Analysis* a);

/// Marks lines that a later line of the same spelling overrides (ignored) and
/// links every setting to the next setting of its parameter (overridden_by).
void ResolveDuplicates(Analysis* a);

/// Validates every value as the server does (type, unit, range, check hooks,
/// the process-count sum up to 17): PGC104, PGC201, PGC202; fills
/// Setting::value, ::applied, ::number and ::problem. Values the server
/// accepts but that surprise get PGC203-PGC205 (value_warnings.h).
/// With `only`, the settings of those parameters alone (canonical names).
void CheckValues(Analysis* a, const HostFacts& host, std::span<const std::string_view> only = {});

/// PGC303 for every line that a later line overrides, with a note at the
/// line that wins. REQUIRES: ResolveDuplicates and CheckValues ran.
void ReportOverridden(Analysis* a);

/// All of the above, in order, then sorts the diagnostics.
void RunPasses(Analysis* a, const HostFacts& host);

/// What the tree index needs of a root (which files it reads): names,
/// duplicates, and the values of the parameters that name files (hba_file,
/// ident_file). The real lint of the root runs every pass.
void RunReachPasses(Analysis* a, const HostFacts& host);

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_CONF_PASSES_H_
