// `pgconflint recommend`: the settings matrix for a machine profile, or the
// rollout plan from an existing configuration.
#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "cli/common.h"
#include "core/project_config.h"
#include "core/recommend.h"
#include "core/recommend_plan.h"
#include "core/recommend_render.h"

namespace pgconflint::cli {
namespace {

struct RecommendOptions {
  CommonOptions common;
  std::string format = "table", plan;
  bool all = false;
};

// The profile: the project configuration's, then the flags.
bool LoadProfile(const RecommendOptions& o, ProjectConfig* config) {
  RealFileSystem fs;
  std::string error;
  std::string path = o.common.config;
  if (path.empty() && !o.common.no_config) path = FindProjectConfig(fs, o.plan.empty() ? "." : o.plan);
  if (!path.empty() && !LoadProjectConfig(fs, path, config, &error)) {
    PrintError(error);
    return false;
  }
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
  if (!LoadProfile(o, &config)) return kExitUsage;
  int major = o.common.major ? o.common.major : config.pg_version.value_or(Catalog::DefaultMajor());
  const Catalog* catalog = CatalogOrComplain(major);
  if (!catalog) return kExitUsage;
  Recommendation rec;
  std::string error;
  if (!Recommend(config.profile, *catalog, &rec, &error)) {
    PrintError(error);
    return kExitUsage;
  }
  if ((o.format == "conf" || o.format == "sql") && !config.profile.storage)
    std::cerr << "pgconflint: note: no --storage: the storage settings are left out of the " << o.format
              << " output\n";
  if (!o.plan.empty() && o.format != "table" && o.format != "markdown") {
    PrintError("--plan prints a rollout as text (--format table) or markdown; --format " + o.format +
               " is not available with --plan (without --plan, --format " + o.format + " prints the settings)");
    return kExitUsage;
  }
  std::string out;
  if (!o.plan.empty()) {
    Workspace ws(MakeWorkspaceOptions(o.common, nullptr, &HostFor(o.common)));
    Analysis a;
    if (int rc = LintOne(&ws, o.plan, &a); rc != kExitOk) return rc;
    out = RenderPlan(rec, a, o.format == "markdown");
  } else {
    out = RenderRecommendation(rec, FormatNamed(o.format), o.all);
  }
  std::cout << out;
  return std::cout.flush() ? kExitOk : kExitInternal;
}

}  // namespace

Command AddRecommend(CLI::App* app, bool with_common_options) {
  auto o = std::make_shared<RecommendOptions>();
  CLI::App* recommend =
      app->add_subcommand("recommend", "Recommend settings for the machine profile, per storage type");
  if (with_common_options) AddCommonOptions(recommend, &o->common);
  recommend->add_option("--format", o->format, "Output format")
      ->check(CLI::IsMember({"table", "markdown", "json", "conf", "sql"}))
      ->capture_default_str();
  recommend->add_flag("--all", o->all, "Print every storage row of the matrix");
  recommend->add_option("--plan", o->plan,
                        "A configuration file or data directory: print the rollout from it to the recommendation");
  return {recommend, [o] { return RunRecommend(*o); }};
}

}  // namespace pgconflint::cli
