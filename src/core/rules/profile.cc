// Parsing profile facts from flags and the project configuration file.
#include "core/rules/profile.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "core/base/quantity.h"
#include "core/base/strings.h"

namespace pgconflint {
namespace {

template <typename E>
struct Names {
  E value;
  const char* name;
};

constexpr Names<Workload> kWorkloads[] = {{Workload::kOltp, "oltp"},   {Workload::kOlap, "olap"},
                                          {Workload::kMixed, "mixed"}, {Workload::kWeb, "web"},
                                          {Workload::kDesktop, "desktop"}};
constexpr Names<ContainerKind> kContainers[] = {
    {ContainerKind::kNone, "none"}, {ContainerKind::kDocker, "docker"}, {ContainerKind::kKubernetes, "kubernetes"}};

template <typename E, size_t N>
std::string NameOf(const Names<E> (&table)[N], E v) {
  for (const auto& n : table)
    if (n.value == v) return n.name;
  return "?";
}

template <typename E, size_t N>
bool Lookup(const Names<E> (&table)[N], const std::string& s, E* out) {
  for (const auto& n : table)
    if (s == n.name) {
      *out = n.value;
      return true;
    }
  return false;
}

// The operating systems a profile names (rules read profile.os).
constexpr const char* kOses[] = {"linux", "freebsd", "macos", "windows"};
// The facts that are yes or no (ParseYesNo).
constexpr std::string_view kYesNoFacts[] = {"io-uring", "storage-safe-without-fsync", "baseline-measurement", "gssapi"};

template <typename E, size_t N>
std::vector<std::string> NamesOf(const Names<E> (&table)[N]) {
  std::vector<std::string> out;
  for (const auto& n : table) out.push_back(n.name);
  return out;
}

// The libraries of PostgreSQL's configure options --with-liburing,
// --with-lz4 and --with-zstd, and the enum values the harvested catalogs list
// as build-dependent because of them.
constexpr BuildFeature kBuildFeatures[] = {
    {"liburing", "io_method", "io_uring"},
    {"lz4", "default_toast_compression", "lz4"},
    {"lz4", "wal_compression", "lz4"},
    {"zstd", "wal_compression", "zstd"},
};

// The authentication methods that need a configure option (--with-ldap,
// --with-pam, --with-bsd-auth): a build without one refuses the method in
// pg_hba.conf ("not supported by this build", as the npm builds of 14-18
// answer for all three). radius needs no library: every build has it.
constexpr const char* kAuthBuildFeatures[] = {"ldap", "pam", "bsd"};

// "lz4,zstd", "liburing,ldap", or "none" (a build without any of them).
bool ParseBuildFeatures(const std::string& value, std::set<std::string>* out, std::string* why) {
  if (value == "none") return true;
  size_t start = 0;
  while (start <= value.size()) {
    size_t comma = value.find(',', start);
    std::string f = value.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    bool known = false;
    for (const BuildFeature& b : kBuildFeatures) known = known || f == b.name;
    for (const char* m : kAuthBuildFeatures) known = known || f == m;
    if (!known) {
      *why = "expected a comma-separated list of liburing, lz4, zstd, ldap, pam, bsd, or none";
      return false;
    }
    out->insert(f);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return true;
}

}  // namespace

bool IsYesNoFact(const std::string& key) {
  return std::find(std::begin(kYesNoFacts), std::end(kYesNoFacts), key) != std::end(kYesNoFacts);
}

std::span<const BuildFeature> BuildFeatures() { return kBuildFeatures; }

const BuildFeature* FeatureFor(std::string_view parameter, std::string_view value) {
  for (const BuildFeature& b : kBuildFeatures)
    if (parameter == b.parameter && value == b.value) return &b;
  return nullptr;
}

std::vector<EnumChoice> EnumChoices(const Parameter& p) {
  std::vector<EnumChoice> out;
  for (const char* v : p.enumvals) out.push_back({v, nullptr});
  for (const char* v : p.build_dependent_enumvals) out.push_back({v, FeatureFor(p.name, v)});
  return out;
}

std::string WorkloadName(Workload w) { return NameOf(kWorkloads, w); }
bool ParseWorkload(const std::string& s, Workload* out) { return Lookup(kWorkloads, s, out); }
std::string ContainerName(ContainerKind c) { return NameOf(kContainers, c); }
bool ParseContainer(const std::string& s, ContainerKind* out) { return Lookup(kContainers, s, out); }

bool ParseBytes(const std::string& s, double* out, std::string* error) {
  double bytes;
  if (!ParseQuantityOf(s, Dim::kBytes, &bytes, error)) return false;
  if (bytes <= 0) {
    *error = "expected a positive size such as 64GB";
    return false;
  }
  // A size is a byte count of 64 bits wherever it ends up (pg_settings, the
  // kernel): beyond 2^63 bytes the number overflows.
  if (bytes > 0x1p63) {
    *error = "larger than 8388608TB (2^63 bytes), the most a 64-bit byte count holds";
    return false;
  }
  *out = bytes;
  return true;
}

bool ParseYesNo(const std::string& s, bool* out) {
  if (s == "yes" || s == "true" || s == "on" || s == "1") *out = true;
  else if (s == "no" || s == "false" || s == "off" || s == "0") *out = false;
  else return false;
  return true;
}

bool SetProfileFacts(Profile* p, const std::string& facts, std::string* error) {
  size_t start = 0;
  while (start < facts.size()) {
    size_t comma = facts.find(',', start);
    std::string kv = facts.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    size_t eq = kv.find('=');
    if (eq == std::string::npos) {
      *error = "profile fact \"" + kv + "\" is not key=value";
      return false;
    }
    if (!SetProfileFact(p, kv.substr(0, eq), kv.substr(eq + 1), error)) return false;
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return true;
}

std::vector<std::string> ProfileFactChoices(const std::string& key) {
  if (key == "storage") {
    std::vector<std::string> out;
    for (const StorageType& t : BuiltinStorageFacts().types) out.push_back(t.name);
    return out;
  }
  if (key == "workload") return NamesOf(kWorkloads);
  if (key == "container") return NamesOf(kContainers);
  if (key == "os") return {std::begin(kOses), std::end(kOses)};
  if (IsYesNoFact(key)) return {"yes", "no"};
  return {};
}

bool SetProfileFact(Profile* p, const std::string& key, const std::string& value, std::string* error) {
  auto bad = [&](const std::string& expected) {
    *error = "invalid " + key + " \"" + value + "\" (expected " + expected + ")";
    return false;
  };
  auto refuse = [&](const std::string& why) {
    *error = "invalid " + key + " \"" + value + "\": " + why;
    return false;
  };
  std::string why;
  if (key == "ram") {
    double b;
    if (!ParseBytes(value, &b, &why)) return refuse(why);
    p->ram_bytes = b;
  } else if (key == "cpus") {
    // Whole CPUs: parallel and I/O workers are processes, one per CPU at
    // most. A container's fractional quota (cpu.max 450000 100000) is
    // planned for the CPUs it fully has (recommend --detect rounds down).
    char* end;
    errno = 0;
    double d = strtod(value.c_str(), &end);
    if (end != value.c_str() && !*end && std::isfinite(d) && d > 0 && d != std::floor(d))
      return refuse("CPUs are whole (parallel and I/O workers are processes): for a CPU quota of " + value +
                    " give the whole CPUs it holds, --cpus " + std::to_string(std::max(1L, std::lround(std::floor(d)))));
    long n = strtol(value.c_str(), &end, 10);
    if (*end || errno || n <= 0 || n > 100000) return bad("a whole number of CPUs from 1 to 100000");
    p->cpus = static_cast<int>(n);
  } else if (key == "connections") {
    char* end;
    errno = 0;
    long n = strtol(value.c_str(), &end, 10);
    if (value.empty() || *end || errno || n <= 0 || n > 10000000) return bad("a whole number from 1 to 10000000");
    p->connections = static_cast<int>(n);
  } else if (key == "storage") {
    Storage s;
    if (!ParseStorage(value, &s)) return bad(CommaList(ProfileFactChoices(key)));
    p->storage = s;
  } else if (key == "tablespace") {
    size_t eq = value.find('=');
    Storage s;
    if (eq == std::string::npos || eq == 0 || !ParseStorage(value.substr(eq + 1), &s))
      return bad("NAME=STORAGE with STORAGE one of " + CommaList(ProfileFactChoices("storage")));
    p->tablespaces[value.substr(0, eq)] = s;
  } else if (key == "workload") {
    Workload w;
    if (!ParseWorkload(value, &w)) return bad(CommaList(ProfileFactChoices(key)));
    p->workload = w;
  } else if (key == "os") {
    if (std::find(std::begin(kOses), std::end(kOses), value) == std::end(kOses))
      return bad(CommaList(ProfileFactChoices(key)));
    p->os = value;
  } else if (key == "container") {
    ContainerKind c;
    if (!ParseContainer(value, &c)) return bad(CommaList(ProfileFactChoices(key)));
    p->container = c;
  } else if (IsYesNoFact(key)) {
    bool b;
    if (!ParseYesNo(value, &b)) return bad("yes or no");
    if (key == "io-uring") p->io_uring = b;
    else if (key == "gssapi") p->gssapi = b;
    else if (key == "storage-safe-without-fsync") p->storage_safe_without_fsync = b;
    else p->baseline_measurement = b;
  } else if (key == "huge-page-size") {
    double b;
    if (!ParseBytes(value, &b, &why)) return refuse(why);
    p->huge_page_size_bytes = b;
  } else if (key == "huge-pages") {
    char* end;
    long long n = strtoll(value.c_str(), &end, 10);
    if (value.empty() || *end || n < 0 || n > 1000000000000LL) return bad("a number of huge pages, 0 or more");
    p->huge_pages = static_cast<double>(n);
  } else if (key == "data-size") {
    double b;
    if (!ParseBytes(value, &b, &why)) return refuse(why);
    p->data_size_bytes = b;
  } else if (key == "build-features") {
    std::set<std::string> features;
    if (!ParseBuildFeatures(value, &features, &why)) return refuse(why);
    p->build_features = std::move(features);
  } else if (key == "nodes-per-query" || key == "headroom") {
    double d;
    if (!ParseQuantityOf(value, Dim::kNone, &d, &why)) return refuse(why);
    if (d < 0 || (key == "headroom" && d >= 1)) return bad(key == "headroom" ? "a fraction such as 0.1" : "a number of at least 0");
    (key == "headroom" ? p->headroom : p->nodes_per_query) = d;
  } else {
    *error = "unknown profile fact \"" + key + "\"";
    return false;
  }
  return true;
}

// --- The facts rule conditions read as profile.NAME ---------------------------

namespace {

template <typename T>
ExprValue NumberOr(const std::optional<T>& v, Dim dim = Dim::kNone) {
  return v ? ExprValue::Number(static_cast<double>(*v), dim) : ExprValue::Null();
}

// The facts of the profile's workload (the recommender assumes mixed when the
// profile names none). storage.toml has every workload: the build checks it.
const WorkloadFacts& WorkloadFactsOf(const Profile& p) {
  return BuiltinStorageFacts().workloads.at(WorkloadName(p.workload.value_or(Workload::kMixed)));
}

// The workload's starting share of RAM for shared_buffers.
ExprValue SharedBuffersFraction(const Profile& p) {
  return ExprValue::Number(WorkloadFactsOf(p).shared_buffers_fraction);
}

}  // namespace

// Without a workload, no assumption about the queries: one node per backend
// and 10% of RAM, with which PostgreSQL's own defaults fit a 1GB machine
// (the recommender assumes mixed, and says so, before it asks).
double NodesPerQuery(const Profile& p) {
  return p.nodes_per_query ? *p.nodes_per_query : p.workload ? WorkloadFactsOf(p).nodes_per_query : 1;
}

double Headroom(const Profile& p) {
  return p.headroom ? *p.headroom : p.workload ? WorkloadFactsOf(p).headroom : 0.10;
}

namespace {

// Sorted by name (FindProfileFact's binary search relies on it).
constexpr ProfileFact kProfileFacts[] = {
    {"baseline_measurement", [](const Profile& p) { return ExprValue::Bool(p.baseline_measurement.value_or(false)); }},
    {"connections", [](const Profile& p) { return NumberOr(p.connections); }},
    {"container", [](const Profile& p) {
       return p.container ? ExprValue::String(ContainerName(*p.container)) : ExprValue::Null();
     }},
    {"cpus", [](const Profile& p) { return NumberOr(p.cpus); }},
    {"data_size", [](const Profile& p) { return NumberOr(p.data_size_bytes, Dim::kBytes); }},
    {"gssapi", [](const Profile& p) { return p.gssapi ? ExprValue::Bool(*p.gssapi) : ExprValue::Null(); }},
    {"headroom", [](const Profile& p) { return ExprValue::Number(Headroom(p)); }},
    {"huge_page_size",
     [](const Profile& p) { return ExprValue::Number(p.huge_page_size_bytes.value_or(kDefaultHugePageSize), Dim::kBytes); }},
    {"huge_pages", [](const Profile& p) { return NumberOr(p.huge_pages); }},
    {"io_uring", [](const Profile& p) { return p.io_uring ? ExprValue::Bool(*p.io_uring) : ExprValue::Null(); }},
    {"nodes_per_query", [](const Profile& p) { return ExprValue::Number(NodesPerQuery(p)); }},
    {"os", [](const Profile& p) { return p.os ? ExprValue::String(*p.os) : ExprValue::Null(); }},
    {"ram", [](const Profile& p) { return NumberOr(p.ram_bytes, Dim::kBytes); }},
    {"shared_buffers_fraction", SharedBuffersFraction},
    {"storage", [](const Profile& p) { return p.storage ? ExprValue::String(StorageName(*p.storage)) : ExprValue::Null(); }},
    {"storage_io_concurrency_limit",
     [](const Profile& p) {
       return p.storage ? ExprValue::Number(p.storage->type().io_concurrency_far_above) : ExprValue::Null();
     }},
    {"storage_safe_without_fsync",
     [](const Profile& p) { return ExprValue::Bool(p.storage_safe_without_fsync.value_or(false)); }},
    {"workload",
     [](const Profile& p) { return p.workload ? ExprValue::String(WorkloadName(*p.workload)) : ExprValue::Null(); }},
};

}  // namespace

std::span<const ProfileFact> ProfileFacts() { return kProfileFacts; }

const ProfileFact* FindProfileFact(std::string_view name) {
  auto it = std::lower_bound(std::begin(kProfileFacts), std::end(kProfileFacts), name,
                             [](const ProfileFact& f, std::string_view n) { return f.name < n; });
  return it != std::end(kProfileFacts) && it->name == name ? it : nullptr;
}

}  // namespace pgconflint
