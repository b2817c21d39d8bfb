// Per-table autovacuum from a running server's statistics: for the largest
// tables of a snapshot (pg_stat_user_tables, pg_class), the storage
// parameters of the recommendation's table class (recommend.h, TableClass)
// where autovacuum would otherwise wait for many more dead tuples, each value
// checked against the table options of the server's major (knowledge/sql.json,
// harvested from real servers).
#ifndef PGCONFLINT_CORE_ADVICE_RECOMMEND_TABLES_H_
#define PGCONFLINT_CORE_ADVICE_RECOMMEND_TABLES_H_

#include <string>
#include <vector>

#include "core/advice/recommend.h"
#include "core/model/analysis.h"
#include "core/server/snapshot.h"

namespace pgconflint {

/// One table that needs its own autovacuum storage parameters.
struct TableAdvice {
  std::string table;  // schema.name, for display
  std::string sql;    // ALTER TABLE "schema"."name" SET (...);
  std::string why;    // the table's size, dead tuples, and the trigger before and after
};

/// The tables of `tables` (a snapshot's, largest first) whose vacuum trigger
/// under `current` (the server's settings and the table's own reloptions) is
/// well above the recommendation's table class for their size and use (oltp,
/// mixed, or insert-mostly: bulk-load), with the options they lack. Tables of
/// fewer than about 316,000 rows (half way, in log scale, to the smallest
/// class of 1M) keep the server's settings. Options the server's major does
/// not have, or values outside their range, are left out and said in *notes.
/// REQUIRES: current.catalog non-null.
std::vector<TableAdvice> AdviseTables(const Recommendation& r, const Analysis& current,
                                      const std::vector<SnapshotTable>& tables, std::vector<std::string>* notes);

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_ADVICE_RECOMMEND_TABLES_H_
