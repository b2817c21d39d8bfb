// `check --fix` and `check --diff`: the safe fixes of the diagnostics
// (quoting, renamed parameters, units, dead duplicate lines) applied until
// none is left, first in memory (an overlay over the disk, re-linted after
// each round), then written atomically (--fix) or shown as a unified diff
// (--diff). No byte outside an edit changes; permissions and line endings
// are kept.
#ifndef PGCONFLINT_CLI_FIX_H_
#define PGCONFLINT_CLI_FIX_H_

#include <functional>
#include <string>
#include <vector>

#include "core/model/analysis.h"
#include "core/base/file_system.h"

namespace pgconflint::cli {

enum class FixMode { kWrite, kDiff };

struct FixOutcome {
  int exit_code = 0;    // kExitOk, or kExitInternal when a file could not be written
  int fixes = 0;        // fixes applied
  int files = 0;        // files changed
};

/// Applies the safe fixes of `analyses` to `overlay` and calls `relint` (which
/// lints every target again through `overlay`, into `analyses`) until no safe
/// fix applies. Then, for kWrite, writes each changed file (the file named
/// `stdin_file`, absolute, goes to standard output instead) and lists each
/// fix on standard error; for kDiff, prints unified diffs on standard output.
FixOutcome ApplySafeFixes(FixMode mode, OverlayFileSystem* overlay, const std::string& stdin_file,
                          const std::function<bool()>& relint, std::vector<Analysis>* analyses);

}  // namespace pgconflint::cli

#endif  // PGCONFLINT_CLI_FIX_H_
