// A server snapshot as an input. The running values (pg_settings rows that
// come from the server's configuration files, command line or environment)
// become the cluster's settings, located where the server says they come
// from: each configuration file is rebuilt from pg_file_settings and
// pg_settings, line by line at the server's line numbers, so that findings
// point at the server's own file:line. pg_db_role_setting rows become scoped
// settings and tablespace options come from pg_tablespace, both located in
// rebuilt SQL files. The server's own complaints (pending restarts, file
// lines it could not apply, pg_hba.conf errors) and what the connecting role
// could not see are findings.
#ifndef PGCONFLINT_CORE_SERVER_SNAPSHOT_SOURCE_H_
#define PGCONFLINT_CORE_SERVER_SNAPSHOT_SOURCE_H_

#include <map>
#include <string>

#include "core/model/settings_source.h"
#include "core/server/snapshot.h"

namespace pgconflint {

class SnapshotSource : public SettingsSource {
 public:
  /// REQUIRES: `snapshot` outlives the source.
  explicit SnapshotSource(const Snapshot& snapshot) : snapshot_(snapshot) {}
  void Collect(const CollectContext& context, Analysis* out) const override;

 private:
  const Snapshot& snapshot_;
};

/// The running values by parameter name (pg_settings.setting), as
/// EngineOptions::running takes them.
std::map<std::string, std::string> RunningValues(const Snapshot& snapshot);

/// Where a pg_settings row's value comes from: the server's configuration
/// (files, command line, environment), not the connecting session (its role
/// and database settings, the client, SET) nor a default or override.
bool ClusterSource(const SnapshotSetting& s);

/// Whether the server runs its own default: source "default", or on 14 the
/// max_stack_depth it derives from its stack size limit, which pg_settings
/// reports as set by an environment variable (15 on: "default"; asked of the
/// real 14-18).
bool ServerDefault(const SnapshotSetting& s);

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_SERVER_SNAPSHOT_SOURCE_H_
