// `pgconflint recommend`, the computation: a PostgreSQL-18-aware settings
// matrix per storage type, the machine-dependent block, per-tablespace
// options and the autovacuum matrix per table size. Rendering is in
// recommend_render.h, the rollout plan in recommend_plan.h.
//
// Storage facts and starting points come from knowledge/storage.toml
// (core/knowledge/storage_facts.h, each with its reason and source); machine formulas
// are in recommend.cc and are built to pass `check` under the same profile
// (the memory model of memory-overcommit in core/model/memory_model.h, the AIO
// caps...), which tests hold them to.
#ifndef PGCONFLINT_CORE_ADVICE_RECOMMEND_H_
#define PGCONFLINT_CORE_ADVICE_RECOMMEND_H_

#include <optional>
#include <string>
#include <vector>

#include "core/knowledge/catalog.h"
#include "core/rules/profile.h"

namespace pgconflint {

/// One recommended value.
struct Cell {
  std::string parameter;
  std::string value;     // postgresql.conf spelling: 64, 1.1, '16GB', worker
  std::string min, max;  // the useful range ("" = a single value)
  std::string why;
  std::string source;    // a [sources] key of storage.toml, or "formula"
};

struct StorageRow {
  Storage storage;
  std::string title;
  std::vector<Cell> cells;  // effective_io_concurrency ... io_max_combine_limit
  std::string scheduler, mount;
  std::vector<std::string> notes;
};

struct TablespaceAdvice {
  std::string name;
  Storage storage;
  std::vector<Cell> options;  // only the four options a tablespace accepts
  std::string sql;            // TablespaceStatement(name, options)
};

/// "ALTER TABLESPACE "name" SET (option = value, ...);" for `options`.
std::string TablespaceStatement(const std::string& name, const std::vector<const Cell*>& options);

struct TableClass {
  std::string label;      // "~10M rows, OLTP"
  double rows;
  std::string workload;   // oltp, bulk-load, mixed
  std::vector<Cell> options;  // table storage parameters
  double vacuum_trigger;  // dead tuples that start a vacuum with these options
  double default_trigger; // with the global defaults
  std::string sql;
};

/// Huge pages for the main shared memory area of the recommended settings
/// (recommend_huge_pages.cc); empty `value` when not advised (not Linux, or
/// no measured model of the major).
struct HugePagesAdvice {
  double shared_memory = 0;  // bytes, as the server computes them (shared_memory_size)
  double page = 0;           // the huge page size: the profile's, else kDefaultHugePageSize
  double nr_hugepages = 0;   // shared_memory_size_in_huge_pages: what vm.nr_hugepages should reach
  std::string value;         // huge_pages: "on" when the profile's --huge-pages suffice, else "try"
  std::string why;
};

struct Recommendation {
  int major = Catalog::DefaultMajor();
  Profile profile;  // with the defaults filled in (workload, connections)
  std::vector<std::string> assumptions;
  std::vector<StorageRow> matrix;  // every storage type, in storage.toml's order
  int selected = -1;               // index into matrix of the profile's storage
  std::vector<Cell> machine;
  std::vector<TablespaceAdvice> tablespaces;
  std::vector<Cell> autovacuum;    // global autovacuum settings
  std::vector<TableClass> tables;
  std::vector<std::string> sources;  // "key: text" of the sources cited
  /// Set when the profile's data size fits in effective_cache_size: why the
  /// asynchronous I/O settings keep their defaults ("" otherwise).
  std::string data_in_memory;
  HugePagesAdvice huge_pages;
};

/// Whether `profile` has what Recommend needs (RAM of at least 256MB, CPUs);
/// false with what to add in *error.
bool ProfileSufficient(const Profile& profile, std::string* error);

/// Computes the recommendation for `profile`. It needs the profile's RAM and
/// CPUs (ProfileSufficient); without them returns false and says what to add
/// in *error.
bool Recommend(const Profile& profile, const Catalog& catalog, Recommendation* out, std::string* error);

/// The slots max_connections keeps from ordinary clients, at their defaults
/// (superuser_reserved_connections, and reserved_connections from 16 on).
int ReservedSlots(const Catalog& catalog);

/// A cell for effective_io_concurrency or maintenance_io_concurrency with
/// its value and range capped at `io_max` (the resolved io_max_concurrency:
/// more in flight gains nothing).
Cell CappedIoConcurrency(Cell c, double io_max);

/// The storage type's cell for effective_io_concurrency or
/// maintenance_io_concurrency under profile `p` (complete: CPUs and workload
/// known), for the data directory or (tablespace) a tablespace on it, capped
/// at `io_max`.
Cell IoConcurrencyCell(const StorageType& t, const char* param, const Profile& p, bool tablespace, double io_max);

/// Whether io_uring may be the io_method candidate: the profile says io_uring
/// is available (--io-uring yes), the OS is Linux (or not given), and the
/// build has liburing (or --build-features does not say).
bool IoUringAllowed(const Profile& p);

/// The recommended cell for `parameter` under `r` (machine block, selected
/// storage row, autovacuum, in that order); null if there is none.
const Cell* RecommendedCell(const Recommendation& r, const std::string& parameter);

/// The profile in one line: "PostgreSQL 18, 16 CPUs, 64GB RAM, oltp, nvme".
std::string RecommendationHeader(const Recommendation& r);

/// A cell's range as printed: "32 .. 256", "or worker" (a min alone), "".
std::string RangeText(const Cell& c);

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_ADVICE_RECOMMEND_H_
