// Rendering of `pgconflint show`: configured and effective values with the
// line that sets them, as text or JSON.
#ifndef PGCONFLINT_CLI_SHOW_H_
#define PGCONFLINT_CLI_SHOW_H_

#include <ostream>
#include <string>
#include <vector>

#include "core/model/analysis.h"

namespace pgconflint {

/// Writes `show` output for `names` (default: every parameter the files set,
/// and the derived values) to `out`; names that are neither a parameter nor a
/// derived value are appended to `unknown`. The text form escapes control
/// characters that come from the files. With `scope`, the values sessions of
/// that database and/or role start with (ALTER DATABASE/ROLE ... SET over the
/// cluster's). REQUIRES: analysis.catalog non-null.
void RenderShow(const Analysis& analysis, const std::vector<std::string>& names, bool json, std::ostream& out,
                std::vector<std::string>* unknown, const Scope* scope = nullptr);

}  // namespace pgconflint

#endif  // PGCONFLINT_CLI_SHOW_H_
