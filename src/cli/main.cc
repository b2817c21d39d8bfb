// pgconflint: the command-line front end. A thin layer over the core library:
// it parses arguments, runs analyses and prints what core renders.
//
// Exit codes: 0 nothing at or above --fail-on; 1 findings; 2 usage or
// configuration error; 3 I/O or internal error.
#include <unistd.h>

#include <CLI/CLI.hpp>

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <fstream>
#include <map>

#include "core/analysis.h"
#include "core/catalog.h"
#include "core/docs.h"
#include "core/effective.h"
#include "core/linter.h"
#include "core/project_config.h"
#include "core/recommend.h"
#include "core/report.h"
#include "core/rules.h"

#ifndef PGCONFLINT_VERSION
#define PGCONFLINT_VERSION "0.0.0"
#endif

namespace pgconflint {
namespace {

constexpr int kExitOk = 0;
constexpr int kExitFindings = 1;
constexpr int kExitUsage = 2;
constexpr int kExitInternal = 3;

std::string CurrentDir() {
  char buf[4096];
  return getcwd(buf, sizeof buf) ? std::string(buf) : std::string();
}

const Catalog* CatalogOrComplain(int major) {
  const Catalog* c = Catalog::ForMajor(major);
  if (!c) {
    std::string list;
    for (int m : Catalog::SupportedMajors()) list += (list.empty() ? "" : ", ") + std::to_string(m);
    std::cerr << "pgconflint: error: no knowledge of PostgreSQL " << major << " (supported: " << list << ")\n";
  }
  return c;
}

bool UseColor(const std::string& when) {
  if (when == "always") return true;
  if (when == "never") return false;
  const char* no_color = std::getenv("NO_COLOR");
  if (no_color && *no_color) return false;
  return isatty(STDOUT_FILENO);
}

// Options shared by check and show: configuration, profile, rules.
struct CommonOptions {
  int major = 0;
  bool no_config = false;
  std::string config;
  std::vector<std::string> rules, select, ignore;
  std::string running_file;
  std::map<std::string, std::string> profile;  // flag name -> value
  std::vector<std::string> tablespaces;
};

void AddCommonOptions(CLI::App* sub, CommonOptions* o) {
  sub->add_option("--pg-version", o->major, "PostgreSQL major to check against (14-18; default: config file, else 18)");
  sub->add_option("--config", o->config, "Use this .pgconflint.toml instead of searching upwards");
  sub->add_flag("--no-config", o->no_config, "Ignore .pgconflint.toml files");
  sub->add_option("--rules", o->rules, "Extra rule file or directory (repeatable)");
  sub->add_option("--select", o->select, "Only these rules (codes, names or prefixes; repeatable)")->delimiter(',');
  sub->add_option("--ignore", o->ignore, "Skip these rules (repeatable)")->delimiter(',');
  sub->add_option("--running", o->running_file,
                  "JSON object of the running server's pg_settings (name -> setting), for restart checks");
  static const char* const kFacts[][2] = {
      {"ram", "RAM of the host, e.g. 64GB"},
      {"cpus", "CPU count"},
      {"storage", "Storage of the data directory: hdd, sata-ssd, nvme, raid-san, network-block, cold-object"},
      {"workload", "oltp, olap, mixed, web, desktop"},
      {"connections", "Expected concurrent connections"},
      {"os", "linux, freebsd, macos, windows"},
      {"container", "none, docker, kubernetes"},
      {"io-uring", "yes if the kernel, the build and seccomp allow io_uring"},
      {"storage-safe-without-fsync", "yes for throwaway databases and atomic-write storage"},
      {"baseline-measurement", "yes while measuring a baseline with io_method = sync"},
      {"nodes-per-query", "Sort/hash nodes per query in the memory model (default 2)"},
      {"headroom", "Fraction of RAM kept free in the memory model (default 0.1)"},
  };
  for (const auto& f : kFacts) {
    std::string key = f[0];
    sub->add_option_function<std::string>("--" + key, [o, key](const std::string& v) { o->profile[key] = v; }, f[1]);
  }
  sub->add_option("--tablespace", o->tablespaces, "NAME=STORAGE of a tablespace (repeatable)");
}

// Reads --running: a JSON object {"name": "setting", ...}.
bool ReadRunning(const std::string& path, std::map<std::string, std::string>* out) {
  std::ifstream in(path);
  if (!in) {
    std::cerr << "pgconflint: error: cannot read " << path << "\n";
    return false;
  }
  try {
    nlohmann::json j = nlohmann::json::parse(in);
    for (const auto& [k, v] : j.items()) (*out)[k] = v.is_string() ? v.get<std::string>() : v.dump();
  } catch (const std::exception& e) {
    std::cerr << "pgconflint: error: " << path << ": " << e.what() << "\n";
    return false;
  }
  return true;
}

LintOptions MakeLintOptions(const CommonOptions& c, const std::map<std::string, std::string>* running) {
  LintOptions lo;
  lo.pg_version = c.major;
  lo.use_config = !c.no_config;
  lo.config_path = c.config;
  for (const auto& [k, v] : c.profile) lo.profile_facts.emplace_back(k, v);
  for (const std::string& t : c.tablespaces) lo.profile_facts.emplace_back("tablespace", t);
  lo.rule_paths = c.rules;
  lo.select = c.select;
  lo.ignore = c.ignore;
  lo.running = running;
  lo.display_base = CurrentDir();
  return lo;
}

int RunCheck(const CommonOptions& common, const std::string& format, std::string fail_on, bool fail_on_given,
             const std::string& color, const std::vector<std::string>& paths) {
  if (common.major && !CatalogOrComplain(common.major)) return kExitUsage;
  std::map<std::string, std::string> running;
  if (!common.running_file.empty() && !ReadRunning(common.running_file, &running)) return kExitUsage;
  Linter linter(MakeLintOptions(common, common.running_file.empty() ? nullptr : &running));
  std::vector<Analysis> analyses;
  analyses.reserve(paths.size());
  int exit_code = kExitOk;
  int shown_major = 0;
  for (const std::string& p : paths) {
    Analysis a;
    std::string error;
    if (!linter.Lint(p, &a, &error)) {
      std::cerr << "pgconflint: error: " << error << "\n";
      return kExitUsage;
    }
    if (!fail_on_given && linter.config().fail_on) fail_on = *linter.config().fail_on;
    if (!shown_major) shown_major = linter.pg_version();
    if (a.failure != Analysis::Failure::kNone) {
      std::cerr << "pgconflint: error: " << a.failure_message << "\n";
      exit_code = std::max(exit_code, a.failure == Analysis::Failure::kIo ? kExitInternal : kExitUsage);
    }
    analyses.push_back(std::move(a));
  }
  ReportOptions ro;
  ro.format = format == "json" ? Format::kJson : format == "concise" ? Format::kConcise : Format::kFull;
  ro.color = ro.format == Format::kFull && UseColor(color);
  ro.tool_version = PGCONFLINT_VERSION;
  std::string out = Render(analyses, shown_major ? shown_major : Catalog::DefaultMajor(), ro);
  fwrite(out.data(), 1, out.size(), stdout);
  if (fflush(stdout) != 0) return kExitInternal;
  if (exit_code != kExitOk) return exit_code;
  if (fail_on == "never") return kExitOk;
  Severity threshold = Severity::kWarning;
  ParseSeverity(fail_on, &threshold);
  for (const Analysis& a : analyses)
    for (const Diagnostic& d : a.diagnostics)
      if (static_cast<int>(d.severity) <= static_cast<int>(threshold)) return kExitFindings;
  return kExitOk;
}

int RunShow(const CommonOptions& common, const std::string& format, const std::string& path,
            const std::vector<std::string>& names) {
  if (common.major && !CatalogOrComplain(common.major)) return kExitUsage;
  Linter linter(MakeLintOptions(common, nullptr));
  Analysis a;
  std::string error;
  if (!linter.Lint(path, &a, &error)) {
    std::cerr << "pgconflint: error: " << error << "\n";
    return kExitUsage;
  }
  if (a.failure != Analysis::Failure::kNone) {
    std::cerr << "pgconflint: error: " << a.failure_message << "\n";
    return a.failure == Analysis::Failure::kIo ? kExitInternal : kExitUsage;
  }
  std::vector<std::string> unknown;
  std::string out = RenderShow(a, names, format == "json", &unknown);
  fwrite(out.data(), 1, out.size(), stdout);
  for (const std::string& n : unknown)
    std::cerr << "pgconflint: error: unknown parameter \"" << n << "\" in PostgreSQL " << a.catalog->major() << "\n";
  return unknown.empty() ? kExitOk : kExitUsage;
}

int RunParams(int major, const std::string& format, const std::vector<std::string>& names) {
  const Catalog* catalog = CatalogOrComplain(major);
  if (!catalog) return kExitUsage;
  std::vector<std::string> unknown;
  std::string out = RenderParams(*catalog, names, format == "json", &unknown);
  fwrite(out.data(), 1, out.size(), stdout);
  for (const std::string& n : unknown) {
    std::cerr << "pgconflint: error: unknown parameter \"" << n << "\" in PostgreSQL " << major;
    std::vector<std::string> s = catalog->Suggest(n, 1);
    if (!s.empty()) std::cerr << " (did you mean \"" << s[0] << "\"?)";
    std::cerr << "\n";
  }
  return unknown.empty() ? kExitOk : kExitUsage;
}

int RunRecommend(const CommonOptions& common, const std::string& format, bool all, const std::string& plan) {
  ProjectConfig config;
  std::string error;
  std::string path = common.config;
  if (path.empty() && !common.no_config) path = FindProjectConfig(plan.empty() ? "." : plan);
  if (!path.empty() && !LoadProjectConfig(path, &config, &error)) {
    std::cerr << "pgconflint: error: " << error << "\n";
    return kExitUsage;
  }
  for (const auto& [k, v] : common.profile)
    if (!SetProfileFact(&config.profile, k, v, &error)) {
      std::cerr << "pgconflint: error: " << error << "\n";
      return kExitUsage;
    }
  for (const std::string& t : common.tablespaces)
    if (!SetProfileFact(&config.profile, "tablespace", t, &error)) {
      std::cerr << "pgconflint: error: " << error << "\n";
      return kExitUsage;
    }
  int major = common.major ? common.major : config.pg_version.value_or(Catalog::DefaultMajor());
  const Catalog* catalog = CatalogOrComplain(major);
  if (!catalog) return kExitUsage;
  Recommendation rec;
  if (!Recommend(config.profile, *catalog, &rec, &error)) {
    std::cerr << "pgconflint: error: " << error << "\n";
    return kExitUsage;
  }
  if ((format == "conf" || format == "sql") && !config.profile.storage)
    std::cerr << "pgconflint: note: no --storage: the storage settings are left out of the " << format << " output\n";
  std::string out;
  if (!plan.empty()) {
    Linter linter(MakeLintOptions(common, nullptr));
    Analysis a;
    if (!linter.Lint(plan, &a, &error)) {
      std::cerr << "pgconflint: error: " << error << "\n";
      return kExitUsage;
    }
    if (a.failure != Analysis::Failure::kNone) {
      std::cerr << "pgconflint: error: " << a.failure_message << "\n";
      return a.failure == Analysis::Failure::kIo ? kExitInternal : kExitUsage;
    }
    out = RenderPlan(rec, a, format == "markdown");
  } else {
    RecommendFormat f = format == "markdown" ? RecommendFormat::kMarkdown
                        : format == "json"   ? RecommendFormat::kJson
                        : format == "conf"   ? RecommendFormat::kConf
                        : format == "sql"    ? RecommendFormat::kSql
                                             : RecommendFormat::kTable;
    out = RenderRecommendation(rec, f, all);
  }
  fwrite(out.data(), 1, out.size(), stdout);
  return fflush(stdout) == 0 ? kExitOk : kExitInternal;
}

int RunExplain(const std::string& what, const std::vector<std::string>& rule_paths) {
  RuleSet rules;
  for (const std::string& p : rule_paths) {
    std::string error;
    if (!rules.AddPath(p, &error)) {
      std::cerr << "pgconflint: error: " << error << "\n";
      return kExitUsage;
    }
  }
  const RuleInfo* r = rules.Find(what);
  if (!r) {
    std::cerr << "pgconflint: error: no rule \"" << what << "\" (see `pgconflint explain --list`)\n";
    return kExitUsage;
  }
  std::cout << RuleDocMarkdown(*r, rules);
  return kExitOk;
}

int RunExplainList() {
  RuleSet rules;
  for (const RuleInfo* r : rules.rules())
    std::cout << r->code << "  " << r->name << "  (" << r->severity << ")  " << r->summary << "\n";
  return kExitOk;
}

int RunDocs(const std::string& dir) {
  RuleSet rules;
  std::string error;
  if (!WriteRuleDocs(rules, dir, &error)) {
    std::cerr << "pgconflint: error: " << error << "\n";
    return kExitInternal;
  }
  return kExitOk;
}

int Main(int argc, char** argv) {
  CLI::App app{"pgconflint: lint PostgreSQL configuration files as the server reads them"};
  app.set_version_flag("--version", std::string("pgconflint ") + PGCONFLINT_VERSION);
  app.require_subcommand(1);

  int major = Catalog::DefaultMajor();
  auto add_version = [&](CLI::App* sub) {
    sub->add_option("--pg-version", major, "PostgreSQL major (14-18)")->capture_default_str();
  };

  // Registering the ~20 profile and rule options costs more than linting a
  // small file; register them only for the subcommand being run (all of them
  // when the first argument names none, so that --help lists everything).
  const std::string first = argc > 1 ? argv[1] : "";
  const bool known_first = first == "check" || first == "show" || first == "recommend";
  auto wants = [&](const char* name) { return !known_first || first == name; };

  CommonOptions common;
  std::string format = "full", fail_on = "warning", color = "auto";
  std::vector<std::string> paths;
  CLI::App* check = app.add_subcommand("check", "Check configuration files or data directories");
  if (wants("check")) AddCommonOptions(check, &common);
  check->add_option("--format", format, "Output format")
      ->check(CLI::IsMember({"full", "concise", "json"}))
      ->capture_default_str();
  CLI::Option* fail_on_opt = check->add_option("--fail-on", fail_on, "Lowest severity that makes the exit code 1")
                                 ->check(CLI::IsMember({"error", "warning", "info", "never"}))
                                 ->capture_default_str();
  check->add_option("--color", color, "Colour the full format")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->capture_default_str();
  check->add_option("PATH", paths, "postgresql.conf-style file or data directory; each is analysed on its own")
      ->required();

  CommonOptions show_common;
  std::string show_format = "text", show_path;
  std::vector<std::string> show_names;
  CLI::App* show = app.add_subcommand("show", "Print configured and effective values with their source line");
  if (wants("show")) AddCommonOptions(show, &show_common);
  show->add_option("--format", show_format, "Output format")->check(CLI::IsMember({"text", "json"}))->capture_default_str();
  show->add_option("PATH", show_path, "Configuration file or data directory")->required();
  show->add_option("NAME", show_names, "Parameters to show (default: those set in the files, and derived values)");

  std::string params_format = "text";
  std::vector<std::string> names;
  CLI::App* params = app.add_subcommand("params", "Show the parameter catalog");
  add_version(params);
  params->add_option("--format", params_format, "Output format")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  params->add_option("NAME", names, "Parameters to show (default: all)");

  std::string rule;
  bool list = false;
  std::vector<std::string> explain_rules;
  CLI::App* explain = app.add_subcommand("explain", "Print a rule's documentation");
  explain->add_option("RULE", rule, "Rule code (PGC201) or name (invalid-value)");
  explain->add_flag("--list", list, "List every rule");
  // One path per --rules (repeatable), so that a RULE after it stays the RULE.
  explain->add_option("--rules", explain_rules, "Extra rule file or directory (repeatable)")->allow_extra_args(false);

  CommonOptions rec_common;
  std::string rec_format = "table", plan;
  bool rec_all = false;
  CLI::App* recommend = app.add_subcommand("recommend", "Recommend settings for the machine profile, per storage type");
  if (wants("recommend")) AddCommonOptions(recommend, &rec_common);
  recommend->add_option("--format", rec_format, "Output format")
      ->check(CLI::IsMember({"table", "markdown", "json", "conf", "sql"}))
      ->capture_default_str();
  recommend->add_flag("--all", rec_all, "Print every storage row of the matrix");
  recommend->add_option("--plan", plan, "A configuration file or data directory: print the rollout from it to the recommendation");

  std::string docs_dir;
  CLI::App* docs = app.add_subcommand("docs", "Write the rule documentation pages (docs/rules)");
  docs->add_option("DIR", docs_dir, "Output directory")->required();

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int rc = app.exit(e);
    return rc == 0 ? kExitOk : kExitUsage;
  }
  if (check->parsed()) return RunCheck(common, format, fail_on, fail_on_opt->count() > 0, color, paths);
  if (show->parsed()) return RunShow(show_common, show_format, show_path, show_names);
  if (params->parsed()) return RunParams(major, params_format, names);
  if (explain->parsed()) {
    if (list || rule.empty()) return RunExplainList();
    return RunExplain(rule, explain_rules);
  }
  if (docs->parsed()) return RunDocs(docs_dir);
  if (recommend->parsed()) return RunRecommend(rec_common, rec_format, rec_all, plan);
  return kExitUsage;
}

}  // namespace
}  // namespace pgconflint

int main(int argc, char** argv) {
  try {
    return pgconflint::Main(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "pgconflint: internal error: " << e.what() << "\n";
    return 3;
  }
}
