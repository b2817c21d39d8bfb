// `pgconflint recommend`: the settings matrix for a machine profile, or the
// rollout plan from an existing configuration.
#include <algorithm>
#include <iostream>
#include <memory>
#include <optional>

#include "cli/commands.h"
#include "cli/common.h"
#include "core/workspace/project_config.h"
#include "core/advice/recommend.h"
#include "core/advice/recommend_plan.h"
#include "core/advice/recommend_render.h"
#include "core/base/machine.h"
#include "core/server/snapshot.h"
#include "live/live.h"

namespace pgconflint::cli {
namespace {

struct RecommendOptions {
  CommonOptions common;
  std::string format = "table", plan, plan_format = "alter-system";
  std::string live, snapshot;  // a server as the plan's starting point
  live::LiveOptions live_options;
  bool all = false;
  bool detect = false;  // this machine's RAM and CPUs, container limits included
};

// The configuration the plan starts from: PATH (a file, data directory or SQL
// script), a server over libpq, or a snapshot file (with its largest tables
// in *tables). The exit code so far.
int Current(const RecommendOptions& o, Workspace* ws, Analysis* a, std::optional<std::vector<SnapshotTable>>* tables) {
  if (!o.plan.empty()) return LintOne(ws, o.plan, a);
  Snapshot s;
  std::string json, label, error;
  if (!o.snapshot.empty()) {
    if (!ReadSnapshotFile(o.snapshot, &s)) return kExitUsage;
  } else if (!live::LibpqSnapshotTaker(o.live_options).Take(o.live, &json, &label, &error) ||
             !ReadSnapshot(json, &s, &error)) {
    PrintError(label.empty() ? error : label + ": " + error);
    return kExitInternal;
  }
  if (!ws->LintSnapshot(s, a, &error)) {
    PrintError(error);
    return kExitUsage;
  }
  a->root = s.server;
  *tables = std::move(s.tables);
  return kExitOk;
}

// --detect: this machine's RAM and CPUs (container limits included) over the
// project configuration's; the flags still win. What was found, and what the
// flags override, as assumptions of the recommendation.
void Detect(const RecommendOptions& o, Profile* profile, std::vector<std::string>* said) {
  RealFileSystem fs;
  DetectedMachine m = DetectMachine(fs);
  auto given = [&](const char* key) {
    return std::any_of(o.common.profile.begin(), o.common.profile.end(), [&](const auto& kv) { return kv.first == key; });
  };
  std::vector<std::string> lines = m.Describe();
  if (m.ram()) profile->ram_bytes = *m.ram();
  if (m.cpus()) profile->cpus = *m.cpus();
  if (given("ram")) lines[0] += "; not used: --ram given";
  if (given("cpus")) lines[1] += "; not used: --cpus given";
  for (const std::string& l : lines) said->push_back("detected on this machine (--detect): " + l);
}

// The profile: the project configuration's, then --detect's, then the flags.
bool LoadProfile(const RecommendOptions& o, ProjectConfig* config, std::vector<std::string>* detected) {
  RealFileSystem fs;
  std::string error;
  std::string path = o.common.config;
  if (path.empty() && !o.common.no_config) path = FindProjectConfig(fs, o.plan.empty() ? "." : o.plan);
  if (!path.empty() && !LoadProjectConfig(fs, path, config, &error)) {
    PrintError(error);
    return false;
  }
  if (o.detect) Detect(o, &config->profile, detected);
  for (const auto& [k, v] : o.common.profile)
    if (!SetProfileFact(&config->profile, k, v, &error)) {
      PrintError(error);
      return false;
    }
  for (const std::string& t : o.common.tablespaces)
    if (!SetProfileFact(&config->profile, "tablespace", t, &error)) {
      PrintError(error);
      return false;
    }
  return true;
}

RecommendFormat FormatNamed(const std::string& f) {
  return f == "markdown" ? RecommendFormat::kMarkdown
         : f == "json"   ? RecommendFormat::kJson
         : f == "conf"   ? RecommendFormat::kConf
         : f == "sql"    ? RecommendFormat::kSql
                         : RecommendFormat::kTable;
}

int RunRecommend(RecommendOptions& o) {
  if (!CheckCommonOptions(&o.common)) return kExitUsage;
  ProjectConfig config;
  std::vector<std::string> detected;
  if (!LoadProfile(o, &config, &detected)) return kExitUsage;
  const bool plan = !o.plan.empty() || !o.live.empty() || !o.snapshot.empty();
  if (int(!o.plan.empty()) + int(!o.live.empty()) + int(!o.snapshot.empty()) > 1) {
    PrintError("--plan, --live and --snapshot each name the configuration the plan starts from: give one");
    return kExitUsage;
  }
  if (o.plan_format == "conf" && (!plan || o.format != "table")) {
    PrintError(plan ? "--plan-format conf writes a postgresql.conf fragment: it takes no --format " + o.format
                    : "--plan-format conf needs the configuration the plan starts from: --plan, --live or --snapshot");
    return kExitUsage;
  }
  if (plan && o.format != "table" && o.format != "markdown") {
    PrintError("a plan (--plan, --live, --snapshot) prints a rollout as text (--format table) or markdown; --format " +
               o.format + " is not available with one (without, --format " + o.format + " prints the settings)");
    return kExitUsage;
  }
  // With a plan, the current configuration first: without --pg-version or a
  // configured pg-version, the recommendation is for its major. A profile
  // that lacks a fact is refused before any server is contacted.
  std::optional<Workspace> ws;
  Analysis current;
  std::optional<std::vector<SnapshotTable>> tables;
  std::string error;
  if (plan) {
    if (!ProfileSufficient(config.profile, &error)) {
      PrintError(error);
      return kExitUsage;
    }
    ws.emplace(MakeWorkspaceOptions(o.common, nullptr, &HostFor(o.common)));
    if (int rc = Current(o, &*ws, &current, &tables); rc != kExitOk) return rc;
  }
  int major = o.common.major               ? o.common.major
              : config.pg_version          ? *config.pg_version
              : plan && current.catalog    ? current.catalog->major()
                                           : Catalog::DefaultMajor();
  const Catalog* catalog = CatalogOrComplain(major);
  if (!catalog) return kExitUsage;
  if (plan && current.catalog) KeepConfiguredConnections(current, &config.profile);
  Recommendation rec;
  if (!Recommend(config.profile, *catalog, &rec, &error)) {
    for (const std::string& d : detected) std::cerr << "pgconflint: " << d << "\n";
    PrintError(error);
    return kExitUsage;
  }
  rec.assumptions.insert(rec.assumptions.begin(), detected.begin(), detected.end());
  if ((o.format == "conf" || o.format == "sql") && !config.profile.storage)
    std::cerr << "pgconflint: note: no --storage: the storage settings are left out of the " << o.format
              << " output\n";
  const std::vector<SnapshotTable>* table_stats = tables ? &*tables : nullptr;
  std::cout << (o.plan_format == "conf" ? RenderPlanFragment(rec, current, table_stats)
                : plan                    ? RenderPlan(rec, current, o.format == "markdown", table_stats)
                                          : RenderRecommendation(rec, FormatNamed(o.format), o.all));
  return std::cout.flush() ? kExitOk : kExitInternal;
}

}  // namespace

Command AddRecommend(CLI::App* app, bool full) {
  auto o = std::make_shared<RecommendOptions>();
  CLI::App* recommend =
      app->add_subcommand("recommend", "Recommend settings for the machine profile, per storage type");
  if (!full) return {recommend, {}};
  AddCommonOptions(recommend, &o->common);
  recommend->add_option("--format", o->format, "Output format")
      ->check(CLI::IsMember({"table", "markdown", "json", "conf", "sql"}))
      ->capture_default_str();
  recommend->add_flag("--all", o->all, "Print every storage row of the matrix");
  recommend->add_flag("--detect", o->detect,
                      "Take the RAM and CPUs from this machine: /proc/meminfo, the online CPUs and the cgroup's "
                      "memory and CPU limits (a container's); --ram and --cpus still win");
  recommend->add_option("--plan", o->plan,
                        "A configuration file, data directory or SQL script: print the rollout from it to the "
                        "recommendation (with the ALTER TABLESPACE statements for the tablespaces it has)");
  recommend->add_option("--plan-format", o->plan_format,
                        "How the plan applies the changes: alter-system (statements) or conf (a postgresql.conf "
                        "fragment that wins, with the lines that would still override it)")
      ->check(CLI::IsMember({"alter-system", "conf"}))
      ->capture_default_str();
  recommend->add_option("--live", o->live,
                        "A running server (libpq connection string): the rollout from it, with per-table autovacuum "
                        "for the largest tables of the database it connects to")
      ->allow_extra_args(false);
  recommend->add_option("--snapshot", o->snapshot, "A server's snapshot file (pgconflint snapshot): the rollout from it");
  recommend->add_option("--connect-timeout", o->live_options.connect_timeout_s, "Seconds to wait for --live")
      ->check(CLI::Range(1, 3600))
      ->capture_default_str();
  recommend->add_option("--statement-timeout", o->live_options.statement_timeout_ms,
                        "Milliseconds for each query of --live (no answer 2 s later ends the run)")
      ->check(CLI::Range(100, 3600000))
      ->capture_default_str();
  return {recommend, [o] { return RunRecommend(*o); }};
}

}  // namespace pgconflint::cli
