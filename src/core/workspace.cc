// The lint pipeline of one root, and the per-project state it needs.
#include "core/analyze.h"
#include "core/workspace.h"

#include <fnmatch.h>

#include <cstdlib>

#include "core/directives.h"
#include "core/drift.h"
#include "core/finding_placement.h"
#include "core/extensions.h"
#include "core/passes.h"
#include "core/recommendation_hints.h"
#include "core/rule_engine.h"
#include "core/snapshot_source.h"
#include "core/spelling.h"
#include "core/sql_checks.h"
#include "core/sql_source.h"
#include "core/suppressions.h"

namespace pgconflint {
namespace {

// How far above a file RootsIncluding looks for a postgresql.conf when no
// project configuration bounds the search.
constexpr int kRootSearchLevels = 4;

const RealFileSystem& RealDisk() {
  static const RealFileSystem real;
  return real;
}

// This machine's facts, not taken to be the server's host: a value only this
// machine refuses (a locale, a time zone) depends on the server's host.
const HostFacts& ThisMachine() {
  static const LocalHost local(false);
  return local;
}

// The major in a data directory's PG_VERSION file ("17\n"), or 0.
int PgVersionFile(const FileSystem& fs, const std::string& dir) {
  std::string text, error;
  if (fs.Read(dir + "/PG_VERSION", &text, &error) != ReadStatus::kOk) return 0;
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
  bool report_defaults = true;        // EngineOptions::report_defaults
  const Snapshot* compare = nullptr;  // a server to compare the configuration with (drift)
};

// After the sources and the passes: ALTER SYSTEM traps, drift, module
// parameters, rules, hints, the authentication files, module advice,
// suppressions. A root that is a
// pg_hba.conf or pg_ident.conf (!conf_root) gets only the authentication checks.
void RunChecks(const std::string& root, bool conf_root, const CollectContext& ctx, const CheckInputs& in,
               Analysis* a) {
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
  if (a->failure != Analysis::Failure::kNone) return;
  if (conf_root) AddExtensionAdvice(in.extensions, *in.profile, a);
  ApplySuppressions(*in.rules, a);
}

}  // namespace

struct Workspace::Project {
  ProjectConfig config;
  RuleSet rules;
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
  return last_project_ ? last_project_->rules : *builtin;
}

ExtensionSet Workspace::extensions(int major) const { return ExtensionsOf(last_project_, major); }

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
  for (const auto& [k, v] : options_.profile_facts)
    if (!SetProfileFact(&p->config.profile, k, v, error)) return false;
  p->allow_outside = options_.allow_outside_includes || p->config.allow_outside_includes;
  if (!path.empty()) p->trees.push_back(fs_->RealPath(ParentDirectory(path)));
  // The configuration's extra-rules come from the repository: confined to
  // its directory like includes. --rules files are the user's own.
  const ConfinedFileSystem confined(*fs_, p->trees, "(allow-outside-includes = true reads it)");
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
  if (!CheckSelectors(p->rules, options_.select, "--select", error) ||
      !CheckSelectors(p->rules, options_.ignore, "--ignore", error) ||
      !CheckSelectors(p->rules, p->config.select, path + ": select", error) ||
      !CheckSelectors(p->rules, p->config.ignore, path + ": ignore", error))
    return false;
  // Selection: --select replaces the config's list; --ignore adds to it.
  p->select = options_.select.empty() ? p->config.select : options_.select;
  p->ignore = p->config.ignore;
  p->ignore.insert(p->ignore.end(), options_.ignore.begin(), options_.ignore.end());
  // A rule file loaded for nothing is a surprise: say so.
  for (const RuleInfo* r : p->rules.rules())
    if (!r->builtin && !p->select.empty() && !Selected(p->select, *r))
      notices_.push_back("rule " + std::string(r->code) + " (" + r->name + ") is loaded from a rule file but the "
                         "selection (select = ...) excludes it: add its code or a prefix such as \"" +
                         std::string(r->code).substr(0, 3) + "\" to the selection");
  *out = p.get();
  projects_[path] = std::move(p);
  return true;
}

MajorChoice Workspace::ChooseMajor(const Project& project, const std::string& root) {
  if (options_.pg_version) return {options_.pg_version, "--pg-version"};
  // `# pgconflint: pg-version=N` in the root file wins over the project
  // configuration and the default, not over an explicit --pg-version. A SQL
  // script takes it from the cluster it runs against (--sql-cluster).
  const bool sql = IsSqlPath(root);
  const std::string& conf_root = sql ? options_.sql_cluster : root;
  std::string abs = conf_root.empty() ? std::string() : AbsolutePath(*fs_, conf_root);
  if (!abs.empty()) {
    if (fs_->Stat(abs).type == FileInfo::Type::kDirectory) abs += "/postgresql.conf";
    ReadStatus status;
    std::string error;
    if (std::shared_ptr<const FileCache::Entry> e = cache_.Get(abs, &status, &error)) {
      int d = PgVersionDirective(e->text, e->parsed);
      if (d && Catalog::ForMajor(d)) return {d, "pg-version directive in " + conf_root};
    }
  }
  if (project.config.pg_version) return {*project.config.pg_version, project.config.path};
  // The data directory says which major created it: the root itself, or the
  // directory of a root file.
  std::string dir = abs.substr(0, abs.rfind('/') == std::string::npos ? 0 : abs.rfind('/'));
  if (int v = dir.empty() ? 0 : PgVersionFile(*fs_, dir)) {
    if (Catalog::ForMajor(v)) return {v, "PG_VERSION in " + dir};
  }
  return {Catalog::DefaultMajor(), "the default, as no --pg-version, pg-version directive, .pgconflint.toml or PG_VERSION names one"};
}

void Workspace::Filter(const Project& project, Analysis* a) const {
  const ProjectConfig& config = project.config;
  // per-file-ignores globs are relative to the config file's directory.
  const std::string base = config.path.empty() ? "" : ParentDirectory(config.path) + "/";
  std::vector<Diagnostic> kept;
  kept.reserve(a->diagnostics.size());
  for (Diagnostic& d : a->diagnostics) {
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

std::vector<std::unique_ptr<SettingsSource>> Workspace::SourcesFor(const std::string& root,
                                                                  std::string* auto_conf) const {
  std::vector<std::unique_ptr<SettingsSource>> out;
  if (!IsSqlPath(root)) {
    out.push_back(std::make_unique<ConfTreeSource>(root));
    return out;
  }
  SqlScriptOptions so;
  so.auto_conf_out = auto_conf;
  if (!options_.sql_cluster.empty()) {
    out.push_back(std::make_unique<ConfTreeSource>(options_.sql_cluster));
    so.over_tree = true;
  } else {
    so.auto_conf = options_.sql_auto_conf;
  }
  out.push_back(std::make_unique<SqlScriptSource>(root, so));
  return out;
}

bool Workspace::LintRequest(const Request& r, Analysis* out, std::string* error) {
  const Project* project = nullptr;
  if (!ProjectFor(r.snapshot ? "." : r.root, &project, error)) return false;
  last_project_ = project;
  last_major_ = r.snapshot && !options_.pg_version ? MajorChoice{r.snapshot->major(), "the server"}
                                                   : ChooseMajor(*project, r.root);
  Analysis& a = *out;
  a = Analysis();
  a.root = r.root;
  a.catalog = Catalog::ForMajor(last_major_.major);
  CollectContext ctx(&cache_, options_.display_base);
  ctx.trees = project->trees;
  ctx.allow_outside = project->allow_outside;
  ctx.host = host_;
  const bool script = IsSqlPath(r.root);
  bool conf_root = r.snapshot || script;
  if (!conf_root) {
    const std::string abs = AbsolutePath(*fs_, r.root);
    conf_root = fs_->Stat(abs).type == FileInfo::Type::kDirectory ||
                ResolveRootFileType(options_.file_type, abs) == RootFileType::kConf;
  }
  if (conf_root) {
    if (r.snapshot) {
      SnapshotSource(*r.snapshot).Collect(ctx, &a);
    } else {
      for (const auto& source : SourcesFor(r.root, r.auto_conf))
        if (a.failure == Analysis::Failure::kNone) source->Collect(ctx, &a);
    }
    if (a.failure != Analysis::Failure::kNone) return true;
    RunPasses(&a, *host_);
  }
  std::map<std::string, std::string> running;
  const Snapshot* server = r.snapshot ? r.snapshot : r.compare;
  if (server) running = RunningValues(*server);
  CheckInputs in;
  in.rules = &project->rules;
  in.profile = &project->config.profile;
  in.host = host_;
  in.running = server ? &running : options_.running;
  in.recommendation_hints = project->config.recommendation_hints;
  in.extensions = ExtensionsOf(project, last_major_.major);
  in.auth = {options_.file_type, options_.server_hba, options_.server_ident};
  // Drift: the repository's pg_hba.conf and pg_ident.conf against the
  // server's reading of its own (PGC845), unless rows were given.
  if (r.compare && !in.auth.server_hba && !in.auth.server_ident) {
    if (r.compare->hba_rules) in.auth.server_hba = &*r.compare->hba_rules;
    if (r.compare->ident_mappings) in.auth.server_ident = &*r.compare->ident_mappings;
    in.auth.in_force = true;
  }
  in.lint_auth = !r.snapshot && !script;
  // A script alone holds no cluster: findings about defaults are not its own.
  in.report_defaults = !script || !options_.sql_cluster.empty() || r.snapshot;
  in.compare = r.compare;
  RunChecks(r.root, conf_root, ctx, in, &a);
  if (a.failure != Analysis::Failure::kNone) return true;
  Filter(*project, &a);
  FoldRelatedFindings(&a);
  // Rules and directives appended their findings at the end.
  a.SortDiagnostics();
  return true;
}

std::vector<std::string> Workspace::RootsIncluding(const std::string& file) {
  std::string abs = AbsolutePath(*fs_, file);
  std::string stop;
  if (options_.use_config) {
    std::string config = options_.config_path.empty() ? FindProjectConfig(*fs_, abs) : options_.config_path;
    if (!config.empty()) stop = ParentDirectory(AbsolutePath(*fs_, config));
  }
  std::vector<std::string> roots;
  std::string dir = ParentDirectory(abs);
  for (int level = 0; level <= kRootSearchLevels || !stop.empty(); ++level) {
    if (fs_->Stat(dir + "/postgresql.conf").type == FileInfo::Type::kRegular) {
      Analysis a;
      a.root = dir;
      ConfTreeSource(dir).Collect({&cache_, ""}, &a);
      for (const LoadedFile& f : a.files)
        if (f.abs_path == abs) {
          roots.push_back(dir);
          break;
        }
    }
    if (dir == "/" || dir == stop) break;
    dir = ParentDirectory(dir);
  }
  return roots;
}

std::vector<std::string> Workspace::TakeNotices() {
  std::vector<std::string> out;
  out.swap(notices_);
  return out;
}

void Workspace::Forget(const std::string& path) {
  std::string abs = AbsolutePath(*fs_, path);
  cache_.Forget(abs);
  // A project configuration or a rule file: reload the projects.
  if (abs.size() > 5 && abs.compare(abs.size() - 5, 5, ".toml") == 0) {
    projects_.clear();
    last_project_ = nullptr;
  }
}

void Workspace::ForgetAll() {
  cache_.Clear();
  projects_.clear();
  last_project_ = nullptr;
}

namespace {

// "# file: NAME" lines split an example into the files of a data directory.
std::vector<std::pair<std::string, std::string>> ExampleFiles(const std::string& text) {
  static const char kMarker[] = "# file: ";
  std::vector<std::pair<std::string, std::string>> files{{"postgresql.conf", ""}};
  size_t at = 0;
  bool marked = false;
  while (at < text.size()) {
    size_t nl = text.find('\n', at);
    std::string line = text.substr(at, nl == std::string::npos ? std::string::npos : nl + 1 - at);
    at = nl == std::string::npos ? text.size() : nl + 1;
    if (line.rfind(kMarker, 0) == 0) {
      std::string name = line.substr(sizeof kMarker - 1);
      while (!name.empty() && (name.back() == '\n' || name.back() == '\r' || name.back() == ' ')) name.pop_back();
      files.push_back({name, ""});
      marked = true;
      continue;
    }
    files.back().second += line;
  }
  if (!marked) files.resize(1);
  return files;
}

}  // namespace

Analysis LintText(const std::string& name, const std::string& text, const Catalog& catalog, const RuleSet& rules,
                  const Profile& profile, const std::string& display_base) {
  static const RealFileSystem disk;
  static const LocalHost host(true);
  CheckInputs in;
  in.rules = &rules;
  in.profile = &profile;
  in.host = &host;
  in.extensions.builtin = ExtensionCatalog::ForMajor(catalog.major());
  std::vector<std::pair<std::string, std::string>> files = ExampleFiles(text);
  OverlayFileSystem overlay(&disk);
  FileCache cache(overlay);
  if (files.size() == 1) {
    AnalyzeOptions ao;
    ao.catalog = &catalog;
    ao.display_base = display_base;
    Analysis a = AnalyzeText(name, text, ao);
    RunChecks(name, true, {&cache, display_base}, in, &a);
    FoldRelatedFindings(&a);
    a.SortDiagnostics();
    return a;
  }
  // A data directory of several files: the directory of `name`.
  const std::string dir = ParentDirectory(AbsolutePath(overlay, name));
  std::vector<ServerHbaRule> server_hba;
  std::vector<ServerIdentMapping> server_ident;
  std::string error;
  for (const auto& [file, content] : files) {
    if (file == "pg_hba_file_rules.json" && ParseServerHbaRules(content, &server_hba, &error))
      in.auth.server_hba = &server_hba;
    else if (file == "pg_ident_file_mappings.json" && ParseServerIdentMappings(content, &server_ident, &error))
      in.auth.server_ident = &server_ident;
    else
      overlay.Set(dir + "/" + file, content);
  }
  Analysis a;
  a.root = dir;
  a.catalog = &catalog;
  const CollectContext ctx{&cache, display_base};
  ConfTreeSource(dir).Collect(ctx, &a);
  if (a.failure != Analysis::Failure::kNone) return a;
  RunPasses(&a, host);
  RunChecks(dir, true, ctx, in, &a);
  FoldRelatedFindings(&a);
  a.SortDiagnostics();
  return a;
}

Analysis LintExample(const RuleInfo& rule, const std::string& text, const RuleSet& rules, const std::string& dir,
                     const std::string& display_base) {
  const Catalog& cat =
      *Catalog::ForMajor(rule.example_pg_version ? rule.example_pg_version : Catalog::DefaultMajor());
  Profile profile;
  std::string error;  // the rules test checks every example profile
  SetProfileFacts(&profile, rule.example_profile, &error);
  const std::string kind = rule.example_kind;
  if (kind.empty() || kind == "conf") return LintText(dir + "/postgresql.conf", text, cat, rules, profile, display_base);
  // The other kinds read only the example's own files.
  OverlayFileSystem fs;
  static const UnknownHost kHost;
  FileCache cache(fs);
  CollectContext ctx(&cache, display_base);
  ctx.host = &kHost;
  Analysis a;
  a.catalog = &cat;
  Snapshot server;
  const bool is_sql = kind == "sql";
  if (!ReadSnapshot(kind == "snapshot" ? text : rule.example_context, &server, &error) && !is_sql) {
    a.failure = Analysis::Failure::kUsage;
    a.failure_message = error;
    return a;
  }
  std::map<std::string, std::string> running = RunningValues(server);
  if (is_sql) {
    a.root = dir + "/script.sql";
    fs.Set(a.root, text);
    SqlScriptOptions so;
    if (rule.example_context[0]) {
      fs.Set(dir + "/postgresql.conf", "");
      fs.Set(dir + "/postgresql.auto.conf", rule.example_context);
      ConfTreeSource(dir).Collect(ctx, &a);
      so.over_tree = true;
    }
    SqlScriptSource(a.root, so).Collect(ctx, &a);
  } else if (kind == "snapshot") {
    a.root = server.server;
    SnapshotSource(server).Collect(ctx, &a);
  } else {  // drift: the example against the snapshot of example_context
    a.root = dir + "/postgresql.conf";
    fs.Set(a.root, text);
    ConfTreeSource(a.root).Collect(ctx, &a);
  }
  if (a.failure != Analysis::Failure::kNone) return a;
  RunPasses(&a, kHost);
  CheckInputs in;
  in.rules = &rules;
  in.profile = &profile;
  in.host = &kHost;
  in.running = is_sql ? nullptr : &running;
  in.extensions.builtin = ExtensionCatalog::ForMajor(cat.major());
  in.lint_auth = false;
  in.report_defaults = !is_sql || rule.example_context[0];
  in.compare = kind == "drift" ? &server : nullptr;
  RunChecks(a.root, true, ctx, in, &a);
  a.SortDiagnostics();
  return a;
}

}  // namespace pgconflint
