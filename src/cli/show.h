// Rendering of `pgconflint show`: configured and effective values with the
// line that sets them, as text or JSON.
#ifndef PGCONFLINT_CLI_SHOW_H_
#define PGCONFLINT_CLI_SHOW_H_

#include <ostream>
#include <string>
#include <vector>

#include "core/model/analysis.h"
#include "core/rules/profile.h"

namespace pgconflint {

/// Writes `show` output for `names` (default: every parameter the files set,
/// and the derived values) to `out`; names that are neither a parameter nor a
/// derived value are appended to `unknown`. The text form escapes control
/// characters that come from the files. With `scope`, the values sessions of
/// that database and/or role start with (ALTER DATABASE/ROLE ... SET over the
/// cluster's). Values the server computes from the host (the huge pages of
/// shared_memory_size_in_huge_pages) read `profile` (null: its defaults).
/// REQUIRES: analysis.catalog non-null.
void RenderShow(const Analysis& analysis, const std::vector<std::string>& names, bool json, std::ostream& out,
                std::vector<std::string>* unknown, const Scope* scope = nullptr, const Profile* profile = nullptr);

}  // namespace pgconflint

#endif  // PGCONFLINT_CLI_SHOW_H_
