// A snapshot of a running server's configuration: what `pgconflint
// snapshot` (libpq, src/live) and scripts/snapshot.sql (psql alone) write as
// JSON, and what `check --snapshot`, `check --live` and the drift comparison
// read. Each section is the result of one catalog query (pg_settings,
// pg_file_settings, pg_db_role_setting, pg_tablespace, pg_database, pg_roles,
// pg_hba_file_rules, pg_ident_file_mappings, pg_stat_user_tables of the
// connected database); a section the connecting role
// cannot read is null, and
// the privileges say why. New sections are added as new keys; readers ignore
// keys they do not know.
#ifndef PGCONFLINT_CORE_SERVER_SNAPSHOT_H_
#define PGCONFLINT_CORE_SERVER_SNAPSHOT_H_

#include <atomic>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/hba/hba_server.h"

namespace pgconflint {

/// One pg_settings row.
struct SnapshotSetting {
  std::string name, setting, unit, vartype, context, source, boot_val, reset_val;
  std::string sourcefile;  // "" when null (not from a file, or not visible)
  int sourceline = 0;
  bool pending_restart = false;
};

/// One pg_file_settings row.
struct SnapshotFileSetting {
  std::string sourcefile, name, setting, error;  // name "" for a line that did not parse
  int sourceline = 0, seqno = 0;
  bool applied = false;
};

/// One pg_db_role_setting row: "" for every database or every role.
struct SnapshotDbRoleSetting {
  std::string database, role;
  std::vector<std::string> settings;  // "name=value", as the server stores them
};

struct SnapshotTablespace {
  std::string name;
  std::vector<std::string> options;  // "option=value"
};

struct SnapshotDatabase {
  std::string name, tablespace;  // its default tablespace
};

/// One pg_roles row: a role, or a group role when it cannot log in.
struct SnapshotRole {
  std::string name;
  bool login = false;  // rolcanlogin
};

/// One row of the "tables" section: an ordinary table of the database the
/// snapshot connected to, from pg_stat_user_tables and pg_class; the section
/// holds the largest kMaxTables, largest first. Counts are since the
/// statistics were last reset.
struct SnapshotTable {
  static constexpr int kMaxTables = 100;
  std::string schema, name;
  double bytes = 0;       // pg_table_size: the heap, its TOAST table and maps
  double reltuples = -1;  // pg_class.reltuples, autovacuum's row count (-1: never vacuumed or analyzed)
  double live = 0, dead = 0;                      // n_live_tup, n_dead_tup
  double inserted = 0, updated = 0, deleted = 0;  // n_tup_ins, n_tup_upd, n_tup_del
  double inserted_since_vacuum = 0;               // n_ins_since_vacuum
  double modified_since_analyze = 0;              // n_mod_since_analyze
  std::vector<std::string> options;               // pg_class.reloptions: "name=value"
};

struct Snapshot {
  static constexpr int kFormat = 1;
  std::string server;    // a label without secrets: user@host:port/dbname
  std::string taken_at;  // the server's now()
  int server_version_num = 0;
  std::string server_version, user, database;
  bool superuser = false, pg_read_all_settings = false, pg_monitor = false;
  std::vector<SnapshotSetting> settings;
  std::optional<std::vector<SnapshotFileSetting>> file_settings;  // nullopt: not visible
  std::vector<SnapshotDbRoleSetting> db_role_settings;
  std::vector<SnapshotTablespace> tablespaces;
  std::vector<SnapshotDatabase> databases;  // those that allow connections
  std::vector<SnapshotRole> roles;          // empty in a snapshot taken before roles were read
  std::optional<std::vector<ServerHbaRule>> hba_rules;  // nullopt: not visible
  // pg_ident_file_mappings (15+). nullopt: not visible, or before 15.
  std::optional<std::vector<ServerIdentMapping>> ident_mappings;
  /// The largest tables of the connected database. nullopt: a snapshot taken
  /// before the section existed.
  std::optional<std::vector<SnapshotTable>> tables;

  /// The major (server_version_num / 10000).
  int major() const { return server_version_num / 10000; }
  /// The pg_settings row of `name` (ASCII case-insensitive; the first one),
  /// or null. Callers ask once per row: in a snapshot that ReadSnapshot made
  /// (a file from anywhere), through the index IndexSettings builds, else by
  /// a scan (a snapshot built by hand; a scan per row is quadratic in the
  /// rows of a crafted file).
  const SnapshotSetting* Setting(std::string_view name) const;
  /// Indexes `settings` by lower-case name. A later change of `settings`'
  /// size makes Setting scan again; change no name in place after it.
  void IndexSettings();
  std::unordered_map<std::string, size_t> setting_index;  // lower-case name -> first row
  size_t indexed_rows = 0;                                // settings.size() when indexed
  /// Whether the server refused line `f` of its files: an error other than
  /// "setting could not be applied", or that one for a parameter with no
  /// pending restart (the server reports a refused value with the same text
  /// as a postmaster change that waits for a restart).
  bool Refused(const SnapshotFileSetting& f) const;
};

/// Reads a snapshot's JSON:
///   {"pgconflint_snapshot": 1, "server": LABEL, "info": {...},
///    "settings": [...], "file_settings": [...] | null, "db_role_settings": [...],
///    "tablespaces": [...], "databases": [...], "roles": [...], "hba_rules": [...] | null,
///    "ident_mappings": [...] | null, "tables": [...]}
/// where each section is the output of its query (src/live/queries.cc,
/// scripts/snapshot.sql). False with *error when it is not a snapshot, or
/// one of its sections or fields has another type than its query gives it
/// (*error says where: "settings[3].sourceline: expected an integer, ...").
/// Never throws.
bool ReadSnapshot(std::string_view json, Snapshot* out, std::string* error);

/// Takes snapshots of running servers. Core defines it and never connects
/// itself: src/live implements it over libpq. Implementations are
/// thread-safe (a fleet is snapshotted concurrently).
class SnapshotTaker {
 public:
  virtual ~SnapshotTaker() = default;
  /// Connects with `conninfo` (a URI or key=value string) and returns the
  /// snapshot's JSON in *json. False with *error when the server cannot be
  /// reached or read; the error never holds a password. *label names the
  /// server without secrets, either way.
  virtual bool Take(const std::string& conninfo, std::string* json, std::string* label, std::string* error) const = 0;
  /// False when Take may only run on the main thread: a fleet is then taken one server
  /// after the other (the static release binary, whose libpq runs on a second C library).
  virtual bool ThreadSafe() const { return true; }
};

/// What the editor server asks of a running server: its snapshot, after
/// one statement that changes it when `statement` is given (ALTER SYSTEM,
/// SELECT pg_reload_conf()), whether the statement ran or not. No secret of
/// the conninfo is in any field of the reply.
struct LiveRequest {
  std::string conninfo;
  std::string statement;             // "": read only
  int connect_timeout_s = 5;         // libpq's connect_timeout unless the connection string sets it
  int statement_timeout_ms = 5000;   // each statement's statement_timeout
};

struct LiveReply {
  bool executed = false;         // `statement` ran
  std::string statement_error;   // why it did not ("" when it ran, or there was none)
  std::string label;             // the server without secrets: user@host:port/dbname, else the masked conninfo
  std::string error;             // why the snapshot could not be taken; "" when it was
  std::string snapshot;   // the snapshot's JSON (ReadSnapshot); "" when it could not be taken
};

/// Talks to running servers for the editor server. Core defines it and
/// never connects itself: src/live implements it (libpq in a child
/// process, so that a slow or hung server or name lookup can be abandoned).
class LiveClient {
 public:
  virtual ~LiveClient() = default;
  /// Blocks until the server answered, failed, the client's own deadline
  /// passed, or `cancel` became true. Thread-safe.
  virtual LiveReply Ask(const LiveRequest& request, const std::atomic<bool>& cancel) const = 0;
};

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_SERVER_SNAPSHOT_H_
