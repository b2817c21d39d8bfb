// The storage types and workloads pgconflint knows, with the facts and
// starting points behind `recommend`: knowledge/storage.toml, read and
// checked at build time and compiled into the binary as tables. The list of storage types, their names (what
// --storage accepts), titles and per-type facts all come from that file, so
// adding a storage type is an entry there (docs in the file's header).
#ifndef PGCONFLINT_CORE_KNOWLEDGE_STORAGE_FACTS_H_
#define PGCONFLINT_CORE_KNOWLEDGE_STORAGE_FACTS_H_

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pgconflint {

/// Another start value of a StartingPoint, where a measurement applies only
/// to some machines or uses (`small = {...}`, `reporting = {...}` in
/// storage.toml). Empty `start`: none.
struct StartVariant {
  std::string start;
  std::string why;
  std::string source;  // a key of StorageFacts::sources
  bool operator==(const StartVariant&) const = default;
};

/// A starting point for one parameter, in postgresql.conf spelling.
struct StartingPoint {
  std::string start;     // the value to try first: "64", "1.1", "128kB", "worker"
  std::string min, max;  // the useful range; "" = none
  std::string why;
  std::string source;    // a key of StorageFacts::sources
  /// The start on machines with at most small_cpus CPUs (0: none), where
  /// the measurement behind it was taken: it does not carry over to larger
  /// machines.
  int small_cpus = 0;
  StartVariant small;
  /// The start where the storage carries reporting (large scans next to
  /// short queries): an OLAP server's data directory, or a tablespace of an
  /// OLAP or mixed workload.
  StartVariant reporting;
  bool operator==(const StartingPoint&) const = default;
};

/// One [[storage]] entry of storage.toml.
struct StorageType {
  std::string name;   // the --storage spelling: "nvme"
  std::string title;  // "NVMe SSD"
  /// By parameter: every one of kStorageParameters.
  std::map<std::string, StartingPoint> settings;
  std::string scheduler, mount;    // OS advice
  std::vector<std::string> notes;  // warnings (texts of [notes])
  /// Requests wait on a network or a controller: io_uring's lower
  /// per-request overhead can pay (the io_method candidate where allowed).
  bool high_latency = false;
  /// io_workers per CPU, within [io_workers_min, io_workers_max] (and at most
  /// one per CPU above the minimum), why, source. io_workers_min 0: the
  /// server's default, below which only a measurement may go; that
  /// measurement's machine had io_workers_min_up_to_cpus CPUs (0: any), and
  /// larger machines keep the default.
  double io_workers_per_cpu = 0;
  std::string io_workers_why, io_workers_source;
  int io_workers_min = 0, io_workers_max = 32, io_workers_min_up_to_cpus = 0;
  /// effective_io_concurrency beyond which PGC701 warns (far outside the
  /// useful range).
  int io_concurrency_far_above = 0;
  int autovacuum_cost_limit = 0;              // autovacuum_vacuum_cost_limit, server-wide
  int large_table_autovacuum_cost_limit = 0;  // per table from ~100M rows
  std::string autovacuum_cost_limit_why;
  bool operator==(const StorageType&) const = default;
};

/// The parameters every storage type gives a starting point for.
inline constexpr const char* kStorageParameters[] = {"effective_io_concurrency", "maintenance_io_concurrency",
                                                     "random_page_cost",         "seq_page_cost",
                                                     "io_method",                "io_combine_limit"};

/// A [workload.NAME] table: defaults and the memory model's assumptions.
struct WorkloadFacts {
  int connections = 0;                  // expected connections when the profile gives none
  double shared_buffers_fraction = 0;   // of RAM
  double effective_cache_fraction = 0;  // of RAM
  std::string checkpoint_timeout;       // postgresql.conf spelling: "15min"
  /// WAL a busy moment writes per CPU, MB/s (an assumption): sizes max_wal_size.
  double peak_wal_mb_per_second_per_cpu = 0;
  /// The memory model's knobs when the profile gives none (an assumption):
  /// sort/hash nodes a backend runs at once, and the share of RAM kept for
  /// the OS and other programs; with the reason for both.
  double nodes_per_query = 0;
  double headroom = 0;
  std::string memory_why;
  std::string why;
  bool operator==(const WorkloadFacts&) const = default;
};

/// The whole file.
struct StorageFacts {
  std::vector<StorageType> types;                  // in file order
  std::map<std::string, WorkloadFacts> workloads;  // by workload name
  std::map<std::string, std::string> sources;      // key -> citation
  int default_type = 0;  // index into types: the storage assumed for autovacuum when none is given
  bool operator==(const StorageFacts&) const = default;
};

/// Parses and checks storage.toml text: every storage type has a unique name,
/// a title and a start value for each of kStorageParameters, every source and
/// note it names exists. False with *error (naming the entry) otherwise.
bool ParseStorageFacts(std::string_view text, StorageFacts* out, std::string* error);

/// knowledge/storage.toml as the build parsed it (generated storage_data.cc:
/// nothing is parsed at run time; a broken file fails the build).
/// tests/unit/storage_facts_test.cc checks that it equals what
/// ParseStorageFacts makes of the file.
const StorageFacts& BuiltinStorageFacts();

/// One storage type of BuiltinStorageFacts(), by its position in the file.
class Storage {
 public:
  /// The first type; for out-parameters (see ParseStorage).
  Storage() = default;
  /// The type named `name`, or nullopt.
  static std::optional<Storage> Named(std::string_view name);
  /// Every type, in file order.
  static std::vector<Storage> All();

  const StorageType& type() const { return BuiltinStorageFacts().types[index_]; }
  const std::string& name() const { return type().name; }
  bool operator==(const Storage&) const = default;

 private:
  explicit Storage(int index) : index_(index) {}
  int index_ = 0;
};

/// The --storage spelling of `s` ("network-block").
std::string StorageName(Storage s);
/// Sets *out to the type named `s`; false if there is none.
bool ParseStorage(const std::string& s, Storage* out);

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_KNOWLEDGE_STORAGE_FACTS_H_
