// The finding for a file pgconflint does not read because it lies outside
// the tree being checked (PGC305): one wording for postgresql.conf's
// includes, postgresql.auto.conf, pg_hba.conf and pg_ident.conf and the
// files they name.
#ifndef PGCONFLINT_CORE_MODEL_OUTSIDE_TREE_H_
#define PGCONFLINT_CORE_MODEL_OUTSIDE_TREE_H_

#include <string>
#include <vector>

#include "core/model/diagnostic.h"
#include "core/base/file_system.h"

namespace pgconflint {

/// PGC305 at `where` for `abs` (shown as `display`): a directory when `dir`;
/// `strict` when the server does not start without it. A path in one of
/// `trees` (a link leading out) is shown with where it leads; `abs` is
/// otherwise never resolved nor asked about (it names a file of the
/// server's host).
Diagnostic OutsideTreeDiagnostic(const FileSystem& fs, const std::string& abs, const std::string& display, bool dir,
                                 bool strict, const std::vector<std::string>& trees, Location where);

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_MODEL_OUTSIDE_TREE_H_
