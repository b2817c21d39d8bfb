// Running git for `pgconflint diff` and `check --diff-base`: revisions are
// read with `git cat-file` into memory, never checked out. Every call runs
// git directly (no shell) and reports failure as a status with git's message.
#ifndef PGCONFLINT_CLI_GIT_H_
#define PGCONFLINT_CLI_GIT_H_

#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/base/file_system.h"

namespace pgconflint::cli {

/// Runs `git -C dir ARGS...`, with `input` on its standard input; *out gets
/// its standard output. False with *error (git's standard error, or why it
/// could not run) when git fails.
bool RunGit(const std::string& dir, const std::vector<std::string>& args, const std::string& input, std::string* out,
            std::string* error);

/// The top-level directory of the work tree containing `dir`, or "" when
/// `dir` is not inside a git work tree.
std::string GitTopLevel(const std::string& dir);

/// Adds every file of revision `rev` below the repository-relative
/// directories `under` (all when empty) to `fs` at `top`/path, as blobs of at
/// most kMaxFileSize bytes (larger ones are skipped). Symbolic links and
/// submodules are skipped. False with *error for an unknown revision.
bool LoadRevision(const std::string& top, const std::string& rev, const std::vector<std::string>& under,
                  OverlayFileSystem* fs, std::string* error);

/// The repository-relative paths that differ between `from` and `to` ("" for
/// `to`: the work tree).
bool GitChangedFiles(const std::string& top, const std::string& from, const std::string& to,
                     std::vector<std::string>* out, std::string* error);

/// The lines (1-based, of the work tree's file) added or changed since `rev`,
/// by repository-relative path.
bool GitChangedLines(const std::string& top, const std::string& rev, std::map<std::string, std::set<uint32_t>>* out,
                     std::string* error);

}  // namespace pgconflint::cli

#endif  // PGCONFLINT_CLI_GIT_H_
