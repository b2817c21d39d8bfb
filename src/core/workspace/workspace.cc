// The lint pipeline of one root, and the per-project state it needs.
#include "core/workspace/workspace.h"

#include <fnmatch.h>

#include <algorithm>
#include <cstdlib>

#include "core/model/directives.h"
#include "core/review/drift.h"
#include "core/model/finding_placement.h"
#include "core/checks/extensions.h"
#include "core/conf/passes.h"
#include "core/checks/recommendation_hints.h"
#include "core/checks/rule_engine.h"
#include "core/server/server_state.h"
#include "core/server/snapshot_source.h"
#include "core/base/spelling.h"
#include "core/checks/sql_checks.h"
#include "core/sql/sql_source.h"
#include "core/workspace/suppressions.h"

namespace pgconflint {
namespace {

const RealFileSystem& RealDisk() {
  static const RealFileSystem real;
  return real;
}

// This machine's facts, not taken to be the server's host: a value only this
// machine refuses (a locale, a time zone) depends on the server's host. The
// one default of every front end, rule examples and docs included.
const HostFacts& ThisMachine() {
  static const LocalHost local(false);
  return local;
}

// The major in a data directory's PG_VERSION file ("17\n"), or 0.
int PgVersionFile(const FileSystem& fs, const std::string& dir) {
  std::string text, error;
  if (fs.Read(ChildPath(dir, "PG_VERSION"), &text, &error) != ReadStatus::kOk) return 0;
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' ')) text.pop_back();
  if (text.empty() || text.size() > 3 || text.find_first_not_of("0123456789") != std::string::npos) return 0;
  return std::atoi(text.c_str());
}

bool Selected(const std::vector<std::string>& selectors, const RuleInfo& r) {
  for (const std::string& s : selectors)
    if (SelectorMatches(s, r)) return true;
  return false;
}

// A selector (--select, --ignore, select/ignore of the configuration) must
// select some rule: a typo would otherwise select nothing and pass silently.
bool CheckSelectors(const RuleSet& rules, const std::vector<std::string>& selectors, const std::string& where,
                    std::string* error) {
  for (const std::string& sel : selectors) {
    bool any = false;
    for (const RuleInfo* r : rules.rules()) any = any || SelectorMatches(sel, *r);
    if (any) continue;
    Suggester closest(sel);
    for (const RuleInfo* r : rules.rules()) {
      closest.Consider(r->code);
      closest.Consider(r->name);
    }
    *error = where + ": \"" + sel + "\" selects no rule" + closest.Hint() + " (see `pgconflint explain --list`)";
    return false;
  }
  return true;
}

// What the checks after the settings sources need.
struct CheckInputs {
  const RuleSet* rules = nullptr;
  const Profile* profile = nullptr;
  const HostFacts* host = nullptr;
  const std::map<std::string, std::string>* running = nullptr;
  bool recommendation_hints = true;
  ExtensionSet extensions;
  AuthLintOptions auth;
  bool lint_auth = true;              // false: no pg_hba.conf / pg_ident.conf to read (scripts, snapshots)
  bool server_auth = false;           // a snapshot: lint the pg_hba.conf it rebuilt from the server's rows
  bool report_defaults = true;        // EngineOptions::report_defaults
  const Snapshot* compare = nullptr;  // a server to compare the configuration with (drift)
  const Snapshot* server = nullptr;   // WorkspaceOptions::server: its complaints about its files
  bool reach_only = false;            // only read the authentication files (the tree index)
};

// After the sources and the passes: ALTER SYSTEM traps, drift, module
// parameters, rules, hints, the authentication files, module advice,
// suppressions. A root that is a
// pg_hba.conf or pg_ident.conf (!conf_root) gets only the authentication checks.
void RunChecks(const std::string& root, bool conf_root, const CollectContext& ctx, const CheckInputs& in,
               Analysis* a) {
  if (in.reach_only) {
    if (in.lint_auth) LintAuthFiles(ctx, root, in.auth, *in.profile, a);
    return;
  }
  EngineOptions eo;
  eo.rules = in.rules;
  eo.profile = in.profile;
  eo.running = in.running;
  eo.recommendation_hints = in.recommendation_hints;
  eo.report_defaults = in.report_defaults;
  if (conf_root) {
    ReportAutoConfTraps(a);
    if (in.compare) CompareWithServer(*in.compare, a);
    CheckExtensionSettings(in.extensions, *in.host, a);
    RunRules(eo, a);
    AddRecommendationHints(eo, a);
    AddTablespaceHints(eo, a);
  }
  if (in.lint_auth) LintAuthFiles(ctx, root, in.auth, *in.profile, a);
  if (in.server_auth) LintServerAuthRows(ctx, *in.profile, a);
  if (a->failure != Analysis::Failure::kNone) return;
  if (in.server && a->catalog) AddServerComplaints(*in.server, a);
  if (conf_root) AddExtensionAdvice(in.extensions, *in.profile, a);
  ApplySuppressions(*in.rules, a);
}

}  // namespace

struct Workspace::Project {
  ProjectConfig config;
  RuleSet rules;
  const RuleSet* active = &rules;  // the rules the lint runs (WorkspaceOptions::rules when given)
  std::vector<std::unique_ptr<UserExtensionCatalog>> extension_catalogs;
  std::vector<std::string> select, ignore;  // the run's selection: flags over the config's
  std::vector<std::string> trees;           // besides each root's: the configuration's directory
  bool allow_outside = false;
};

ExtensionSet Workspace::ExtensionsOf(const Project* project, int major) {
  ExtensionSet set;
  set.builtin = ExtensionCatalog::ForMajor(major);
  if (project)
    for (const auto& c : project->extension_catalogs) set.user.push_back(c.get());
  return set;
}

Workspace::Workspace(WorkspaceOptions options)
    : options_(std::move(options)),
      fs_(options_.fs ? options_.fs : &RealDisk()),
      host_(options_.host ? options_.host : &ThisMachine()),
      cache_(*fs_) {}

Workspace::~Workspace() = default;

const ProjectConfig& Workspace::config() const {
  static const ProjectConfig kNone;
  return last_project_ ? last_project_->config : kNone;
}

const RuleSet& Workspace::rules() const {
  static const RuleSet* builtin = new RuleSet();
  if (last_project_) return *last_project_->active;
  return options_.rules ? *options_.rules : *builtin;
}

ExtensionSet Workspace::extensions(int major) const { return ExtensionsOf(last_project_, major); }

bool Workspace::ConfigFor(const std::string& path, const ProjectConfig** out, std::string* error) {
  const Project* project = nullptr;
  if (!ProjectFor(AbsolutePath(*fs_, path), &project, error)) return false;
  *out = &project->config;
  return true;
}

bool Workspace::ProjectFor(const std::string& root, const Project** out, std::string* error) {
  std::string path = options_.config_path.empty() ? "" : AbsolutePath(*fs_, options_.config_path);
  if (path.empty() && options_.use_config) path = FindProjectConfig(*fs_, root);
  auto it = projects_.find(path);
  if (it != projects_.end()) {
    *out = it->second.get();
    return true;
  }
  auto p = std::make_unique<Project>();
  if (!path.empty() && !LoadProjectConfig(*fs_, path, &p->config, error)) return false;
  if (options_.profile) p->config.profile = *options_.profile;
  if (options_.rules) p->active = options_.rules;
  for (const auto& [k, v] : options_.profile_facts)
    if (!SetProfileFact(&p->config.profile, k, v, error)) return false;
  // A configuration found in the tree (or named inside the current
  // directory) is the reviewed repository's: it may narrow what is read,
  // never widen it. Only the command line, or a configuration the user
  // names with --config from outside, reads files outside the tree.
  const bool trusted = !options_.config_path.empty() &&
                       !InsideTrees(*fs_, path, {fs_->RealPath(fs_->CurrentDirectory())});
  p->allow_outside = options_.allow_outside_includes || (trusted && p->config.allow_outside_includes);
  if (p->config.allow_outside_includes && !p->allow_outside)
    notices_.push_back("allow-outside-includes = true in " + path +
                       " is ignored: a repository's configuration may narrow what pgconflint reads, never widen "
                       "it; pass --allow-outside-includes to read files outside the tree");
  if (!path.empty()) p->trees.push_back(fs_->RealPath(ParentDirectory(path)));
  // The configuration's extra-rules come from the repository: confined to
  // its directory like includes. --rules files are the user's own.
  const ConfinedFileSystem confined(*fs_, p->trees, "(--allow-outside-includes reads it)");
  const FileSystem& config_fs = p->allow_outside || path.empty() ? *fs_ : confined;
  for (const std::string& r : p->config.extra_rules)
    if (!p->rules.AddPath(config_fs, r, error)) return false;
  for (const std::string& r : options_.rule_paths)
    if (!p->rules.AddPath(*fs_, AbsolutePath(*fs_, r), error)) return false;
  // Extension catalogs likewise: the configuration's confined, the flag's not.
  std::vector<std::pair<const FileSystem*, std::string>> catalogs;
  for (const std::string& c : p->config.extension_catalogs) catalogs.emplace_back(&config_fs, c);
  for (const std::string& c : options_.extension_catalogs) catalogs.emplace_back(fs_, AbsolutePath(*fs_, c));
  for (const auto& [fs, c] : catalogs) {
    std::unique_ptr<UserExtensionCatalog> cat = UserExtensionCatalog::Load(*fs, c, 0, error);
    if (!cat) return false;
    p->extension_catalogs.push_back(std::move(cat));
  }
  if (!CheckSelectors(*p->active, options_.select, "--select", error) ||
      !CheckSelectors(*p->active, options_.ignore, "--ignore", error) ||
      !CheckSelectors(*p->active, p->config.select, path + ": select", error) ||
      !CheckSelectors(*p->active, p->config.ignore, path + ": ignore", error))
    return false;
  // Selection: --select replaces the config's list; --ignore adds to it.
  p->select = options_.select.empty() ? p->config.select : options_.select;
  p->ignore = p->config.ignore;
  p->ignore.insert(p->ignore.end(), options_.ignore.begin(), options_.ignore.end());
  // A rule file loaded for nothing is a surprise: say so.
  for (const RuleInfo* r : p->active->rules())
    if (!r->builtin && !p->select.empty() && !Selected(p->select, *r))
      notices_.push_back("rule " + std::string(r->code) + " (" + r->name + ") is loaded from a rule file but the "
                         "selection (select = ...) excludes it: add its code or a prefix such as \"" +
                         std::string(r->code).substr(0, 3) + "\" to the selection");
  *out = p.get();
  projects_[path] = std::move(p);
  return true;
}

// The settings of the root file that name where the server's files live.
constexpr const char* kPathSettings[] = {"data_directory", "hba_file", "ident_file"};

std::string Workspace::ClusterFor(const Project& project, const std::string& script) {
  if (!options_.sql_cluster.empty()) return AbsolutePath(*fs_, options_.sql_cluster);
  if (!options_.sql_auto_conf.empty()) return "";
  if (!project.config.cluster.empty()) return project.config.cluster;
  std::vector<std::string> dirs = IndexFor(AbsolutePath(*fs_, script)).DataDirectories();
  return dirs.size() == 1 ? dirs[0] : "";
}

MajorChoice Workspace::ChooseMajor(const Project& project, const std::string& root, const std::string& cluster) {
  if (options_.pg_version) return {options_.pg_version, "--pg-version", MajorSource::kFlag};
  // A SQL script takes the major of the cluster it runs against.
  const bool sql = IsSqlPath(root);
  const std::string& conf_root = sql ? cluster : root;
  std::string abs = conf_root.empty() ? std::string() : AbsolutePath(*fs_, conf_root);
  if (!abs.empty() && fs_->Stat(abs).type == FileInfo::Type::kDirectory) abs += "/postgresql.conf";
  const std::string dir = abs.empty() ? "" : ParentDirectory(abs);
  // Where the files live says most: the data directory's PG_VERSION (the
  // root, or the directory of a root file), then a Debian or RPM layout in
  // the path or in the paths the root file names.
  if (int v = dir.empty() ? 0 : PgVersionFile(*fs_, dir); v && Catalog::ForMajor(v))
    return {v, "PG_VERSION in " + DisplayPath(dir, options_.display_base), MajorSource::kPgVersionFile};
  if (int v = abs.empty() ? 0 : MajorFromPath(fs_->RealPath(abs)); v && Catalog::ForMajor(v))
    return {v, "its location " + DisplayPath(dir, options_.display_base), MajorSource::kPath};
  std::shared_ptr<const FileCache::Entry> e;
  if (!abs.empty()) {
    ReadStatus status;
    std::string error;
    e = cache_.Get(abs, &status, &error);
  }
  if (e) {
    for (const SettingLine& line : e->parsed.settings) {
      std::string name = AsciiLower(e->source.Slice(line.name));
      if (std::find(std::begin(kPathSettings), std::end(kPathSettings), name) == std::end(kPathSettings)) continue;
      if (int v = MajorFromPath(line.value_text); v && Catalog::ForMajor(v))
        return {v, name + " = '" + line.value_text + "' in " + DisplayPath(abs, options_.display_base),
                MajorSource::kPath};
    }
    // `# pgconflint: pg-version=N` in the root file, over the configuration.
    int d = PgVersionDirective(e->text, e->parsed);
    if (d && Catalog::ForMajor(d)) return {d, "pg-version directive in " + conf_root, MajorSource::kDirective};
  }
  if (project.config.pg_version) return {*project.config.pg_version, project.config.path, MajorSource::kConfig};
  return {Catalog::DefaultMajor(),
          "the default, as no --pg-version, PG_VERSION, package path, pg-version directive or .pgconflint.toml "
          "names one",
          MajorSource::kDefault};
}

const RuleSet& Workspace::RulesOf(const Project& project) const { return *project.active; }

bool Workspace::NamedByIncludeGlobs(const std::string& abs) {
  std::string config = ConfigPathFor(abs);
  if (config.empty()) return false;
  auto it = projects_.find(config);
  if (it != projects_.end()) return MatchesGlobs(it->second->config, it->second->config.include, abs);
  ProjectConfig pc;
  std::string error;  // a malformed configuration is the lint's to report
  return LoadProjectConfig(*fs_, config, &pc, &error) && MatchesGlobs(pc, pc.include, abs);
}

void Workspace::Filter(const Project& project, Analysis* a) const {
  const ProjectConfig& config = project.config;
  // per-file-ignores globs are relative to the config file's directory.
  const std::string base = config.path.empty() ? "" : ParentDirectory(config.path) + "/";
  const int major = a->catalog ? a->catalog->major() : 0;
  std::vector<Diagnostic> kept;
  kept.reserve(a->diagnostics.size());
  for (Diagnostic& d : a->diagnostics) {
    // A rule speaks only for the majors it declares, whoever emitted it.
    if (major && !d.rule->versions.Contains(major)) continue;
    if (!project.select.empty() && !Selected(project.select, *d.rule)) continue;
    if (Selected(project.ignore, *d.rule)) continue;
    if (d.file >= 0 && !config.per_file_ignores.empty()) {
      std::string rel = a->files[d.file].abs_path;
      if (!base.empty() && rel.compare(0, base.size(), base) == 0) rel = rel.substr(base.size());
      bool skip = false;
      for (const auto& [glob, sels] : config.per_file_ignores)
        skip = skip || (fnmatch(glob.c_str(), rel.c_str(), 0) == 0 && Selected(sels, *d.rule));
      if (skip) continue;
    }
    for (const auto& [sel, sev] : config.severity)
      if (SelectorMatches(sel, *d.rule)) d.level = sev;  // never a refusal's: it stays an error
    kept.push_back(std::move(d));
  }
  a->diagnostics = std::move(kept);
}

bool Workspace::Lint(const std::string& root, Analysis* out, std::string* error) {
  return LintRequest({root, nullptr, nullptr, nullptr}, out, error);
}

bool Workspace::LintSql(const std::string& script, Analysis* out, std::string* auto_conf, std::string* error) {
  return LintRequest({script, auto_conf, nullptr, nullptr}, out, error);
}

bool Workspace::LintSnapshot(const Snapshot& snapshot, Analysis* out, std::string* error) {
  return LintRequest({snapshot.server, nullptr, &snapshot, nullptr}, out, error);
}

bool Workspace::LintDrift(const std::string& root, const Snapshot& snapshot, Analysis* out, std::string* error) {
  return LintRequest({root, nullptr, nullptr, &snapshot}, out, error);
}

std::vector<std::unique_ptr<SettingsSource>> Workspace::SourcesFor(const std::string& root, const std::string& cluster,
                                                                  std::string* auto_conf) const {
  std::vector<std::unique_ptr<SettingsSource>> out;
  if (!IsSqlPath(root)) {
    out.push_back(std::make_unique<ConfTreeSource>(root));
    return out;
  }
  SqlScriptOptions so;
  so.auto_conf_out = auto_conf;
  if (!cluster.empty()) {
    out.push_back(std::make_unique<ConfTreeSource>(cluster));
    so.over_tree = true;
  } else {
    so.auto_conf = options_.sql_auto_conf;
  }
  out.push_back(std::make_unique<SqlScriptSource>(root, so));
  return out;
}

// The one pipeline: classify -> sources -> collect -> passes -> checks ->
// filter -> fold -> sort.
bool Workspace::LintRequest(const Request& r, Analysis* out, std::string* error) {
  const Project* project = nullptr;
  if (!ProjectFor(r.snapshot ? "." : r.root, &project, error)) return false;
  Analysis& a = *out;
  a = Analysis();
  a.root = r.root;
  // Classify: what the root is (a data directory, a root file, a fragment
  // checked alone, an authentication file, a script, a server).
  const bool script = !r.snapshot && IsSqlPath(r.root);
  RootFileType type = RootFileType::kConf;
  bool whole = true;
  if (!r.snapshot && !script) {
    const std::string abs = AbsolutePath(*fs_, r.root);
    if (fs_->Stat(abs).type != FileInfo::Type::kDirectory) {
      if (r.reach_only) {
        NamedAs name = NameOf(abs);
        type = name == NamedAs::kHba ? RootFileType::kHba : name == NamedAs::kIdent ? RootFileType::kIdent
                                                                                   : RootFileType::kConf;
      } else {
        InputClass c = Classify(abs);
        type = FileTypeOf(c.kind);
        whole = c.kind == InputKind::kConfRoot && !c.alone;
      }
    }
  }
  const std::string cluster = script ? ClusterFor(*project, r.root) : "";
  a.cluster = cluster;
  const MajorChoice major = r.snapshot && !options_.pg_version
                                ? MajorChoice{r.snapshot->major(), "the server", MajorSource::kServer}
                                : ChooseMajor(*project, r.root, cluster);
  a.catalog = Catalog::ForMajor(major.major);
  // A script is a whole configuration only over the cluster it runs against.
  a.whole_configuration = script ? !cluster.empty() : whole && type == RootFileType::kConf;
  a.major_assumed = major.assumed();
  a.os = project->config.profile.os;
  // Sources and collect.
  CollectContext ctx(&cache_, options_.display_base);
  ctx.trees = project->trees;
  ctx.allow_outside = project->allow_outside;
  ctx.stdin_file = options_.stdin_file;
  ctx.host = host_;
  const bool conf_root = r.snapshot || type == RootFileType::kConf;
  if (conf_root) {
    if (r.snapshot) {
      SnapshotSource(*r.snapshot).Collect(ctx, &a);
    } else {
      for (const auto& source : SourcesFor(r.root, cluster, r.auto_conf))
        if (a.failure == Analysis::Failure::kNone) source->Collect(ctx, &a);
    }
    if (a.failure != Analysis::Failure::kNone) return Done(r, project, major, true);
    // Passes (the tree index asks only which files the root reads).
    if (r.reach_only)
      RunReachPasses(&a, *host_);
    else
      RunPasses(&a, *host_);
  }
  // Checks.
  std::map<std::string, std::string> running;
  const Snapshot* server = r.snapshot ? r.snapshot : r.compare;
  if (server) running = RunningValues(*server);
  CheckInputs in;
  in.rules = project->active;
  in.profile = &project->config.profile;
  in.host = host_;
  in.running = server ? &running : options_.running;
  in.recommendation_hints = project->config.recommendation_hints;
  in.extensions = ExtensionsOf(project, major.major);
  in.auth = {type, options_.server_hba, options_.server_ident};
  // Drift: the repository's pg_hba.conf and pg_ident.conf against the
  // server's reading of its own (PGC845), unless rows were given.
  if (r.compare && !in.auth.server_hba && !in.auth.server_ident) {
    if (r.compare->hba_rules) in.auth.server_hba = &*r.compare->hba_rules;
    if (r.compare->ident_mappings) in.auth.server_ident = &*r.compare->ident_mappings;
    in.auth.in_force = true;
  }
  in.lint_auth = !r.snapshot && !script;
  in.server_auth = r.snapshot != nullptr;
  // A script alone holds no cluster: findings about defaults are not its own.
  in.report_defaults = !script || !cluster.empty() || r.snapshot;
  in.compare = r.compare;
  in.server = r.snapshot || script ? nullptr : options_.server;
  in.reach_only = r.reach_only;
  RunChecks(r.root, conf_root, ctx, in, &a);
  if (a.failure != Analysis::Failure::kNone || r.reach_only) return Done(r, project, major, true);
  // Filter, fold, sort: rules and directives appended their findings at the end.
  Filter(*project, &a);
  FoldRelatedFindings(&a);
  a.SortDiagnostics();
  return Done(r, project, major, true);
}

bool Workspace::Done(const Request& r, const Project* project, const MajorChoice& major, bool ok) {
  // What the last lint used, for the front ends (the tree index lints too).
  if (!r.reach_only) {
    last_project_ = project;
    last_major_ = major;
  }
  return ok;
}

std::vector<std::string> Workspace::TakeNotices() {
  std::vector<std::string> out;
  out.swap(notices_);
  return out;
}

void Workspace::Forget(const std::string& path) {
  std::string abs = AbsolutePath(*fs_, path);
  cache_.Forget(abs);
  // Any file may change what a root reads.
  indexes_.clear();
  // A project configuration or a rule file: reload the projects.
  if (abs.size() > 5 && abs.compare(abs.size() - 5, 5, ".toml") == 0) {
    projects_.clear();
    last_project_ = nullptr;
  }
}

Workspace::LastRead Workspace::Compare(const std::string& path, std::string_view text) const {
  SharedText held = LastText(path);
  return !held ? LastRead::kNotRead : *held == text ? LastRead::kSame : LastRead::kOther;
}

SharedText Workspace::LastText(const std::string& path) const { return cache_.Held(AbsolutePath(*fs_, path)); }

void Workspace::ForgetAll() {
  cache_.Clear();
  indexes_.clear();
  projects_.clear();
  last_project_ = nullptr;
}

}  // namespace pgconflint
