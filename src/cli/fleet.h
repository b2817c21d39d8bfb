// Live servers and snapshots in `check`: the options (--live, --live-file,
// --snapshot, --jobs, --summary), taking the snapshots of a fleet
// concurrently, linting each server (or the drift of PATH against it), and
// the fleet summary table (server, version, findings, pending restarts,
// drift) in text, markdown or json.
#ifndef PGCONFLINT_CLI_FLEET_H_
#define PGCONFLINT_CLI_FLEET_H_

#include <CLI/CLI.hpp>

#include <ostream>
#include <string>
#include <vector>

#include "cli/common.h"
#include "core/model/analysis.h"

namespace pgconflint {
class SnapshotTaker;
}

namespace pgconflint::cli {

struct LiveCheckOptions {
  std::vector<std::string> conninfos;  // --live (repeatable)
  std::string conninfo_file;           // --live-file: one connection string per line
  std::vector<std::string> snapshots;  // --snapshot (repeatable)
  int jobs = 4;
  std::string summary;                 // --summary text|markdown|json: the table only
  int connect_timeout_s = 10;
  int statement_timeout_ms = 30000;
  const SnapshotTaker* taker = nullptr;  // who takes the --live snapshots: null for libpq (a test gives its own)
  bool any() const { return !conninfos.empty() || !conninfo_file.empty() || !snapshots.empty(); }
};

/// One server of a fleet, for the summary.
struct ServerRow {
  std::string server;   // label, never with a password
  std::string version;  // "" when unreachable
  std::string error;    // why it could not be checked (unreachable, or a major without knowledge); "" when it was
  bool fatal = false;
  int errors = 0, warnings = 0, info = 0, pending_restarts = 0;
  int drift = -1;  // PGC1103 findings; -1 when no PATH was compared
};

void AddLiveOptions(CLI::App* check, LiveCheckOptions* o);

/// Snapshots the servers (concurrently, at most o.jobs at a time, with a
/// progress line on stderr for more than four), reads the snapshot files,
/// and lints each: the server itself, or with `paths` the drift of each path
/// against it. A server that cannot be reached is reported on stderr and in
/// its row; the others go on. Returns the exit code so far: kExitOk,
/// kExitUsage (bad options, configuration, a server whose snapshot could not
/// be checked: a major without knowledge) or kExitInternal (a server failed).
int CheckServers(const CommonOptions& common, const LiveCheckOptions& o, const std::vector<std::string>& paths,
                 std::vector<Analysis>* analyses, std::vector<ServerRow>* rows, int* major);

/// The summary table in `format` (text, markdown or json).
void RenderSummary(const std::vector<ServerRow>& rows, const std::string& format, std::ostream& out);

}  // namespace pgconflint::cli

#endif  // PGCONFLINT_CLI_FLEET_H_
