// Helpers shared by the recommender's own files (recommend*.cc) and nothing
// else. Number and size spelling come from core/base/quantity.h.
#ifndef PGCONFLINT_CORE_ADVICE_RECOMMEND_INTERNAL_H_
#define PGCONFLINT_CORE_ADVICE_RECOMMEND_INTERNAL_H_

#include <cmath>
#include <optional>
#include <string>

#include "core/knowledge/catalog.h"
#include "core/model/analysis.h"
#include "core/advice/recommend.h"
#include "core/knowledge/storage_facts.h"

namespace pgconflint::recommend_internal {

inline constexpr double kMB = 1024.0 * 1024;
inline constexpr double kGB = kMB * 1024;

/// `bytes` rounded down to whole MB.
inline double FloorMB(double bytes) { return std::floor(bytes / kMB) * kMB; }

/// A count or fraction as the tables print it: "2000", "0.05", "1e+08".
std::string Num(double v);

/// A size in postgresql.conf spelling, rounded down to whole MB (or kB, at
/// least 64kB, below 1MB): "16GB", "1536MB", "256kB".
std::string Size(double bytes);

/// Fills r->huge_pages and the huge_pages cell of r->machine for
/// `recommended`, the settings of r->machine and r->autovacuum
/// (recommend_huge_pages.cc).
void AddHugePages(const Analysis& recommended, Recommendation* r);

/// Fills r->matrix (every storage type, in storage.toml's order), r->selected
/// and r->tablespaces. `io_max` is the resolved io_max_concurrency (1000
/// before 18). REQUIRES: r->profile complete (CPUs known).
void AddStorage(const Catalog& cat, double io_max, Recommendation* r);

/// Fills r->autovacuum (global settings sized for `data`, the data
/// directory's storage) and r->tables (storage parameters per table size).
void AddAutovacuum(const Catalog& cat, const StorageType& data, Recommendation* r);

/// A parameter's boot value as a number (0 when the major lacks it).
double BootValue(const Catalog& cat, const char* name);

/// The largest size parameter `name` accepts, in whole MB (infinity when
/// this major has no such memory parameter), on `os` when the profile says.
double MaxSize(const Catalog& cat, const char* name, const std::optional<std::string>& os = std::nullopt);

/// Lowers every value and range bound of r's cells (machine, matrix,
/// autovacuum) that its parameter refuses as too large to the largest one it
/// accepts, and says so in r->assumptions (recommend_limits.cc).
void ClampCells(const Catalog& cat, const std::optional<std::string>& os, Recommendation* r);

/// Without --storage: caps effective_io_concurrency and
/// maintenance_io_concurrency in r->machine where their defaults exceed
/// `io_max`, the resolved io_max_concurrency (recommend_limits.cc).
void CapDefaultIoConcurrency(const Catalog& cat, double io_max, Recommendation* r);

}  // namespace pgconflint::recommend_internal

#endif  // PGCONFLINT_CORE_ADVICE_RECOMMEND_INTERNAL_H_
