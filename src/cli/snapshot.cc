// `pgconflint snapshot CONNINFO`: a running server's configuration as JSON
// (core/server/snapshot.h), for `check --snapshot` later or elsewhere.
#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "cli/common.h"
#include "live/live.h"

namespace pgconflint::cli {
namespace {

struct SnapshotOptions {
  std::string conninfo;
  live::LiveOptions live;
};

int RunSnapshot(const SnapshotOptions& o) {
  live::LibpqSnapshotTaker taker(o.live);
  std::string json, label, error;
  if (!taker.Take(o.conninfo, &json, &label, &error)) {
    PrintError(error);
    return kExitInternal;
  }
  if (!live::MaskSnapshotSecrets(&json, 2, &error)) {
    PrintError(label + ": " + error);
    return kExitInternal;
  }
  std::cout << json << "\n";
  return std::cout.flush() ? kExitOk : kExitInternal;
}

}  // namespace

Command AddSnapshot(CLI::App* app, bool full) {
  auto o = std::make_shared<SnapshotOptions>();
  CLI::App* snap = app->add_subcommand("snapshot", "Write a running server's configuration as JSON (for check --snapshot)");
  if (!full) return {snap, {}};
  snap->add_option("CONNINFO", o->conninfo, "libpq connection string (URI or key=value)")->required();
  snap->add_option("--connect-timeout", o->live.connect_timeout_s, "Seconds to wait for the connection")
      ->check(CLI::Range(1, 3600))
      ->capture_default_str();
  snap->add_option("--statement-timeout", o->live.statement_timeout_ms,
                   "Milliseconds for each query (no answer 2 s later ends the run)")
      ->check(CLI::Range(100, 3600000))
      ->capture_default_str();
  return {snap, [o] { return RunSnapshot(*o); }};
}

}  // namespace pgconflint::cli
