// The model of one root: the files (or other sources) that were read, every
// setting with its origin, in the order PostgreSQL applies them, and the
// diagnostics. Settings sources (settings_source.h) fill it; the passes
// (passes.h) resolve names, duplicates and values; rules add findings.
#ifndef PGCONFLINT_CORE_MODEL_ANALYSIS_H_
#define PGCONFLINT_CORE_MODEL_ANALYSIS_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/knowledge/catalog.h"
#include "core/model/diagnostic.h"
#include "core/rules/rules.h"
#include "core/base/source_file.h"
#include "core/model/syntax.h"

namespace pgconflint {

/// Where a file was included from.
struct IncludeSite {
  int file = -1;        // index into Analysis::files; -1 for a root file
  uint32_t line = 0;    // 1-based line of the include directive
  uint32_t offset = 0;  // byte offset of the directive in that file
};

/// What a file is read as.
enum class FileKind : uint8_t {
  kConf,   // postgresql.conf syntax (and postgresql.auto.conf)
  kHba,    // pg_hba.conf, its includes and @files
  kIdent,  // pg_ident.conf, its includes and @files
};

struct AuthConfig;  // core/hba/hba.h

/// One file that was read.
struct LoadedFile {
  std::string abs_path;  // as PostgreSQL computes it (AbsoluteConfigLocation)
  SourceFile source;     // source.path() is the display path
  ParsedFile parsed;
  IncludeSite included_from;
  int depth = 0;
  bool auto_conf = false;  // postgresql.auto.conf (written by ALTER SYSTEM)
  FileKind kind = FileKind::kConf;  // kHba / kIdent: `parsed` holds only comments and one line per record
};

/// Where one setting came from. Scoped origins (a database, a role, both)
/// apply only to sessions in that scope.
struct Origin {
  enum class Kind : uint8_t {
    kFile,           // a line of a configuration file (Setting::file, ::line)
    kAlterSystem,    // an ALTER SYSTEM statement (it ends up in postgresql.auto.conf)
    kAlterDatabase,  // ALTER DATABASE d SET
    kAlterRole,      // ALTER ROLE r [IN DATABASE d] SET
    kSession,        // SET / set_config() in a script
    kServer,         // reported by a running server
  };
  Kind kind = Kind::kFile;
  std::string database;  // scope; empty = every database
  std::string role;      // scope; empty = every role

  /// A setting of the cluster's configuration (a file line, ALTER SYSTEM, a
  /// server's own value), not a per-database, per-role or session default.
  bool cluster_wide() const {
    return kind == Kind::kFile || kind == Kind::kAlterSystem || (kind == Kind::kServer && database.empty() && role.empty());
  }
  /// A pg_db_role_setting row: ALTER DATABASE or ALTER ROLE (ALL) ... SET.
  bool scoped() const { return kind == Kind::kAlterDatabase || kind == Kind::kAlterRole; }
};

/// The sessions a pg_db_role_setting row applies to: a database, a role,
/// both, or (both empty) every session (ALTER ROLE ALL).
struct Scope {
  std::string database;  // empty = every database
  std::string role;      // empty = every role
  bool operator==(const Scope& o) const { return database == o.database && role == o.role; }
  bool operator<(const Scope& o) const { return database != o.database ? database < o.database : role < o.role; }
  /// "role app in database shop", "database shop", "every session".
  std::string Describe() const;
};

/// One `name = value` setting, after PostgreSQL's processing.
struct Setting {
  std::string name;                  // as written
  const Parameter* param = nullptr;  // null for unknown names and custom (dotted) placeholders
  std::string raw;                   // the value as written (quotes removed, escapes kept)
  std::string text;                  // the value PostgreSQL reads (unescaped)
  std::optional<std::string> value;  // what `postgres -C` prints; nullopt when invalid or unknown
  Origin origin;
  int file = -1;  // index into Analysis::files of the line (or statement) that sets it
  uint32_t line = 0;
  Range name_range;
  Range value_range;
  bool quoted = false;     // the value was a quoted string
  bool ignored = false;    // a later line with the same spelling wins (PGC303)
  bool applied = false;    // not ignored and valid
  int overridden_by = -1;  // index into Analysis::settings of the next setting of the parameter
  std::string problem;     // why the server refuses the value; empty when it does not
  double number = 0;       // integer/real value in the base unit when applied
};

/// One tablespace option: CREATE/ALTER TABLESPACE in a script, or a
/// server's pg_tablespace.spcoptions.
struct TablespaceSetting {
  std::string tablespace;
  std::string option;  // lower case
  std::string value;   // as the server stores it
  int file = -1;       // where it is set (index into Analysis::files)
  Range name_range, value_range;
};

/// A tablespace the input has: created or altered by a script, or listed in
/// a server's pg_tablespace (pg_default and pg_global excepted: the
/// server-wide settings govern them).
struct TablespaceRef {
  std::string name;
  int file = -1;  // where it is created or first altered; -1 when no line names it
  Range range;
};

/// LOAD 'library' in a script: the module is in the session from `offset`
/// (of the statement, in the script's file) on.
struct SessionLoad {
  std::string module;
  uint32_t offset = 0;
};

/// Everything known about one root.
struct Analysis {
  std::string root;  // the PATH as given
  const Catalog* catalog = nullptr;
  /// A whole configuration (a data directory or a root file the classifier
  /// found, not a fragment checked alone): findings about its defaults may
  /// blame it (core/model/finding_placement.h).
  bool whole_configuration = false;
  /// A SQL script: the data directory or postgresql.conf it runs against
  /// (absolute; Workspace::ClusterFor); "": an empty cluster.
  std::string cluster;
  /// An include of the tree was not read (missing, outside the tree, a
  /// cycle): which lines set a parameter is not known, so no finding blames
  /// a default.
  bool incomplete_tree = false;
  /// Nothing named the major (MajorChoice::assumed): a fix that depends on
  /// it, such as a rename, needs a reader.
  bool major_assumed = false;
  /// The operating system the server runs on (the profile's --os: "linux",
  /// "windows"...), for the defaults and limits that differ by platform
  /// (core/knowledge/platform.h); nullopt: not said, the catalog's hold.
  std::optional<std::string> os;
  std::vector<LoadedFile> files;
  std::vector<Setting> settings;        // in PostgreSQL's reading order
  std::vector<Diagnostic> diagnostics;  // sorted by file, position, code
  /// pg_hba.conf and pg_ident.conf as the server reads them, when the root
  /// has them (core/hba/hba_source.h); null otherwise.
  std::shared_ptr<const AuthConfig> auth;
  /// Tablespace options and databases' default tablespaces, when the input
  /// has them (SQL scripts, server snapshots).
  std::vector<TablespaceSetting> tablespace_settings;
  std::vector<TablespaceRef> tablespaces;  // in the order the input first names them
  std::map<std::string, std::string> database_tablespaces;  // database -> tablespace
  std::vector<SessionLoad> session_loads;  // a script's LOAD statements, in order

  /// Set when the root itself cannot be analysed (missing, unreadable, binary).
  enum class Failure { kNone, kUsage, kIo } failure = Failure::kNone;
  std::string failure_message;

  /// True when a reported finding says PostgreSQL refuses to start (the
  /// summary, the JSON and the exit code all read the reported findings), or
  /// the root could not be read.
  bool fatal() const;

  /// The include chain of `file`, outermost first (empty for a root file).
  std::vector<IncludeSite> IncludeChain(int file) const;
  /// The applied cluster-wide setting that decides `name` (last one wins),
  /// or null. Per-database, per-role and session settings never decide it.
  const Setting* Effective(std::string_view name) const;
  /// Call after changing Setting::applied once Effective() was used.
  void SettingsChanged() { effective_indexed_ = false; }
  /// The scopes of the pg_db_role_setting rows among the settings, sorted.
  std::vector<Scope> Scopes() const;
  /// A key that orders positions as PostgreSQL reads them (includes expanded
  /// where they stand): the root's index, the offsets along the include
  /// chain, then `offset`.
  std::vector<uint32_t> ReadingOrder(int file, uint32_t offset) const;
  /// Sorts diagnostics in reading order, then by code (stable).
  void SortDiagnostics();
  /// Adds a diagnostic and returns it (for notes and fixes).
  Diagnostic& Add(Diagnostic d);
  /// The display path and 1-based line of a location, for notes ("file:12").
  std::string Describe(Location where) const;

 private:
  // Effective()'s index: lower-cased resolved name -> the deciding setting.
  mutable std::unordered_map<std::string, size_t> effective_index_;  // indices: safe to copy
  mutable bool effective_indexed_ = false;
};

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_MODEL_ANALYSIS_H_
