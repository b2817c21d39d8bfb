// Validation of the names rule conditions read, with suggestions.
#include "core/rules/rule_names.h"

#include <algorithm>

#include "core/base/spelling.h"

namespace pgconflint {
namespace {

struct Prefix {
  const char* text;
  NameKind kind;
};
constexpr Prefix kPrefixes[] = {{"profile.", NameKind::kProfile},
                                {"effective.", NameKind::kEffective},
                                {"running.", NameKind::kRunning},
                                {"build.", NameKind::kBuild},
                                {"memory.", NameKind::kMemory}};
constexpr char kPgMajor[] = "pg.major";

// In name order.
constexpr const char* kDerivedValues[] = {
    "autovacuum_max_workers", "autovacuum_work_mem", "io_combine_limit", "io_max_concurrency",
    "io_workers", "max_backends", "max_parallel_maintenance_workers", "max_parallel_workers",
    "max_parallel_workers_per_gather", "shared_memory_size", "shared_memory_size_in_huge_pages",
    "vacuum_buffer_usage_limit", "wal_buffers",
};

// In name order; rule_engine.cc evaluates exactly these.
constexpr const char* kMemoryNames[] = {"backends",        "budget",        "hash_worst_case", "huge_pages_needed",
                                        "nodes_per_query", "shared_memory", "worst_case"};

// In name order.
constexpr BuildFact kBuildFacts[] = {
    {"io_uring", "io_method", "io_uring"},
    {"lz4", "wal_compression", "lz4"},
    {"zstd", "wal_compression", "zstd"},
};

// In name order; profile.cc evaluates exactly these (tests/unit/profile_test.cc).
constexpr const char* kProfileFactNames[] = {
    "baseline_measurement",
    "connections",
    "container",
    "cpus",
    "data_size",
    "gssapi",
    "headroom",
    "huge_page_size",
    "huge_pages",
    "io_uring",
    "nodes_per_query",
    "os",
    "ram",
    "shared_buffers_fraction",
    "storage",
    "storage_io_concurrency_limit",
    "storage_safe_without_fsync",
    "workload",
};

bool IsProfileFactName(std::string_view name) {
  return std::binary_search(std::begin(kProfileFactNames), std::end(kProfileFactNames), name,
                            [](std::string_view a, std::string_view b) { return a < b; });
}

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

void ConsiderParameters(const ParameterNames& parameters, Suggester* s) {
  parameters.ForEach([s](std::string_view p) { s->Consider(p); });
}

// "unknown WHAT "NAME" (did you mean "PREFIX+best"?)": suggestions are sought
// for the part after the prefix, so that the prefix does not widen the budget.
bool Refuse(std::string* error, const char* what, std::string_view name, std::string_view prefix,
            const Suggester& s) {
  *error = std::string(what) + " \"" + std::string(name) + "\"";
  if (!s.best().empty()) *error += " (did you mean \"" + std::string(prefix) + s.best() + "\"?)";
  return false;
}

// A name without a known prefix: a parameter, or a misspelt name of any kind.
bool CheckPlainName(std::string_view name, const ParameterNames& parameters, std::string* error) {
  if (parameters.Has(name)) return true;
  Suggester s(name);
  ConsiderParameters(parameters, &s);
  s.Consider(kPgMajor);
  for (const char* f : kProfileFactNames) s.Consider(std::string("profile.") + f);
  return Refuse(error, "unknown name", name, "", s);
}

}  // namespace

std::span<const char* const> ProfileFactNames() { return kProfileFactNames; }

NameKind ClassifyName(std::string_view name, std::string_view* rest) {
  *rest = name;
  if (name == kPgMajor) return NameKind::kPgMajor;
  for (const Prefix& p : kPrefixes) {
    std::string_view prefix = p.text;
    if (name.substr(0, prefix.size()) == prefix) {
      *rest = name.substr(prefix.size());
      return p.kind;
    }
  }
  return NameKind::kParameter;
}

std::span<const char* const> DerivedValueNames() { return kDerivedValues; }

bool IsDerivedValueName(std::string_view name) {
  return std::binary_search(std::begin(kDerivedValues), std::end(kDerivedValues), name,
                            [](std::string_view a, std::string_view b) { return a < b; });
}

std::span<const char* const> MemoryModelNames() { return kMemoryNames; }

std::span<const BuildFact> BuildFacts() { return kBuildFacts; }

const BuildFact* FindBuildFact(std::string_view name) {
  for (const BuildFact& f : kBuildFacts)
    if (name == f.name) return &f;
  return nullptr;
}

ListedParameterNames::ListedParameterNames(std::vector<std::string> names) : names_(std::move(names)) {
  for (std::string& n : names_) n = Lower(n);
  std::sort(names_.begin(), names_.end());
  names_.erase(std::unique(names_.begin(), names_.end()), names_.end());
}

bool ListedParameterNames::Has(std::string_view name) const {
  return std::binary_search(names_.begin(), names_.end(), Lower(name));
}

void ListedParameterNames::ForEach(const std::function<void(std::string_view)>& fn) const {
  for (const std::string& n : names_) fn(n);
}

bool CheckRuleName(std::string_view name, const ParameterNames& parameters, std::string* error) {
  std::string_view rest;
  const NameKind kind = ClassifyName(name, &rest);
  const std::string_view prefix = name.substr(0, name.size() - rest.size());
  Suggester s(rest);
  switch (kind) {
    case NameKind::kPgMajor: return true;
    case NameKind::kParameter: return CheckPlainName(name, parameters, error);
    case NameKind::kProfile:
      if (IsProfileFactName(rest)) return true;
      for (const char* f : kProfileFactNames) s.Consider(f);
      return Refuse(error, "unknown profile fact", name, prefix, s);
    case NameKind::kEffective:
      if (IsDerivedValueName(rest) || parameters.Has(rest)) return true;
      for (const char* d : kDerivedValues) s.Consider(d);
      ConsiderParameters(parameters, &s);
      return Refuse(error, "unknown derived value or parameter", name, prefix, s);
    case NameKind::kRunning:
      if (parameters.Has(rest)) return true;
      ConsiderParameters(parameters, &s);
      return Refuse(error, "unknown parameter", name, prefix, s);
    case NameKind::kBuild:
      if (FindBuildFact(rest)) return true;
      for (const BuildFact& f : kBuildFacts) s.Consider(f.name);
      return Refuse(error, "unknown build fact", name, prefix, s);
    case NameKind::kMemory:
      for (const char* m : kMemoryNames)
        if (rest == m) return true;
      for (const char* m : kMemoryNames) s.Consider(m);
      return Refuse(error, "unknown memory model value", name, prefix, s);
  }
  return false;
}

}  // namespace pgconflint
