// The input classifier: the one place that looks at the names, paths and
// content of inputs to decide what each one is (a postgresql.conf root, a
// fragment, postgresql.auto.conf, pg_hba.conf, pg_ident.conf, a file those
// include, a SQL script, or not PostgreSQL at all) and which roots it belongs
// to. Roots are found by reachability, as the server reads its files:
// include, include_dir, include_if_exists, hba_file and ident_file (absolute
// server paths mapped onto the checked tree), and pg_hba.conf/pg_ident.conf
// include* and @file. The verdict on a file then depends on the tree it is
// part of, never on which files were named.
#ifndef PGCONFLINT_CORE_CONF_CLASSIFY_H_
#define PGCONFLINT_CORE_CONF_CLASSIFY_H_

#include <functional>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/model/analysis.h"
#include "core/base/file_system.h"
#include "core/base/git_ignore.h"
#include "core/model/settings_source.h"

namespace pgconflint {

// --- By name, path and content alone -----------------------------------------

/// What a file's name says it is.
enum class NamedAs : uint8_t {
  kOther,
  kPostgresqlConf,  // postgresql.conf
  kAutoConf,        // postgresql.auto.conf
  kHba,             // pg_hba.conf
  kIdent,           // pg_ident.conf
  kSql,             // *.sql (any case)
};
NamedAs NameOf(std::string_view path);
/// pg_hba.conf or pg_ident.conf by name.
bool IsAuthFileName(std::string_view path);
/// A SQL script by name (*.sql, any case).
bool IsSqlPath(std::string_view path);
/// postgresql.auto.conf: by name, or by the header ALTER SYSTEM writes.
bool IsAutoConf(std::string_view path, std::string_view text);

/// What a file's text looks like.
enum class Looks : uint8_t {
  kNothing,  // only blanks and comments
  kConf,     // postgresql.conf lines: names of parameters (any major), custom names, include directives
  kHba,      // pg_hba.conf records (local, host..., include...)
  kOther,    // anything else (nginx, an INI file with [sections], YAML...)
};
/// Judged line by line; precision first: a file is kConf when no line is an
/// INI section header and the lines that name a PostgreSQL parameter (or an
/// include directive, or a custom name) are at least as many as those that do
/// not. Never reads beyond `text`.
Looks LooksLike(std::string_view text);

/// The major a path names the way Debian and RPM packages lay out clusters:
/// /etc/postgresql/N/..., /var/lib/postgresql/N/..., /var/lib/pgsql/N/...,
/// /usr/lib/postgresql/N/..., /usr/pgsql-N/... (anywhere in the path, so that
/// a repository's copy deploy/etc/postgresql/16/main/ names 16 too); 0 when
/// it names none.
int MajorFromPath(std::string_view path);

/// A path the server would open (hba_file, ident_file: absolute, as on the
/// server's host) as a file of the checked tree: `root_dir`/NAME when
/// `root_dir` holds a file of that name and the server's directory is one a
/// package lays out (/etc/postgresql/16/main) or ends the same way as
/// `root_dir` does. "" when it maps to nothing: the server's own copy is
/// never read in its place.
std::string MapServerPath(const FileSystem& fs, const std::string& server_path, const std::string& root_dir);

// --- In the tree --------------------------------------------------------------

/// What an input is.
enum class InputKind : uint8_t {
  kDataDirectory,  // a directory: postgresql.conf, postgresql.auto.conf, pg_hba.conf, pg_ident.conf
  kConfRoot,       // a postgresql.conf-style file no other file includes (postgresql.conf: its directory's)
  kConfFragment,   // a postgresql.conf-style file a root includes
  kAutoConf,       // postgresql.auto.conf
  kHba,            // a pg_hba.conf (a data directory's, or what hba_file names)
  kIdent,          // a pg_ident.conf
  kHbaInclude,     // a file pg_hba.conf includes or names with @
  kIdentInclude,   // a file pg_ident.conf includes or names with @
  kSqlScript,      // a SQL script
  kNotPostgres,    // not PostgreSQL configuration: not checked
  kMissing,        // nothing there (the lint says so)
};
/// "data directory", "postgresql.conf root", ...
std::string_view InputKindName(InputKind kind);

/// What classifying one input found.
struct InputClass {
  InputKind kind = InputKind::kMissing;
  /// The roots to lint for it, absolute: data directories or root files. A
  /// root is its own; a file no root reaches is its own root (checked alone).
  std::vector<std::string> roots;
  bool alone = false;  // no root reaches it: checked on its own
  std::string why;     // how it was decided, for --verbose
};

/// One file a root reads, and as what.
struct ReachedFile {
  std::string abs_path;
  FileKind kind = FileKind::kConf;
  bool auto_conf = false;
  bool top = false;  // not included by another file: the root file, pg_hba.conf, pg_ident.conf
};

/// The files a root reads: the workspace collects the root as a lint does.
using RootReader = std::function<std::vector<ReachedFile>(const std::string& root)>;

/// Bounds of the walk that looks for roots (a repository may hold anything).
struct TreeLimits {
  int max_depth = 8;           // directories below the base
  size_t max_entries = 20000;  // directory entries looked at
  size_t max_candidates = 500; // postgresql.conf-style files read as possible roots
};

/// The roots of one tree and the files each reaches. Built on first use;
/// not thread-safe.
class TreeIndex {
 public:
  /// `base`: the directory whose files may be roots (absolute); `descend`:
  /// look below it (a repository or project), skipping what its .gitignore
  /// files ignore, else only in `base` and the directories between it and
  /// each classified file (as for a file in an ignored directory).
  /// Files are read through `cache` (once, as the lints read them).
  /// REQUIRES: `cache` outlives the index.
  TreeIndex(FileCache* cache, std::string base, bool descend, RootReader read, TreeLimits limits = {});

  /// What `abs` (absolute, canonical) is, and its roots. `forced`: the
  /// project configuration's `include` globs name it as configuration.
  InputClass Classify(const std::string& abs, bool forced = false);

  /// The data directories (directories holding a postgresql.conf) of a tree
  /// the index walks, sorted; none when it does not descend.
  std::vector<std::string> DataDirectories();

 private:
  void AddRoot(const std::string& root);
  void Walk(const std::string& dir, int depth);
  void Consider(const std::string& dir);  // the candidates of one directory
  void Build();
  std::shared_ptr<const std::string> Text(const std::string& path);

  FileCache* cache_;
  const FileSystem& fs_;
  std::string base_;
  bool descend_;
  RootReader read_;
  TreeLimits limits_;
  bool built_ = false;
  size_t entries_ = 0, candidates_ = 0;
  GitIgnore ignore_;                  // the .gitignore files of the walked directories
  std::set<std::string> considered_;  // directories whose files were looked at
  std::set<std::string> roots_;       // data directories and candidate root files
  std::vector<std::string> data_dirs_;  // the data directories the walk found
  /// file -> the roots that reach it, with how they read it.
  std::map<std::string, std::vector<std::pair<std::string, ReachedFile>>> reach_;
};

/// The directory that bounds the search for roots of `abs`: the directory of
/// the project configuration `config` (absolute, "" for none), else the top
/// of the git work tree holding it; `*descend` says whether to look below it.
/// Without either, the file's directory and up to four above it, not below.
std::string TreeBase(const FileSystem& fs, const std::string& abs, const std::string& config, bool* descend);

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_CONF_CLASSIFY_H_
