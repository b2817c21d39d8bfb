// `pgconflint recommend`: a PostgreSQL-18-aware settings matrix per storage
// type, the machine-dependent block, per-tablespace options, the autovacuum
// matrix per table size, and a rollout plan from a current configuration.
//
// Storage facts and starting points come from knowledge/storage.toml (each
// with its reason and source); machine formulas are in recommend.cc and are
// built to pass `check` under the same profile (the memory model of
// memory-overcommit, the AIO caps...), which tests hold them to.
#ifndef PGCONFLINT_CORE_RECOMMEND_H_
#define PGCONFLINT_CORE_RECOMMEND_H_

#include <optional>
#include <string>
#include <vector>

#include "core/analysis.h"
#include "core/catalog.h"
#include "core/profile.h"

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
  std::string sql;
};

struct TableClass {
  std::string label;      // "~10M rows, OLTP"
  double rows;
  std::string workload;   // oltp, bulk-load, mixed
  std::vector<Cell> options;  // table storage parameters
  double vacuum_trigger;  // dead tuples that start a vacuum with these options
  double default_trigger; // with the global defaults
  std::string sql;
};

struct Recommendation {
  int major = 18;
  Profile profile;  // with the defaults filled in (workload, connections)
  std::vector<std::string> assumptions;
  std::vector<StorageRow> matrix;  // all six storage types
  int selected = -1;               // index into matrix of the profile's storage
  std::vector<Cell> machine;
  std::vector<TablespaceAdvice> tablespaces;
  std::vector<Cell> autovacuum;    // global autovacuum settings
  std::vector<TableClass> tables;
  std::vector<std::string> sources;  // "key: text" of the sources cited
};

/// Computes the recommendation for `profile`. It needs the profile's RAM and
/// CPUs; without them returns false and says what to add in *error.
bool Recommend(const Profile& profile, const Catalog& catalog, Recommendation* out, std::string* error);

enum class RecommendFormat { kTable, kMarkdown, kJson, kConf, kSql };

/// Renders the recommendation. `all` prints every storage row; otherwise the
/// profile's storage (all rows when the profile names none).
std::string RenderRecommendation(const Recommendation& r, RecommendFormat format, bool all);

/// The ordered rollout from `current` (an analysed configuration) to the
/// recommendation: session trials, tablespaces, reloads, a restart window,
/// each with the query that verifies it. Only settings outside the
/// recommended range are changed.
std::string RenderPlan(const Recommendation& r, const Analysis& current, bool markdown);

/// An ALTER SYSTEM statement for `param` = `value` with PostgreSQL's list
/// rules: list parameters take unquoted comma-separated items (each quoted
/// on its own), never one quoted string
/// (docs/postgresql-semantics.md#alter-system-lists).
std::string AlterSystemStatement(const Parameter& param, const std::string& value);

/// The recommended range for `parameter` under `r`, for check's hints; null if
/// the recommendation has none.
const Cell* RecommendedCell(const Recommendation& r, const std::string& parameter);

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_RECOMMEND_H_
