// The machine profile: facts about the host that rules and the recommender
// need and a configuration file cannot tell (RAM, CPUs, storage, workload...).
// Every fact is optional; a rule that needs a missing fact stays silent.
#ifndef PGCONFLINT_CORE_PROFILE_H_
#define PGCONFLINT_CORE_PROFILE_H_

#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/expr.h"

namespace pgconflint {

enum class Storage { kHdd, kSataSsd, kNvme, kRaidSan, kNetworkBlock, kColdObject };
enum class Workload { kOltp, kOlap, kMixed, kWeb, kDesktop };
enum class ContainerKind { kNone, kDocker, kKubernetes };

struct Profile {
  std::optional<double> ram_bytes;
  std::optional<int> cpus;
  std::optional<Storage> storage;               // of the data directory
  std::map<std::string, Storage> tablespaces;   // tablespace name -> storage
  std::optional<Workload> workload;
  std::optional<int> connections;               // expected concurrent connections
  std::optional<std::string> os;                // "linux", "freebsd", "macos", "windows"
  std::optional<ContainerKind> container;
  std::optional<bool> io_uring;                 // kernel + build + seccomp allow io_uring
  std::optional<bool> storage_safe_without_fsync;  // e.g. a throwaway CI database
  std::optional<bool> baseline_measurement;    // io_method=sync on purpose, to measure

  /// Knobs of the memory model (documented in docs/rules/memory-overcommit.md).
  double nodes_per_query = 2;    // sort/hash nodes a typical query runs at once
  double headroom = 0.10;        // RAM kept for the OS and page cache, fraction

  bool empty() const {
    return !ram_bytes && !cpus && !storage && tablespaces.empty() && !workload && !connections && !os &&
           !container && !io_uring && !storage_safe_without_fsync && !baseline_measurement;
  }
};

std::string StorageName(Storage s);
bool ParseStorage(const std::string& s, Storage* out);
std::string WorkloadName(Workload w);
bool ParseWorkload(const std::string& s, Workload* out);
std::string ContainerName(ContainerKind c);
bool ParseContainer(const std::string& s, ContainerKind* out);
/// "64GB", "512MB", "1TB" (also plain bytes) -> bytes.
bool ParseBytes(const std::string& s, double* out);
/// "yes"/"no"/"true"/"false"/"on"/"off".
bool ParseYesNo(const std::string& s, bool* out);

/// Applies `key = value` (flag or config-file spelling: ram, cpus, storage,
/// workload, connections, os, container, io-uring, ...). False with *error set
/// when the key or value is not understood.
bool SetProfileFact(Profile* p, const std::string& key, const std::string& value, std::string* error);

/// Applies "key=value,key=value" (rule examples' example_profile). False with
/// *error at the first fact not understood.
bool SetProfileFacts(Profile* p, const std::string& facts, std::string* error);

// --- The facts rule conditions read as profile.NAME ---------------------------

/// One fact of the profile as rule conditions see it (`profile.ram`).
struct ProfileFact {
  const char* name;                        // "ram", "storage_safe_without_fsync"
  ExprValue (*value)(const Profile& p);    // Null when the profile lacks the fact
};

/// Every fact rules may read, in name order. Rule files are validated and
/// conditions evaluated against this one table.
std::span<const ProfileFact> ProfileFacts();
/// The fact called `name` (without "profile."); null if there is none.
const ProfileFact* FindProfileFact(std::string_view name);

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_PROFILE_H_
