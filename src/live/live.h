// Live servers over libpq: the snapshot taker the CLI gives the core
// (core/server/snapshot.h), and how a connection string is shown without secrets.
#ifndef PGCONFLINT_LIVE_LIVE_H_
#define PGCONFLINT_LIVE_LIVE_H_

#include <string>

#include "core/server/snapshot.h"

namespace pgconflint::live {

struct LiveOptions {
  int connect_timeout_s = 10;        // libpq's connect_timeout unless the connection string sets it
  /// For each query of the snapshot: the server's statement_timeout, and on
  /// this side a deadline 2 s later (a server or network that stops
  /// answering ends the snapshot with an error, never a hang).
  int statement_timeout_ms = 30000;
};

/// Takes snapshots with libpq: one connection per snapshot (URI or key=value
/// connection strings, PG* environment variables, .pgpass and TLS options
/// such as sslmode and sslrootcert honoured by libpq itself),
/// application_name=pgconflint, and every query in one read-only
/// transaction with a statement_timeout. Thread-safe.
class LibpqSnapshotTaker : public SnapshotTaker {
 public:
  explicit LibpqSnapshotTaker(LiveOptions options = {}) : options_(options) {}
  /// *label is the connection string masked (core/model/secrets.h) until the
  /// server names itself; *error holds no secret of `conninfo`, even where
  /// libpq's message echoes it.
  bool Take(const std::string& conninfo, std::string* json, std::string* label, std::string* error) const override;
  bool ThreadSafe() const override;

 private:
  bool TakeUnscrubbed(const std::string& conninfo, std::string* json, std::string* label, std::string* error) const;
  LiveOptions options_;
};

/// Masks every password in a snapshot's JSON (primary_conninfo's, an
/// extension's conninfo parameter's: a snapshot is written to files, logs and
/// editors), written again with `indent` (-1: one line). False with *error
/// when it is not JSON.
bool MaskSnapshotSecrets(std::string* json, int indent, std::string* error);

/// Runs `statement`, one statement that changes the server (ALTER SYSTEM,
/// SELECT pg_reload_conf()), on a connection of its own, outside any
/// transaction block (ALTER SYSTEM refuses one), after
/// SET statement_timeout. After SELECT pg_reload_conf() it waits (2 s at
/// most) until the server has read its files again, so that a snapshot
/// taken next sees them. *label as LibpqSnapshotTaker::Take gives it;
/// *error holds no secret of `conninfo`. Thread-safe as Take is.
bool ExecuteStatement(const std::string& conninfo, const std::string& statement, const LiveOptions& options,
                      std::string* label, std::string* error);

}  // namespace pgconflint::live

#endif  // PGCONFLINT_LIVE_LIVE_H_
