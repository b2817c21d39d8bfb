// The main shared memory area's estimate: the terms of each major and their
// counts. Where a fact comes from is said beside it; the bytes per unit are
// knowledge/shared_memory.json's.
#include "core/model/shared_memory.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>

#include "core/base/quantity.h"
#include "core/knowledge/extension_catalog.h"
#include "core/knowledge/hooks.h"
#include "core/knowledge/shared_memory_facts.h"

namespace pgconflint {
namespace {

// The server rounds its sum up to the next multiple of 8192 bytes (and by a
// whole 8192 when it is one already).
constexpr double kRound = 8192;
// The shared buffer lookup table holds NBuffers + NUM_BUFFER_PARTITIONS (128)
// entries.
constexpr double kBufferPartitions = 128;
// The checkpointer's request queue has one entry per buffer, at most
// 10,000,000 (measured: the cost per buffer drops at exactly 10,000,000 in
// every major, the limit the current minor releases put on the queue).
constexpr double kCheckpointerRequestCap = 10000000;
// Shared hash tables (dynahash) are sized for their largest entry count: a
// power-of-two number of bucket pointers in segments of 256, and a directory
// of at least 256 segment pointers, doubled until it holds them all.
constexpr uint64_t kHashSegment = 256;
constexpr uint64_t kHashDirectory = 256;
// The predicate lock manager keeps 10 serializable transactions per process
// slot, in a hash table of their xids.
constexpr double kSerializableXactsPerSlot = 10;
// From 17, the SLRU caches are sized in banks of 16 buffers; 0 asks for
// shared_buffers/512 rounded down to a bank, between 16 and 1024
// (the documentation of transaction_buffers, subtransaction_buffers and
// commit_timestamp_buffers). An explicit transaction_buffers is capped at
// 65536 (the pages of commit status the transaction ID space can fill;
// measured: 131072 costs what 65536 does).
constexpr double kSlruBank = 16;
constexpr double kSlruAutoDivisor = 512;
constexpr double kSlruAutoMax = 1024;
constexpr double kTransactionBuffersCap = 65536;
// Up to 16 the SLRU caches of commit status and commit timestamps follow
// shared_buffers: min(128, max(4, NBuffers / 512)) and, for commit
// timestamps, min(256, max(4, NBuffers / 256)) in 15 and 16,
// min(16, max(4, NBuffers / 1024)) in 14 (the source; confirmed by the
// sizes pg_shmem_allocations shows for "Xact" and "CommitTs" on 14 and 15).
constexpr double kClogDivisor = 512, kClogMax = 128;
constexpr double kCommitTsDivisor = 256, kCommitTsMax = 256;
constexpr double kCommitTsDivisor14 = 1024, kCommitTsMax14 = 16;
constexpr double kSlruMin16 = 4;
// 18: fast-path lock slots come in groups of 16; each process slot gets the
// power of two at or above max_locks_per_transaction / 16 groups, between 1
// and 1024.
constexpr double kFastPathSlotsPerGroup = 16, kFastPathGroupsMax = 1024;

constexpr const char* kShmemInputs[] = {
    "autovacuum_max_workers",       "autovacuum_worker_slots",      "commit_timestamp_buffers",
    "hot_standby",                  "huge_page_size",               "io_max_combine_limit",
    "io_max_concurrency",           "io_method",                    "max_active_replication_origins",
    "max_connections",              "max_locks_per_transaction",    "max_logical_replication_workers",
    "max_pred_locks_per_transaction", "max_prepared_transactions",  "max_replication_slots",
    "max_wal_senders",              "max_worker_processes",         "min_dynamic_shared_memory",
    "multixact_member_buffers",     "multixact_offset_buffers",     "notify_buffers",
    "old_snapshot_threshold",       "serializable_buffers",         "shared_buffers",
    "shared_preload_libraries",     "subtransaction_buffers",       "track_activity_query_size",
    "transaction_buffers",          "wal_buffers",
};

uint64_t NextPowerOfTwo(double n) {
  uint64_t p = 1;
  while (static_cast<double>(p) < n && p < (uint64_t{1} << 62)) p <<= 1;
  return p;
}

// The bucket and directory pointers of a shared hash table sized for
// `entries` (8 bytes each; the entries themselves are a term of their own).
double HashPointers(double entries) {
  uint64_t buckets = NextPowerOfTwo(std::max(entries, 1.0));
  uint64_t segments = NextPowerOfTwo(static_cast<double>((buckets - 1) / kHashSegment + 1));
  uint64_t directory = kHashDirectory;
  while (directory < segments) directory <<= 1;
  return static_cast<double>(directory + segments * kHashSegment);
}

class Reader {
 public:
  explicit Reader(const EffectiveConfig& eff) : eff_(eff) {}
  bool Has(const char* name) const { return eff_.catalog().Find(name) != nullptr; }
  double Number(const char* name) const {
    std::optional<std::string> v = eff_.Configured(name);
    return v ? strtod(v->c_str(), nullptr) : 0;
  }
  std::string Text(const char* name) const { return eff_.Configured(name).value_or(""); }
  double Derived(const char* name) const {
    std::optional<DerivedValue> d = eff_.Derived(name);
    return d ? d->value.number : 0;
  }
  int major() const { return eff_.catalog().major(); }
  const BuildInfo& build() const { return eff_.catalog().build(); }

 private:
  const EffectiveConfig& eff_;
};

// An SLRU cache of 17+: 0 is automatic (for the three that allow it).
double SlruBuffers(const Reader& in, const char* name, double cap) {
  double v = in.Number(name);
  if (v == 0) {
    double automatic = std::floor(in.Number("shared_buffers") / kSlruAutoDivisor);
    automatic -= std::fmod(automatic, kSlruBank);
    return std::min(kSlruAutoMax, std::max(kSlruBank, automatic));
  }
  return std::min(std::max(kSlruBank, v), cap);
}

void SlruTerms(const Reader& in, std::vector<ShmemTerm>* out) {
  const double nbuffers = in.Number("shared_buffers");
  if (in.major() <= 16) {
    out->push_back({"transaction_slots", std::clamp(std::floor(nbuffers / kClogDivisor), kSlruMin16, kClogMax)});
    const bool v14 = in.major() == 14;
    out->push_back({"commit_timestamp_slots",
                    std::clamp(std::floor(nbuffers / (v14 ? kCommitTsDivisor14 : kCommitTsDivisor)), kSlruMin16,
                               v14 ? kCommitTsMax14 : kCommitTsMax)});
    return;
  }
  constexpr double kGucMax = 131072;  // the other caches' own maximum
  out->push_back({"transaction_slots", SlruBuffers(in, "transaction_buffers", kTransactionBuffersCap)});
  out->push_back({"subtransaction_slots", SlruBuffers(in, "subtransaction_buffers", kGucMax)});
  out->push_back({"commit_timestamp_slots", SlruBuffers(in, "commit_timestamp_buffers", kGucMax)});
  out->push_back({"multixact_member_slots", SlruBuffers(in, "multixact_member_buffers", kGucMax)});
  out->push_back({"multixact_offset_slots", SlruBuffers(in, "multixact_offset_buffers", kGucMax)});
  out->push_back({"notify_slots", SlruBuffers(in, "notify_buffers", kGucMax)});
  out->push_back({"serializable_slots", SlruBuffers(in, "serializable_buffers", kGucMax)});
}

// 18: fast-path lock slots and asynchronous I/O handles, per process slot
// (MaxBackends + the auxiliary processes, and the prepared transactions for
// fast-path locks).
void Terms18(const Reader& in, double max_backends, std::vector<ShmemTerm>* out) {
  const double aux = AuxiliaryProcesses(in.major());
  const double prepared = in.Number("max_prepared_transactions");
  double groups = static_cast<double>(NextPowerOfTwo(in.Number("max_locks_per_transaction"))) / kFastPathSlotsPerGroup;
  groups = std::clamp(std::floor(groups), 1.0, kFastPathGroupsMax);
  out->push_back({"fast_path_lock_groups", groups * (max_backends + prepared + aux)});
  const double handles = in.Derived("io_max_concurrency") * (max_backends + aux);
  out->push_back({"aio_handles", handles});
  out->push_back({"aio_iovecs", handles * in.Number("io_max_combine_limit")});
  out->push_back({"io_method_worker", in.Text("io_method") == "worker" ? 1.0 : 0.0});
  out->push_back({"max_active_replication_origins", in.Number("max_active_replication_origins")});
}

// A preloaded library, with what the extension catalog measured its
// parameters to cost (per unit, from two -C measurements in MB: "about").
std::string LibraryNote(const EffectiveConfig& eff, const std::string& module) {
  std::string out = module;
  const ExtensionCatalog* catalog = ExtensionCatalog::ForMajor(eff.catalog().major());
  if (!catalog) return out;
  for (const ExtensionParameter& p : catalog->parameters()) {
    if (p.shared_memory_per_unit <= 0 || catalog->modules()[p.module].name != module) continue;
    const Setting* s = eff.SettingFor(p.param.name);
    double v = strtod(s && s->value ? s->value->c_str() : p.param.boot_val, nullptr);
    out += " (about " + FormatHuman(v * p.shared_memory_per_unit, Dim::kBytes) + " for " + p.param.name + " = " +
           FormatWhole(v) + ")";
  }
  return out;
}

}  // namespace

double SharedMemorySize::megabytes() const { return std::ceil(bytes / (1024 * 1024)); }

std::vector<ShmemTerm> SharedMemoryTerms(const EffectiveConfig& eff) {
  const Reader in(eff);
  const double nbuffers = in.Number("shared_buffers");
  const double max_backends = in.Derived("max_backends");
  const double prepared = in.Number("max_prepared_transactions");
  const double slots = max_backends + prepared;  // lock-table and predicate-lock process slots
  const double locks = in.Number("max_locks_per_transaction") * slots;
  const double pred_locks = in.Number("max_pred_locks_per_transaction") * slots;
  const double hot_standby = in.Text("hot_standby") == "on" ? 1 : 0;
  const double query_size = in.Number("track_activity_query_size");
  std::vector<ShmemTerm> out = {
      {"fixed", 1},
      {"buffers", nbuffers},
      {"checkpointer_requests", std::min(nbuffers, kCheckpointerRequestCap)},
      {"buffer_table_pointers", HashPointers(nbuffers + kBufferPartitions)},
      {"wal_buffers", in.Derived("wal_buffers") / in.build().wal_block_size},
      {"max_connections", in.Number("max_connections")},
      {in.major() >= 18 ? "autovacuum_worker_slots" : "autovacuum_max_workers",
       in.Number(in.major() >= 18 ? "autovacuum_worker_slots" : "autovacuum_max_workers")},
      {"max_worker_processes", in.Number("max_worker_processes")},
      {"max_wal_senders", in.Number("max_wal_senders")},
      {"max_prepared_transactions", prepared},
      {"max_replication_slots", in.Number("max_replication_slots")},
      {"max_logical_replication_workers", in.Number("max_logical_replication_workers")},
      {"min_dynamic_shared_memory", in.Number("min_dynamic_shared_memory")},
      // The lock tables hold max_locks_per_transaction entries per slot and
      // twice as many process-lock entries; the predicate lock tables the same
      // with max_pred_locks_per_transaction.
      {"lock_entries", locks},
      {"lock_table_pointers", HashPointers(locks) + HashPointers(2 * locks)},
      {"predicate_lock_targets", pred_locks},
      {"predicate_lock_table_pointers", HashPointers(pred_locks) + HashPointers(2 * pred_locks)},
      {"serializable_xid_table_pointers", HashPointers(kSerializableXactsPerSlot * slots)},
      // A hot standby tracks the transactions running on the primary:
      // a fixed number of xids per slot.
      {"hot_standby", hot_standby},
      {"hot_standby_slots", hot_standby * slots},
      // Every backend status entry holds track_activity_query_size bytes.
      {"track_activity_query_size", query_size},
      {"activity_query_bytes", query_size * max_backends},
  };
  SlruTerms(in, &out);
  if (in.Has("old_snapshot_threshold")) {
    // 14-16: a map of one xid per minute of old_snapshot_threshold, when above 0.
    double minutes = in.Number("old_snapshot_threshold");
    out.push_back({"old_snapshot_map", minutes > 0 ? 1.0 : 0.0});
    out.push_back({"old_snapshot_minutes", minutes > 0 ? minutes : 0.0});
  }
  if (in.major() >= 18) Terms18(in, max_backends, &out);
  return out;
}

std::optional<SharedMemorySize> ComputeSharedMemory(const EffectiveConfig& eff) {
  const ShmemFacts* facts = ShmemFactsFor(eff.catalog().major());
  if (!facts) return std::nullopt;
  SharedMemorySize out;
  out.max_error = facts->max_error;
  double sum = 0;
  for (const ShmemTerm& t : SharedMemoryTerms(eff)) {
    const double* per_unit = facts->Find(t.name);
    if (!per_unit) return std::nullopt;
    out.parts.push_back({t, t.count * *per_unit});
    sum += t.count * *per_unit;
  }
  out.bytes = (std::floor(sum / kRound) + 1) * kRound;
  std::vector<std::string> libraries;
  SplitIdentifierList(eff.Configured("shared_preload_libraries").value_or(""), ',', &libraries);
  for (const std::string& l : libraries)
    if (std::string m = ModuleName(l); !m.empty()) out.uncounted.push_back(LibraryNote(eff, m));
  if (eff.Configured("io_method").value_or("") == "io_uring") out.uncounted.push_back("io_method = io_uring");
  return out;
}

double HugePagesShown(double bytes, double page) { return std::floor(bytes / page) + 1; }

double HugePagesMapped(double bytes, double page) { return std::ceil(bytes / page); }

double HugePageSizeOf(const EffectiveConfig& eff, const Profile& profile) {
  double kb = strtod(eff.Configured("huge_page_size").value_or("0").c_str(), nullptr);
  if (kb > 0) return kb * 1024;
  return profile.huge_page_size_bytes.value_or(kDefaultHugePageSize);
}

std::optional<double> SharedMemoryFact(std::string_view name, const EffectiveConfig& eff, const Profile& profile) {
  std::optional<SharedMemorySize> size = ComputeSharedMemory(eff);
  if (!size) return std::nullopt;
  if (name == "shared_memory") return size->bytes;
  if (name != "huge_pages_needed") return std::nullopt;
  const double page = HugePageSizeOf(eff, profile);
  if (page != profile.huge_page_size_bytes.value_or(kDefaultHugePageSize)) return std::nullopt;
  return HugePagesMapped(std::max(0.0, size->bytes - size->max_error), page);
}

std::span<const char* const> SharedMemoryInputs() { return kShmemInputs; }

}  // namespace pgconflint
