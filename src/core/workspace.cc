// The lint pipeline of one root, and the per-project state it needs.
#include "core/analyze.h"
#include "core/workspace.h"

#include <fnmatch.h>

#include <cstdlib>

#include "core/directives.h"
#include "core/drift.h"
#include "core/finding_placement.h"
#include "core/passes.h"
#include "core/recommendation_hints.h"
#include "core/rule_engine.h"
#include "core/snapshot_source.h"
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

// Everything after the sources: passes, rules, hints, suppressions.
// `compare`: a server to compare the configuration with (drift).
void RunPipeline(const EngineOptions& eo, const HostFacts& host, const Snapshot* compare, Analysis* a) {
  RunPasses(a, host);
  ReportAutoConfTraps(a);
  if (compare) CompareWithServer(*compare, a);
  RunRules(eo, a);
  AddRecommendationHints(eo, a);
  AddTablespaceHints(eo, a);
  a->fatal_before_filters = a->fatal();
  ApplySuppressions(*eo.rules, a);
}

}  // namespace

struct Workspace::Project {
  ProjectConfig config;
  RuleSet rules;
  std::vector<std::string> select, ignore;  // the run's selection: flags over the config's
};

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
  std::vector<std::string> rule_paths = p->config.extra_rules;
  for (const std::string& r : options_.rule_paths) rule_paths.push_back(AbsolutePath(*fs_, r));
  for (const std::string& r : rule_paths)
    if (!p->rules.AddPath(*fs_, r, error)) return false;
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
      if (SelectorMatches(sel, *d.rule)) d.severity = sev;
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
  const CollectContext ctx{&cache_, options_.display_base, host_};
  if (r.snapshot) {
    SnapshotSource(*r.snapshot).Collect(ctx, &a);
  } else {
    for (const auto& source : SourcesFor(r.root, r.auto_conf))
      if (a.failure == Analysis::Failure::kNone) source->Collect(ctx, &a);
  }
  if (a.failure != Analysis::Failure::kNone) return true;
  std::map<std::string, std::string> running;
  const Snapshot* server = r.snapshot ? r.snapshot : r.compare;
  if (server) running = RunningValues(*server);
  EngineOptions eo;
  eo.rules = &project->rules;
  eo.profile = &project->config.profile;
  eo.running = server ? &running : options_.running;
  eo.recommendation_hints = project->config.recommendation_hints;
  // A script alone holds no cluster: findings about defaults are not its own.
  eo.report_defaults = !IsSqlPath(r.root) || !options_.sql_cluster.empty() || r.snapshot;
  RunPipeline(eo, *host_, r.compare, &a);
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

Analysis LintText(const std::string& name, const std::string& text, const Catalog& catalog, const RuleSet& rules,
                  const Profile& profile, const std::string& display_base) {
  AnalyzeOptions ao;
  ao.catalog = &catalog;
  ao.display_base = display_base;
  Analysis a = AnalyzeText(name, text, ao);
  ReportAutoConfTraps(&a);
  EngineOptions eo;
  eo.rules = &rules;
  eo.profile = &profile;
  RunRules(eo, &a);
  AddRecommendationHints(eo, &a);
  AddTablespaceHints(eo, &a);
  a.fatal_before_filters = a.fatal();
  ApplySuppressions(rules, &a);
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
  const CollectContext ctx{&cache, display_base, &kHost};
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
  EngineOptions eo;
  eo.rules = &rules;
  eo.profile = &profile;
  eo.running = is_sql ? nullptr : &running;
  eo.report_defaults = !is_sql || rule.example_context[0];
  RunPipeline(eo, kHost, kind == "drift" ? &server : nullptr, &a);
  a.SortDiagnostics();
  return a;
}

}  // namespace pgconflint
