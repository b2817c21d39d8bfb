// The machine profile: facts about the host that rules and the recommender
// need and a configuration file cannot tell (RAM, CPUs, storage, workload...).
// Every fact is optional; a rule that needs a missing fact stays silent.
#ifndef PGCONFLINT_CORE_RULES_PROFILE_H_
#define PGCONFLINT_CORE_RULES_PROFILE_H_

#include <map>
#include <set>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/knowledge/catalog.h"
#include "core/rules/expr.h"
#include "core/knowledge/storage_facts.h"

namespace pgconflint {

enum class Workload { kOltp, kOlap, kMixed, kWeb, kDesktop };

/// The huge page size assumed when the profile gives none: Linux's default
/// huge page size is its architecture's (the kernel's documentation of
/// default_hugepagesz), 2MB on x86-64 (admin-guide/mm/hugetlbpage.rst: x86
/// CPUs support 4K and 2M pages, 1G where the CPU can); /proc/meminfo's
/// Hugepagesize shows the host's.
constexpr double kDefaultHugePageSize = 2 * 1024 * 1024;
enum class ContainerKind { kNone, kDocker, kKubernetes };

struct Profile {
  std::optional<double> ram_bytes;
  std::optional<int> cpus;
  std::optional<Storage> storage;               // of the data directory (core/knowledge/storage_facts.h)
  std::map<std::string, Storage> tablespaces;   // tablespace name -> storage
  std::optional<Workload> workload;
  std::optional<int> connections;               // expected concurrent connections
  /// The clients of the configuration a plan starts from (its explicit
  /// max_connections less the reserved slots): sized for when `connections`
  /// is not given, and lowered like the workload's default when they do not
  /// fit. Not a fact of the machine: rules do not see it.
  std::optional<int> configured_connections;
  std::optional<std::string> os;                // "linux", "freebsd", "macos", "windows"
  std::optional<ContainerKind> container;
  std::optional<bool> io_uring;                 // kernel + build + seccomp allow io_uring
  std::optional<bool> storage_safe_without_fsync;  // e.g. a throwaway CI database
  std::optional<bool> baseline_measurement;    // io_method=sync on purpose, to measure
  std::optional<double> data_size_bytes;       // the databases' size on disk (--data-size)
  /// The optional libraries the server was built with (--build-features:
  /// liburing, lz4, zstd, and the authentication methods ldap, pam, bsd);
  /// nullopt when the profile does not say.
  std::optional<std::set<std::string>> build_features;
  std::optional<bool> gssapi;                  // the server's build has GSSAPI (hostgssenc, gss)
  /// The host's default huge page size (--huge-page-size, /proc/meminfo's
  /// Hugepagesize); kDefaultHugePageSize when not given.
  std::optional<double> huge_page_size_bytes;
  /// Huge pages the host has for the server (--huge-pages: vm.nr_hugepages
  /// of the default size, less what other programs use).
  std::optional<double> huge_pages;

  /// Knobs of the memory model (documented in docs/rules/memory-overcommit.md);
  /// nullopt: the workload's (NodesPerQuery, Headroom).
  std::optional<double> nodes_per_query;  // sort/hash nodes a backend runs at once
  std::optional<double> headroom;         // RAM kept for the OS and other programs, fraction

  bool empty() const {
    return !ram_bytes && !cpus && !storage && tablespaces.empty() && !workload && !connections && !os &&
           !container && !io_uring && !storage_safe_without_fsync && !baseline_measurement && !data_size_bytes &&
           !build_features && !gssapi && !huge_page_size_bytes && !huge_pages;
  }
};

/// The optional libraries --build-features names, and the enum values each
/// makes available ("liburing": io_method = io_uring).
struct BuildFeature {
  const char* name;       // "liburing"
  const char* parameter;  // "io_method"
  const char* value;      // "io_uring"
};
std::span<const BuildFeature> BuildFeatures();
/// The feature that makes `value` of `parameter` available, or null.
const BuildFeature* FeatureFor(std::string_view parameter, std::string_view value);

/// One value an enum parameter accepts: the ones pg_settings lists, then the
/// ones a build may add (the catalog's build-dependent values, io_method's
/// io_uring), with the feature that adds it. The one list that `params`,
/// hover and completion show.
struct EnumChoice {
  const char* value;
  const BuildFeature* needs;  // null: every build has it (or no feature is known to add it)
};
std::vector<EnumChoice> EnumChoices(const Parameter& p);

/// The memory model's knobs: the profile's, else its workload's from
/// knowledge/storage.toml, else (no workload) 1 node and 10%. The one
/// source for memory-overcommit and the recommender.
double NodesPerQuery(const Profile& p);
double Headroom(const Profile& p);

std::string WorkloadName(Workload w);
bool ParseWorkload(const std::string& s, Workload* out);
std::string ContainerName(ContainerKind c);
bool ParseContainer(const std::string& s, ContainerKind* out);
/// "64GB", "512MB", "1TB" -> bytes: a positive quantity with a memory unit of
/// postgresql.conf (case-sensitive: "16gb", "16G" and a bare "16" are refused).
/// False with *error (the reason, naming the valid units) otherwise.
bool ParseBytes(const std::string& s, double* out, std::string* error);
/// "yes"/"no"/"true"/"false"/"on"/"off".
bool ParseYesNo(const std::string& s, bool* out);

/// The values profile fact `key` (flag spelling: "storage", "io-uring")
/// takes when they are a fixed list: storage, workload, os, container and
/// the yes/no facts (of which "yes" and "no"; ParseYesNo takes more
/// spellings). Empty for the others (sizes, counts, lists). The one list
/// SetProfileFact checks against, --help shows and the shells complete.
std::vector<std::string> ProfileFactChoices(const std::string& key);
/// Is profile fact `key` a yes/no fact ("io-uring", "gssapi", ...)?
bool IsYesNoFact(const std::string& key);
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

/// Every fact rules may read, in name order: the values of the names
/// rule_names.h's ProfileFactNames() lists (rule files are validated against
/// those names; a test holds the two lists equal).
std::span<const ProfileFact> ProfileFacts();
/// The fact called `name` (without "profile."); null if there is none.
const ProfileFact* FindProfileFact(std::string_view name);

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_RULES_PROFILE_H_
