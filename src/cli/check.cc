// `pgconflint check`: lint roots through the workspace and render them with
// the reporter the user chose.
#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "cli/common.h"
#include "report/reporter.h"

#ifndef PGCONFLINT_VERSION
#define PGCONFLINT_VERSION "0.0.0"
#endif

namespace pgconflint::cli {
namespace {

struct CheckOptions {
  CommonOptions common;
  std::string format = Reporters()[0].name;
  std::string fail_on = "warning";
  std::string color = "auto";
  std::vector<std::string> paths;
  CLI::Option* fail_on_option = nullptr;
};

bool UseColor(const std::string& when) {
  if (when == "always") return true;
  if (when == "never") return false;
  const char* no_color = std::getenv("NO_COLOR");
  if (no_color && *no_color) return false;
  return isatty(STDOUT_FILENO);
}

// `--format`, its choices and help from the reporter table, and
// `--list-formats`, which prints the table (name, description) and exits.
void AddFormatOptions(CLI::App* check, std::string* format) {
  std::vector<std::string> names;
  std::string help = "Output format:";
  for (const Reporter& r : Reporters()) {
    names.push_back(r.name);
    help += std::string("\n  ") + r.name + ": " + r.description;
  }
  check->add_option("--format", *format, help)->check(CLI::IsMember(names))->capture_default_str();
  check->add_flag_callback(
      "--list-formats",
      [] {
        for (const Reporter& r : Reporters()) std::cout << r.name << "\t" << r.description << "\n";
        throw CLI::Success();
      },
      "Print the output formats (name, tab, description) and exit");
}

bool AtOrAbove(const std::vector<Analysis>& analyses, const std::string& fail_on) {
  if (fail_on == "never") return false;
  Severity threshold = Severity::kWarning;
  ParseSeverity(fail_on, &threshold);
  for (const Analysis& a : analyses)
    for (const Diagnostic& d : a.diagnostics)
      if (static_cast<int>(d.severity) <= static_cast<int>(threshold)) return true;
  return false;
}

int Run(CheckOptions& o) {
  if (o.paths.empty()) {
    PrintError("check: PATH is required (a configuration file or a data directory; see `pgconflint check --help`)");
    return kExitUsage;
  }
  if (!CheckCommonOptions(&o.common)) return kExitUsage;
  if (o.common.major && !CatalogOrComplain(o.common.major)) return kExitUsage;
  std::map<std::string, std::string> running;
  if (!o.common.running_file.empty() && !ReadRunning(o.common.running_file, &running)) return kExitUsage;
  // Never freed: the process ends right after, and tearing down every parsed
  // file costs as much as a small lint (the analyses are freed likewise).
  Workspace& ws = *new Workspace(
      MakeWorkspaceOptions(o.common, o.common.running_file.empty() ? nullptr : &running, &HostFor(o.common)));
  std::vector<Analysis>& analyses = *new std::vector<Analysis>();
  analyses.reserve(o.paths.size());
  int exit_code = kExitOk;
  int shown_major = 0;
  std::string fail_on = o.fail_on;
  for (const std::string& p : o.paths) {
    Analysis a;
    std::string error;
    if (!ws.Lint(p, &a, &error)) {
      PrintError(error);
      return kExitUsage;
    }
    if (!o.fail_on_option->count() && ws.config().fail_on) fail_on = *ws.config().fail_on;
    if (!shown_major) shown_major = ws.major().major;
    if (a.failure != Analysis::Failure::kNone) {
      PrintError(a.failure_message);
      exit_code = std::max(exit_code, a.failure == Analysis::Failure::kIo ? kExitInternal : kExitUsage);
    }
    analyses.push_back(std::move(a));
  }
  ReportOptions ro;
  ro.pg_version = shown_major ? shown_major : Catalog::DefaultMajor();
  ro.color = UseColor(o.color);
  ro.tool_version = PGCONFLINT_VERSION;
  FindReporter(o.format)->render(analyses, ro, std::cout);
  if (!std::cout.flush()) return kExitInternal;
  if (exit_code != kExitOk) return exit_code;
  return AtOrAbove(analyses, fail_on) ? kExitFindings : kExitOk;
}

}  // namespace

Command AddCheck(CLI::App* app, bool with_common_options) {
  auto o = std::make_shared<CheckOptions>();
  CLI::App* check = app->add_subcommand("check", "Check configuration files or data directories");
  if (with_common_options) AddCommonOptions(check, &o->common);
  AddFormatOptions(check, &o->format);
  o->fail_on_option = check->add_option("--fail-on", o->fail_on, "Lowest severity that makes the exit code 1")
                          ->check(CLI::IsMember({"error", "warning", "info", "never"}))
                          ->capture_default_str();
  check->add_option("--color", o->color, "Colour the full format")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->capture_default_str();
  // Required, but checked in Run: CLI11 would report a missing PATH before an
  // unknown option ("check -x.conf" must say that -x.conf is unknown).
  check->add_option("PATH", o->paths, "postgresql.conf-style file or data directory; each is analysed on its own");
  return {check, [o] { return Run(*o); }};
}

}  // namespace pgconflint::cli
