// The worst-case memory model: what PostgreSQL can allocate at once under a
// configuration. memory-overcommit (PGC601) compares it with the profile's
// RAM, and the recommender solves it for work_mem, so the two cannot
// disagree. This is the one place to change what the model counts (the
// knobs are documented in docs/rules/memory-overcommit.md).
#ifndef PGCONFLINT_CORE_MODEL_MEMORY_MODEL_H_
#define PGCONFLINT_CORE_MODEL_MEMORY_MODEL_H_

#include <string>

#include "core/model/effective.h"
#include "core/rules/profile.h"

namespace pgconflint {

/// The model's inputs, all memory in bytes. The worst case is
///   shared_buffers + wal_buffers
///   + (connections + parallel workers) x work_mem x nodes_per_query
///   + autovacuum_workers x autovacuum_work_mem + maintenance_work_mem.
/// Every backend (client connection or parallel worker) runs nodes_per_query
/// sort or hash nodes at once, each up to work_mem. A hash node may grow to
/// work_mem x hash_mem_multiplier: Total() counts it at work_mem (most do not
/// grow that far, and counting every node as a full hash table makes even
/// PostgreSQL's own defaults overcommit a 1GB machine); HashTotal() counts
/// every node at the multiplier, the room the recommender leaves.
/// temp_buffers is not counted: only sessions that use temporary tables
/// allocate it.
struct MemoryModel {
  double shared_buffers = 0;
  double wal_buffers = 0;          // resolved (-1 is shared_buffers/32, capped)
  double connections = 0;          // client connections counted at once
  double parallel_workers = 0;     // parallel workers that can run at once (resolved max_parallel_workers)
  double work_mem = 0;
  double nodes_per_query = 1;      // sort/hash nodes a backend runs at once
  double hash_mem_multiplier = 1;  // counted as at least 1 (HashTotal only)
  double autovacuum_workers = 0;
  double autovacuum_work_mem = 0;  // resolved, per worker
  /// One manual maintenance operation (VACUUM, CREATE INDEX) at a time; its
  /// parallel workers share it (a limit for the whole command).
  double maintenance_work_mem = 0;

  /// The memory that does not grow with backends.
  double Fixed() const;
  /// Client connections plus parallel workers.
  double Backends() const { return connections + parallel_workers; }
  /// The worst case: Fixed() + Backends() x work_mem x nodes_per_query.
  double Total() const;
  /// What one backend's sort/hash nodes can take with every node a hash
  /// table: work_mem x nodes_per_query x hash_mem_multiplier (at least 1).
  double HashPerBackend() const;
  /// The worst case with every node a hash table: Fixed() + Backends() x
  /// HashPerBackend().
  double HashTotal() const;
  /// The work_mem at which HashTotal() equals `budget` (negative when the
  /// fixed memory alone exceeds it). REQUIRES: Backends() > 0.
  double WorkMemWithin(double budget) const;
  /// The sum spelled out: "shared_buffers 16GB + wal_buffers 16MB + (100
  /// connections + 8 parallel workers) x work_mem 4MB x 1 node + 3 autovacuum
  /// workers x 64MB + maintenance 1GB".
  std::string Breakdown() const;
};

/// The model of an effective configuration under the profile's knobs: the
/// profile's connections capped by max_connections (all of max_connections
/// when it gives none), the parallel workers the configuration allows.
MemoryModel MemoryModelOf(const EffectiveConfig& eff, const Profile& profile);

/// The parameters the model reads: a rule that uses the model stays silent
/// when the server would refuse the value of any of them.
std::span<const char* const> MemoryModelInputs();

/// The memory the worst case may use: RAM less the profile's headroom.
/// REQUIRES: profile.ram_bytes.
double MemoryBudget(const Profile& profile);

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_MODEL_MEMORY_MODEL_H_
