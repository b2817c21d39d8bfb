// What a running server says of its own configuration, as findings and
// facts: the lines of its files it did not apply (pg_file_settings, PGC1102),
// the pg_hba.conf and pg_ident.conf lines it cannot load (pg_hba_file_rules,
// pg_ident_file_mappings, PGC1104), and a parameter's running value with a
// restart that is pending. `check --live` places the findings in the files
// it rebuilds from a snapshot, drift and the editor in the files being
// checked when they are the server's own.
#ifndef PGCONFLINT_CORE_SERVER_SERVER_STATE_H_
#define PGCONFLINT_CORE_SERVER_SERVER_STATE_H_

#include <optional>
#include <string>
#include <string_view>

#include "core/model/analysis.h"
#include "core/server/snapshot.h"

namespace pgconflint {

/// PGC1102 for pg_file_settings row `f`, which the server refused
/// (Snapshot::Refused), at `where` (its line). With no file (where.file
/// -1), the message names the server, its file and the line.
Diagnostic RefusedLineFinding(const Snapshot& s, const SnapshotFileSetting& f, Location where);

/// PGC1104 for `error`, which the server reports for a line of its
/// pg_hba.conf (or, `ident`, pg_ident.conf) at `where`. A rule that "cannot
/// match" is skipped by the server (a warning); any other error keeps the
/// file from loading. `placed_at`: when where.file is -1, the server's file
/// and line the message names.
Diagnostic AuthLoadFinding(const std::string& error, bool ident, Location where, const std::string& placed_at = "");

/// Adds the server's complaints about its files to `a` (REQUIRES:
/// a->catalog): each at its line when `a` read that file (the same
/// absolute path, as when the server's data directory is being edited),
/// else on the root, naming the server's file and line.
void AddServerComplaints(const Snapshot& s, Analysis* a);

/// A parameter as the server runs it.
struct RunningValue {
  std::string value;    // as SHOW spells it (128MB), from pg_settings.setting
  std::string source;   // pg_settings.source: "default", "configuration file", ...
  std::string where;    // its file:line when the server names one, else ""
  std::string context;  // pg_settings.context
  bool pending_restart = false;
  /// With a pending restart, the value the server's files give it and
  /// where (pg_file_settings), when the role may read them; else "".
  std::string pending_value, pending_where;
};

/// The running value of the parameter named `name` (any spelling the
/// catalog knows, an old name too), or nullopt when the server has none.
std::optional<RunningValue> RunningValueOf(const Snapshot& s, const Catalog& catalog, std::string_view name);

/// A pg_settings value as SHOW spells it: 16384 in units of 8kB is 128MB.
/// A parameter the catalog does not know keeps the server's unit apart.
std::string RunningText(const Catalog& catalog, const SnapshotSetting& r);

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_SERVER_SERVER_STATE_H_
