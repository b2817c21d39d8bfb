// `check --diff-base REV`: a reviewer's filter. Of the findings of the work
// tree, keep those on lines changed since REV (or whose note points at one:
// the line that now overrides another), and those that are new since REV in
// a root the change touches (matched by fingerprint, so a finding that only
// moved is not new: the memory budget broken by a changed fragment is).
#ifndef PGCONFLINT_CLI_DIFF_BASE_H_
#define PGCONFLINT_CLI_DIFF_BASE_H_

#include <string>
#include <vector>

#include "core/model/analysis.h"
#include "core/workspace/workspace.h"

namespace pgconflint::cli {

/// Filters `analyses` (linted from the work tree with `options`) to the
/// change since `rev`. REV's files are read from git into memory. False with
/// *error when the current directory is not in a git work tree or REV is
/// unknown.
bool FilterToChange(const std::string& rev, const WorkspaceOptions& options, std::vector<Analysis>* analyses,
                    std::string* error);

}  // namespace pgconflint::cli

#endif  // PGCONFLINT_CLI_DIFF_BASE_H_
