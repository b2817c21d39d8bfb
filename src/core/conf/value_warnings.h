// Values the server accepts but that surprise a reader: rounding, octal and
// hexadecimal literals, a number without its unit, silent adjustments.
#ifndef PGCONFLINT_CORE_CONF_VALUE_WARNINGS_H_
#define PGCONFLINT_CORE_CONF_VALUE_WARNINGS_H_

#include "core/model/analysis.h"
#include "core/knowledge/value.h"

namespace pgconflint {

/// Adds PGC203-PGC205 for the applied setting `s` whose value parsed as `v`.
void WarnAboutValue(const Setting& s, const ParsedValue& v, Analysis* a);

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_CONF_VALUE_WARNINGS_H_
