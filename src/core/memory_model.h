// The worst-case memory model: what PostgreSQL can allocate at once under a
// configuration. memory-overcommit (PGC601) compares it with the profile's
// RAM, and the recommender solves it for work_mem and max_connections, so the
// two cannot disagree. This is the one place to change what the model counts
// (the knobs are documented in docs/rules/memory-overcommit.md).
#ifndef PGCONFLINT_CORE_MEMORY_MODEL_H_
#define PGCONFLINT_CORE_MEMORY_MODEL_H_

#include <string>

#include "core/effective.h"
#include "core/profile.h"

namespace pgconflint {

/// The model's inputs, all memory in bytes. The worst case is
///   shared_buffers + wal_buffers
///   + connections x (work_mem x nodes_per_query x hash_mem_multiplier + temp_buffers)
///   + autovacuum_workers x autovacuum_work_mem + maintenance_work_mem.
struct MemoryModel {
  double shared_buffers = 0;
  double wal_buffers = 0;          // resolved (-1 is shared_buffers/32, capped)
  double connections = 0;          // client connections counted at once
  double work_mem = 0;
  double nodes_per_query = 2;      // sort/hash nodes a query runs at once
  double hash_mem_multiplier = 1;  // counted as at least 1
  double temp_buffers = 0;         // per connection
  double autovacuum_workers = 0;
  double autovacuum_work_mem = 0;  // resolved, per worker
  /// One manual maintenance operation (VACUUM, CREATE INDEX) at a time; its
  /// parallel workers share it (a limit for the whole command).
  double maintenance_work_mem = 0;

  /// The memory that does not grow with connections.
  double Fixed() const;
  /// What one more connection can add.
  double PerConnection() const;
  /// The worst case: Fixed() + connections x PerConnection().
  double Total() const;
  /// The work_mem at which Total() equals `budget` for these connections
  /// (negative when the rest alone exceeds it). REQUIRES: connections > 0.
  double WorkMemWithin(double budget) const;
  /// The most connections whose worst case stays within `budget` with this
  /// work_mem (rounded down; negative when Fixed() alone exceeds it).
  double ConnectionsWithin(double budget) const;
  /// The sum spelled out: "shared_buffers 16GB + wal_buffers 16MB + 100
  /// connections x (work_mem 4MB x 2 nodes x hash_mem_multiplier 2 +
  /// temp_buffers 8MB) + 3 autovacuum workers x 64MB + maintenance 1GB".
  std::string Breakdown() const;
};

/// The model of an effective configuration under the profile's knobs: the
/// profile's connections capped by max_connections (all of max_connections
/// when it gives none).
MemoryModel MemoryModelOf(const EffectiveConfig& eff, const Profile& profile);

/// The memory the worst case may use: RAM less the profile's headroom.
/// REQUIRES: profile.ram_bytes.
double MemoryBudget(const Profile& profile);

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_MEMORY_MODEL_H_
