// The catalog queries of a snapshot, shared word for word by the libpq
// client (live.cc) and scripts/snapshot.sql (a test holds the script to
// them): each returns one JSON value, and the snapshot is the object of
// those values under fixed keys (core/server/snapshot.h).
#ifndef PGCONFLINT_LIVE_QUERIES_H_
#define PGCONFLINT_LIVE_QUERIES_H_

#include <span>

namespace pgconflint::live {

/// One section of a snapshot.
struct SnapshotQuery {
  const char* key;         // the snapshot's key for it ("settings")
  const char* sql;         // returns one JSON value
  const char* visibility;  // a query returning true when the role may run `sql`; null: always
};

/// The sections, in the order the snapshot lists them ("info" first).
std::span<const SnapshotQuery> SnapshotQueries();

}  // namespace pgconflint::live

#endif  // PGCONFLINT_LIVE_QUERIES_H_
