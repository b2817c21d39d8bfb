// The size of the main shared memory area, computed offline as the server
// computes it at start (shared_memory_size, shared_memory_size_in_huge_pages).
//
// The server adds up an estimate per subsystem: buffers and their lookup
// table, lock and predicate-lock tables, process slots, SLRU caches, WAL
// buffers, asynchronous I/O handles... This file says which terms exist in
// each major and how many units of each a configuration asks for (facts from
// PostgreSQL's documentation and source, in docs/postgresql-semantics.md);
// the bytes per unit are measured on real servers (knowledge/shared_memory.json,
// scripts/harvest_shared_memory.py) and held to them by
// tests/integration/test_shared_memory.py.
#ifndef PGCONFLINT_CORE_MODEL_SHARED_MEMORY_H_
#define PGCONFLINT_CORE_MODEL_SHARED_MEMORY_H_

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/model/effective.h"
#include "core/rules/profile.h"

namespace pgconflint {

/// One term of the estimate: how many units of it a configuration asks for.
struct ShmemTerm {
  const char* name;  // "buffers", "lock table entries" (a key of knowledge/shared_memory.json)
  double count;
};

/// The server's estimate of its main shared memory area.
struct SharedMemorySize {
  double bytes = 0;      // what the server requests, a multiple of 8192
  double max_error = 0;  // bytes the measured model was off at most on the harvest's points
  /// What the estimate does not count: libraries of shared_preload_libraries
  /// (their shared memory is theirs to request), io_method = io_uring. With
  /// any, `bytes` is a lower bound.
  std::vector<std::string> uncounted;
  struct Part {
    ShmemTerm term;
    double bytes;
  };
  std::vector<Part> parts;  // every term with its bytes, in term order

  /// shared_memory_size: the bytes rounded up to whole megabytes.
  double megabytes() const;
  bool lower_bound() const { return !uncounted.empty(); }
};

/// The terms of the estimate in `eff`'s major with their counts (none
/// without a model for the major: ShmemFactsFor).
std::vector<ShmemTerm> SharedMemoryTerms(const EffectiveConfig& eff);

/// The estimate, or nullopt when no measured facts exist for the major (or
/// a term of the major has no measured cost).
std::optional<SharedMemorySize> ComputeSharedMemory(const EffectiveConfig& eff);

/// shared_memory_size_in_huge_pages for `bytes` and pages of `page` bytes:
/// the server shows the whole pages in the area plus one.
double HugePagesShown(double bytes, double page);
/// The huge pages the server maps with huge_pages = on: the area rounded up
/// to whole pages.
double HugePagesMapped(double bytes, double page);

/// The huge page size the server uses: huge_page_size when set (not 0),
/// else the host's default, the profile's --huge-page-size (2MB when not
/// given: Profile::huge_page_size_bytes).
double HugePageSizeOf(const EffectiveConfig& eff, const Profile& profile);

/// What rule conditions read as memory.NAME: "shared_memory", the area's
/// bytes (at least, when the estimate leaves something out);
/// "huge_pages_needed", the fewest huge pages the server can map it with
/// under huge_pages = on (the model's largest measured error taken off).
/// Nullopt without a model for the major, for another name, and for
/// huge_pages_needed when huge_page_size names a size other than the
/// profile's (its --huge-pages counts pages of that size).
std::optional<double> SharedMemoryFact(std::string_view name, const EffectiveConfig& eff, const Profile& profile);

/// The parameters the estimate reads, in every major: a rule that uses it
/// stays silent when the server would refuse the value of any of them.
std::span<const char* const> SharedMemoryInputs();

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_MODEL_SHARED_MEMORY_H_
