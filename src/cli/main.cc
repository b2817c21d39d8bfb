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

#include "core/analysis.h"
#include "core/catalog.h"
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

int RunCheck(int major, const std::string& format, const std::string& fail_on, const std::string& color,
             const std::vector<std::string>& paths) {
  const Catalog* catalog = CatalogOrComplain(major);
  if (!catalog) return kExitUsage;
  AnalyzeOptions opts;
  opts.catalog = catalog;
  opts.display_base = CurrentDir();
  std::vector<Analysis> analyses;
  analyses.reserve(paths.size());
  int exit_code = kExitOk;
  for (const std::string& p : paths) {
    analyses.push_back(Analyze(p, opts));
    const Analysis& a = analyses.back();
    if (a.failure != Analysis::Failure::kNone) {
      std::cerr << "pgconflint: error: " << a.failure_message << "\n";
      exit_code = std::max(exit_code, a.failure == Analysis::Failure::kIo ? kExitInternal : kExitUsage);
    }
  }
  ReportOptions ro;
  ro.format = format == "json" ? Format::kJson : format == "concise" ? Format::kConcise : Format::kFull;
  ro.color = ro.format == Format::kFull && UseColor(color);
  ro.tool_version = PGCONFLINT_VERSION;
  std::string out = Render(analyses, major, ro);
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

int RunExplain(const std::string& what) {
  const RuleInfo* r = FindRule(what);
  if (!r) {
    std::cerr << "pgconflint: error: no rule \"" << what << "\" (see `pgconflint explain --list`)\n";
    return kExitUsage;
  }
  std::cout << r->code << " " << r->name << " (" << r->severity << ", " << r->category
            << ", fatal: " << r->fatal << ")\n\n"
            << r->summary << "\n\n## Why\n" << r->why << "\n";
  if (r->fix[0]) std::cout << "\n## Fix\n" << r->fix << "\n";
  std::cout << "\n## Bad\n" << r->bad << "\n## Good\n" << r->good;
  if (r->references[0]) {
    std::cout << "\n## References\n";
    for (const char* const* ref = r->references; *ref; ++ref) std::cout << "- " << *ref << "\n";
  }
  return kExitOk;
}

int RunExplainList() {
  for (const RuleInfo& r : BuiltinRules())
    std::cout << r.code << "  " << r.name << "  (" << r.severity << ")  " << r.summary << "\n";
  return kExitOk;
}

int Main(int argc, char** argv) {
  CLI::App app{"pgconflint: lint PostgreSQL configuration files as the server reads them"};
  app.set_version_flag("--version", std::string("pgconflint ") + PGCONFLINT_VERSION);
  app.require_subcommand(1);

  int major = Catalog::DefaultMajor();
  auto add_version = [&](CLI::App* sub) {
    sub->add_option("--pg-version", major, "PostgreSQL major to check against (14-18)")
        ->capture_default_str();
  };

  std::string format = "full", fail_on = "warning", color = "auto";
  std::vector<std::string> paths;
  CLI::App* check = app.add_subcommand("check", "Check configuration files or data directories");
  add_version(check);
  check->add_option("--format", format, "Output format")
      ->check(CLI::IsMember({"full", "concise", "json"}))
      ->capture_default_str();
  check->add_option("--fail-on", fail_on, "Lowest severity that makes the exit code 1")
      ->check(CLI::IsMember({"error", "warning", "info", "never"}))
      ->capture_default_str();
  check->add_option("--color", color, "Colour the full format")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->capture_default_str();
  check->add_option("PATH", paths, "postgresql.conf-style file or data directory; each is analysed on its own")
      ->required();

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
  CLI::App* explain = app.add_subcommand("explain", "Print a rule's documentation");
  explain->add_option("RULE", rule, "Rule code (PGC201) or name (invalid-value)");
  explain->add_flag("--list", list, "List every rule");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int rc = app.exit(e);
    return rc == 0 ? kExitOk : kExitUsage;
  }
  if (check->parsed()) return RunCheck(major, format, fail_on, color, paths);
  if (params->parsed()) return RunParams(major, params_format, names);
  if (explain->parsed()) {
    if (list || rule.empty()) return RunExplainList();
    return RunExplain(rule);
  }
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
