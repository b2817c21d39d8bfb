// LOAD against the session's dynamic_library_path, as PostgreSQL 14-18 were
// measured to search it (tests/fixtures/sql/session_values.sql): a name
// without '/' is looked for in each directory of the path, first as written,
// then with the suffix ".so". The search fails at a directory that is empty,
// relative or a macro other than $libdir. It reaches each one unless a
// directory before it holds the file: only a name written with its suffix
// can be found there (a library file has it), and whether it is, the
// directory's files decide. An empty path searches nothing.
#ifndef PGCONFLINT_CORE_SQL_LIBRARY_PATH_H_
#define PGCONFLINT_CORE_SQL_LIBRARY_PATH_H_

#include <optional>
#include <string>
#include <string_view>

#include "core/knowledge/sql_knowledge.h"

namespace pgconflint {

/// Why a LOAD fails: the server's message and what in the path causes it.
struct LoadFailure {
  std::string message, why;
};

/// The failure of `LOAD 'library'` with dynamic_library_path `path`, or
/// nullopt when the search may find it. REQUIRES: facts of the server's major.
std::optional<LoadFailure> LibraryPathFailure(const SqlFacts& facts, std::string_view library, std::string_view path);

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_SQL_LIBRARY_PATH_H_
