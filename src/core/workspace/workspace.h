// The workspace: the one object every front end (check, pre-commit, diff,
// the editor server, live mode, rule examples and docs) uses to lint. It
// finds and loads `.pgconflint.toml`, the profile and the rules for each
// root, picks the PostgreSQL major, and runs the one pipeline: classify ->
// sources -> collect -> passes -> checks -> filter -> fold -> sort. It says
// what an input is and which roots hold it (core/conf/classify.h), and which of a
// root's findings belong to the files asked about. Files are read through
// the injected FileSystem, each once until Forget().
#ifndef PGCONFLINT_CORE_WORKSPACE_WORKSPACE_H_
#define PGCONFLINT_CORE_WORKSPACE_WORKSPACE_H_

#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/model/analysis.h"
#include "core/conf/classify.h"
#include "core/knowledge/extension_catalog.h"
#include "core/base/file_system.h"
#include "core/hba/hba_server.h"
#include "core/hba/hba_source.h"
#include "core/base/host.h"
#include "core/rules/profile.h"
#include "core/workspace/project_config.h"
#include "core/rules/rules.h"
#include "core/model/settings_source.h"
#include "core/server/snapshot.h"

namespace pgconflint {

struct WorkspaceOptions {
  const FileSystem* fs = nullptr;  // null: the real disk. REQUIRES: outlives the workspace
  const HostFacts* host = nullptr; // null: this machine, not taken to be the server's host
  int pg_version = 0;              // 0: the config file's, a root's `pg-version=` directive, else the default
  bool use_config = true;          // false: ignore .pgconflint.toml (--no-config)
  std::string config_path;         // --config FILE: use it for every root
  std::vector<std::pair<std::string, std::string>> profile_facts;  // flags, applied over the config's
  std::vector<std::string> rule_paths;  // --rules DIR|FILE
  std::vector<std::string> select;      // replaces the config's when non-empty
  std::vector<std::string> ignore;      // added to the config's
  const std::map<std::string, std::string>* running = nullptr;  // pg_settings of a running server
  RootFileType file_type = RootFileType::kAuto;  // how a file PATH is read (--file-type)
  std::vector<std::string> extension_catalogs;   // --extension-catalog FILE, added to the config's
  /// pg_hba_file_rules / pg_ident_file_mappings of a running server, to
  /// compare with the files (PGC845); null: not compared.
  const std::vector<ServerHbaRule>* server_hba = nullptr;
  const std::vector<ServerIdentMapping>* server_ident = nullptr;
  /// The running server the files are checked for (the editor's live
  /// mode): what it says of its own files, the lines it did not apply and the
  /// authentication lines it cannot load, are findings (AddServerComplaints).
  /// Null: none. REQUIRES: outlives the workspace; may change between lints.
  const Snapshot* server = nullptr;
  /// Paths below this directory (absolute) are shown relative to it; "" = as given.
  std::string display_base;
  /// Read includes outside the tree being checked (the root's directory and
  /// the project configuration's), and extra-rules outside the project
  /// configuration's directory; the configuration's `allow-outside-includes`
  /// does the same. Off: they are PGC305 (an error for extra-rules), unread.
  bool allow_outside_includes = false;
  /// The file read from standard input (--stdin-filename), absolute: its
  /// tree is bounded by the current directory (CollectContext::stdin_file).
  std::string stdin_file;
  /// SQL scripts (.sql roots) run against this configuration (--cluster: a
  /// data directory or postgresql.conf, whose postgresql.auto.conf their
  /// ALTER SYSTEM statements rewrite) or this postgresql.auto.conf
  /// (--auto-conf); both "": an empty cluster.
  std::string sql_cluster;
  std::string sql_auto_conf;
  /// The rules to run instead of the project's (rule examples, docs, tests);
  /// null: the built-in rules and the configuration's. REQUIRES: outlives the workspace.
  const RuleSet* rules = nullptr;
  /// The profile instead of the project configuration's (rule examples);
  /// profile_facts still apply over it. Null: the configuration's.
  const Profile* profile = nullptr;
  /// The directory whose files may be roots of the files classified (a
  /// side of `diff`); "": the project configuration's directory, else the
  /// git work tree's top, else up to four directories above the file.
  std::string tree_base;
};

/// Where the major of a root came from, strongest first.
enum class MajorSource : uint8_t {
  kFlag,           // --pg-version
  kServer,         // a snapshot's server
  kPgVersionFile,  // the data directory's PG_VERSION
  kPath,           // where the files live (/etc/postgresql/16/main/, data_directory = '/var/lib/pgsql/15/data')
  kDirective,      // `# pgconflint: pg-version=N` in the root file
  kConfig,         // pg-version in .pgconflint.toml
  kDefault,        // nothing named one: assumed
};

/// How the major of a root was chosen, for the output ("PostgreSQL 17 (from
/// --pg-version)").
struct MajorChoice {
  int major = 0;
  std::string reason;  // "--pg-version", "PG_VERSION in DIR", "the path DIR", "pg-version directive in ROOT",
                       // the .pgconflint.toml path, "the default (...)"
  MajorSource source = MajorSource::kDefault;
  /// Nothing named the major: what depends on it (a rename) is not certain.
  bool assumed() const { return source == MajorSource::kDefault; }
};

/// One root to lint for the inputs asked about, and which of its files they
/// are: the findings of those files, and of the files they include, are
/// reported (KeepFindingsOf).
struct LintTarget {
  std::string root;            // absolute: a data directory, a root file, a SQL script
  std::set<std::string> only;  // absolute paths of the files asked about; empty: the whole root
  InputClass input;            // how the (first) input asked about was classified
};

/// Not thread-safe: one workspace per thread of work.
class Workspace {
 public:
  explicit Workspace(WorkspaceOptions options);
  ~Workspace();
  Workspace(const Workspace&) = delete;
  Workspace& operator=(const Workspace&) = delete;

  /// Lints `root` (a file or a data directory). False with *error for a
  /// configuration problem (a malformed .pgconflint.toml or rule file, a bad
  /// profile fact, a --select/--ignore or select/ignore entry that names no
  /// rule): the caller exits 2. A root that cannot be read is not an
  /// error here: it is reported in out->failure.
  bool Lint(const std::string& root, Analysis* out, std::string* error);
  /// Lint of a SQL script; *auto_conf receives the postgresql.auto.conf its
  /// ALTER SYSTEM statements leave (`apply-sql`).
  bool LintSql(const std::string& script, Analysis* out, std::string* auto_conf, std::string* error);
  /// Lints a running server's configuration from its snapshot (`check
  /// --live`, `check --snapshot`): the major is the server's unless
  /// --pg-version says otherwise; the project configuration is found from
  /// the current directory. out->root is the server's label.
  bool LintSnapshot(const Snapshot& snapshot, Analysis* out, std::string* error);
  /// Lints `root` and compares it with the server of `snapshot` (drift).
  bool LintDrift(const std::string& root, const Snapshot& snapshot, Analysis* out, std::string* error);

  /// The project configuration that applies to `path` (a file or directory),
  /// as a lint of it finds it; false with *error when it is malformed.
  bool ConfigFor(const std::string& path, const ProjectConfig** out, std::string* error);
  /// The configuration, major and rules that applied to the last linted root.
  const ProjectConfig& config() const;
  const MajorChoice& major() const { return last_major_; }
  const RuleSet& rules() const;
  /// The module catalogs of the last linted root's project for `major`: the
  /// user's catalog files, then the built-in catalog.
  ExtensionSet extensions(int major) const;

  /// What `path` is and the roots that hold it (core/conf/classify.h): the one
  /// answer every front end uses. --file-type, when given, decides the kind.
  InputClass Classify(const std::string& path);
  /// The roots (data directories or root files) whose trees contain `file`,
  /// or `file` itself when no root reaches it (it is then checked alone);
  /// empty when it is not PostgreSQL configuration.
  std::vector<std::string> RootsIncluding(const std::string& file);
  /// The targets to lint for one input: one per root that holds it.
  std::vector<LintTarget> TargetsFor(const std::string& path);

  /// What the user should know about the configuration loaded since the last
  /// call (each said once): a rule file's rule that the selection excludes.
  std::vector<std::string> TakeNotices();

  /// Forgets what was read of `path` (it changed), or of every file.
  void Forget(const std::string& path);
  /// What the last read of `path` gave, against `text`: the same text, another
  /// one, or nothing (not read, or forgotten since).
  enum class LastRead { kSame, kOther, kNotRead };
  LastRead Compare(const std::string& path, std::string_view text) const;
  /// The text the last read of `path` gave, shared; null when it was not
  /// read (or was forgotten since). An editor's buffer with the same text
  /// can hold this one instead of a copy.
  SharedText LastText(const std::string& path) const;
  void ForgetAll();

  const FileSystem& fs() const { return *fs_; }

 private:
  struct Project;
  /// The catalogs a lint of `project` (null: none) consults for `major`.
  static ExtensionSet ExtensionsOf(const Project* project, int major);
  struct Request {
    std::string root;                    // a path, or a server's label
    std::string* auto_conf = nullptr;    // SQL scripts: receives the postgresql.auto.conf they leave
    const Snapshot* snapshot = nullptr;  // lint this server instead of a path
    const Snapshot* compare = nullptr;   // compare the root with this server (drift)
    bool reach_only = false;             // only what the root reads: sources, passes, its auth files
  };
  bool LintRequest(const Request& r, Analysis* out, std::string* error);
  /// Records what a lint used (not for the tree index's lints); returns `ok`.
  bool Done(const Request& r, const Project* project, const MajorChoice& major, bool ok);
  /// The files `root` reads, for the tree index.
  std::vector<ReachedFile> Reach(const std::string& root);
  TreeIndex& IndexFor(const std::string& abs);
  InputClass ClassifyInTree(const std::string& abs);
  /// The project configuration that applies to `abs` (absolute; "" for none).
  std::string ConfigPathFor(const std::string& abs) const;
  /// The sources of `root`, in the order they run; the one place that picks
  /// a source by input.
  /// `cluster`: what a SQL script runs against (ClusterFor).
  std::vector<std::unique_ptr<SettingsSource>> SourcesFor(const std::string& root, const std::string& cluster,
                                                          std::string* auto_conf) const;
  bool ProjectFor(const std::string& root, const Project** out, std::string* error);
  /// What the SQL script `script` runs against (absolute): --cluster, else
  /// the project configuration's `cluster`, else the only data directory of
  /// the tree that holds it (a repository or project); "" for an empty
  /// cluster (--auto-conf, none or several data directories). Every front
  /// end reads it from Analysis::cluster.
  std::string ClusterFor(const Project& project, const std::string& script);
  MajorChoice ChooseMajor(const Project& project, const std::string& root, const std::string& cluster);
  const RuleSet& RulesOf(const Project& project) const;
  /// Whether the project configuration's `include` globs name `abs` as configuration.
  bool NamedByIncludeGlobs(const std::string& abs);
  /// How a root that is a file is read, by what the classifier found.
  static RootFileType FileTypeOf(InputKind kind);
  void Filter(const Project& project, Analysis* a) const;

  WorkspaceOptions options_;
  const FileSystem* fs_;
  const HostFacts* host_;
  FileCache cache_;
  std::map<std::string, std::unique_ptr<Project>> projects_;  // by config path ("" = none)
  std::map<std::string, std::unique_ptr<TreeIndex>> indexes_;  // by base directory (and whether it descends)
  const Project* last_project_ = nullptr;
  MajorChoice last_major_;
  std::vector<std::string> notices_;
};

/// Keeps the findings of `a` (the lint of t.root) that belong to the files
/// asked about: located in one of t.only or in a file they include, with a
/// note there (the line a fragment overrides), or tied to no file. `seen`
/// (optional) holds the findings reported for other roots: one reported
/// again (a fragment two roots include) is dropped, so each finding is
/// reported once. Nothing is removed by t.only when it is empty.
void KeepFindingsOf(const LintTarget& t, Analysis* a, std::set<std::string>* seen = nullptr);

/// The whole pipeline over configuration text named `name` (for rule
/// examples, docs and tests): a workspace over the text and the disk, no
/// project configuration, no selection. Paths below `display_base`
/// (absolute) are shown relative to it. Text with lines `# file: NAME` (NAME
/// one of postgresql.conf, pg_hba.conf, pg_ident.conf,
/// pg_hba_file_rules.json, pg_ident_file_mappings.json) holds several files
/// of a data directory (text before the first is postgresql.conf), linted
/// as the directory of `name`.
Analysis LintText(const std::string& name, const std::string& text, const Catalog& catalog, const RuleSet& rules,
                  const Profile& profile, const std::string& display_base = "");

/// A rule's example as its example_kind says: a configuration file named
/// `dir`/postgresql.conf, a SQL script `dir`/script.sql (run against a data
/// directory `dir` whose postgresql.auto.conf is the rule's
/// example_context, when it has one), or a server snapshot. Linted with the
/// rule's example profile and major through the same pipeline as `check`,
/// over an in-memory file system holding only the example.
Analysis LintExample(const RuleInfo& rule, const std::string& text, const RuleSet& rules, const std::string& dir,
                     const std::string& display_base = "");

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_WORKSPACE_WORKSPACE_H_
