// `pgconflint check`: lint roots through the workspace and render them with
// the reporters the user chose. The CI additions live in their own files:
// targets.cc (fragments in context, --stdin-filename, --force-exclude),
// outputs.cc (--output), fix.cc (--fix, --diff), diff_base.cc (--diff-base);
// running servers and snapshots (--live, --snapshot) are fleet.cc's.
#include <iostream>
#include <memory>
#include <optional>

#include "cli/commands.h"
#include "cli/common.h"
#include "cli/diff_base.h"
#include "cli/fix.h"
#include "cli/fleet.h"
#include "cli/outputs.h"
#include "cli/targets.h"
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
  CLI::Option* format_option = nullptr;
  // CI and pre-commit (see the files named at the top).
  std::vector<std::string> outputs;  // FMT or FMT=PATH
  bool fix = false, diff = false, force_exclude = false, verbose = false;
  std::string diff_base, stdin_filename;
  LiveCheckOptions live;  // --live, --live-file, --snapshot (fleet.h)
};

bool UseColor(const std::string& when) {
  if (when == "always") return true;
  if (when == "never") return false;
  const char* no_color = std::getenv("NO_COLOR");
  if (no_color && *no_color) return false;
  return isatty(STDOUT_FILENO);
}

std::string Env(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

// The commit under review, from the variables GitHub Actions
// (GITHUB_SERVER_URL, GITHUB_REPOSITORY, GITHUB_SHA, GITHUB_REF) or GitLab CI
// (CI_PROJECT_URL, CI_COMMIT_SHA, CI_COMMIT_REF_NAME) set in every job.
ReportOptions::VersionControl VersionControlFromEnvironment() {
  ReportOptions::VersionControl vc;
  if (!Env("GITHUB_REPOSITORY").empty()) {
    std::string server = Env("GITHUB_SERVER_URL").empty() ? "https://github.com" : Env("GITHUB_SERVER_URL");
    vc = {server + "/" + Env("GITHUB_REPOSITORY"), Env("GITHUB_SHA"), Env("GITHUB_REF")};
  } else if (!Env("CI_PROJECT_URL").empty()) {
    vc = {Env("CI_PROJECT_URL"), Env("CI_COMMIT_SHA"), Env("CI_COMMIT_REF_NAME")};
  }
  return vc;
}

// `--format`, its choices and help from the reporter table, and
// `--list-formats`, which prints the table (name, description) and exits.
CLI::Option* AddFormatOptions(CLI::App* check, std::string* format) {
  std::vector<std::string> names;
  std::string help = "Output format:";
  for (const Reporter& r : Reporters()) {
    names.push_back(r.name);
    help += std::string("\n  ") + r.name + ": " + r.description;
  }
  CLI::Option* option = check->add_option("--format", *format, help)->check(CLI::IsMember(names))->capture_default_str();
  check->add_flag_callback(
      "--list-formats",
      [] {
        for (const Reporter& r : Reporters()) std::cout << r.name << "\t" << r.description << "\n";
        throw CLI::Success();
      },
      "Print the output formats (name, tab, description) and exit");
  return option;
}

void AddCiOptions(CLI::App* command, CheckOptions* o) {
  CLI::App* check = command->add_option_group("Fixes and CI");
  check->add_option("--output", o->outputs,
                    "FMT or FMT=PATH (repeatable): also render FMT, to standard output or atomically to PATH")
      ->allow_extra_args(false);
  check->add_flag("--fix", o->fix, "Apply the safe fixes, write the files atomically and list what changed");
  check->add_flag("--diff", o->diff, "Print the safe fixes as a unified diff; write nothing")->excludes("--fix");
  check->add_option("--diff-base", o->diff_base,
                    "Only findings on lines changed since this git revision, or new in a root the change touches");
  check->add_option("--stdin-filename", o->stdin_filename, "Lint standard input as if it were this file");
  check->add_flag("--force-exclude", o->force_exclude,
                  "Skip PATHs that .pgconflint.toml excludes even when given explicitly, and say nothing of "
                  "files that are not PostgreSQL configuration (for pre-commit)");
  check->add_flag("--verbose", o->verbose, "Say on standard error what each PATH is and which roots read it");
}

// The outputs of a run: --output's, and --format's on standard output unless
// only --output was given.
bool CollectOutputs(const CheckOptions& o, std::vector<OutputSpec>* out) {
  for (const std::string& spec : o.outputs) {
    OutputSpec s;
    std::string error;
    if (!ParseOutput(spec, &s, &error)) {
      PrintError(error);
      return false;
    }
    out->push_back(s);
  }
  if (out->empty() || o.format_option->count()) out->insert(out->begin(), {FindReporter(o.format), ""});
  return true;
}

// --fix or --diff, re-linting every target through the overlay after each
// round; returns the exit code when it ends the run (--diff, a failure).
std::optional<int> FixRounds(const CheckOptions& o, OverlayFileSystem* overlay, Workspace* ws,
                              const std::vector<Target>& targets, std::vector<Analysis>* analyses) {
  auto relint = [&] {
    ws->ForgetAll();
    std::set<std::string> seen;
    for (size_t i = 0; i < targets.size(); ++i) {
      std::string error;
      if (!ws->Lint(targets[i].root, &(*analyses)[i], &error)) {
        PrintError(error);
        return false;
      }
      KeepFindingsIn(targets[i], &(*analyses)[i], &seen);
    }
    return true;
  };
  std::string stdin_abs = o.stdin_filename.empty() ? "" : AbsolutePath(*overlay, o.stdin_filename);
  FixOutcome r = ApplySafeFixes(o.diff ? FixMode::kDiff : FixMode::kWrite, overlay, stdin_abs, relint, analyses);
  if (r.exit_code != kExitOk) return r.exit_code;
  if (o.diff) return r.files ? kExitFindings : kExitOk;
  return std::nullopt;
}

bool AtOrAbove(const std::vector<Analysis>& analyses, const std::string& fail_on) {
  if (fail_on == "never") return false;
  Severity threshold = Severity::kWarning;
  ParseSeverity(fail_on, &threshold);
  for (const Analysis& a : analyses)
    for (const Diagnostic& d : a.diagnostics)
      if (static_cast<int>(d.severity()) <= static_cast<int>(threshold)) return true;
  return false;
}

// --live, --live-file, --snapshot: running servers, alone or against PATHs.
// With --summary only the fleet's table; else the report, and after it the
// table when there are several servers and the format is not json.
int RunServers(const CheckOptions& o) {
  if (o.common.major && !CatalogOrComplain(o.common.major)) return kExitUsage;
  std::vector<OutputSpec> outputs;
  if (!CollectOutputs(o, &outputs)) return kExitUsage;
  std::vector<Analysis> analyses;
  std::vector<ServerRow> rows;
  int major = 0;
  int rc = CheckServers(o.common, o.live, o.paths, &analyses, &rows, &major);
  if (rc == kExitUsage && analyses.empty()) return rc;
  if (!o.live.summary.empty()) {
    RenderSummary(rows, o.live.summary, std::cout);
  } else {
    ReportOptions ro;
    ro.pg_version = major ? major : Catalog::DefaultMajor();
    ro.color = UseColor(o.color);
    ro.tool_version = PGCONFLINT_VERSION;
    int written = WriteOutputs(outputs, &analyses, ro, "", std::cout);
    if (written != kExitOk) return written;
    if (rows.size() > 1 && o.format != "json") {
      std::cout << "\n";
      RenderSummary(rows, "text", std::cout);
    }
  }
  if (!std::cout.flush()) return kExitInternal;
  if (rc != kExitOk) return rc;
  return AtOrAbove(analyses, o.fail_on) ? kExitFindings : kExitOk;
}

int RunCheck(CheckOptions& o) {
  if (o.paths.empty() && o.stdin_filename.empty() && !o.live.any()) {
    PrintError("check: PATH is required (a configuration file, a data directory, a pg_hba.conf or pg_ident.conf, "
               "or a SQL script), or --stdin-filename NAME with the file on standard input, or a running server "
               "with --live or --snapshot; see `pgconflint check --help`");
    return kExitUsage;
  }
  if (!CheckCommonOptions(&o.common)) return kExitUsage;
  if (o.live.any()) return RunServers(o);
  if (o.common.major && !CatalogOrComplain(o.common.major)) return kExitUsage;
  std::vector<OutputSpec> outputs;
  if (!CollectOutputs(o, &outputs)) return kExitUsage;
  std::map<std::string, std::string> running;
  if (!o.common.running_file.empty() && !ReadRunning(o.common.running_file, &running)) return kExitUsage;
  // Every read goes through an overlay of the disk: standard input and the
  // fixes of --fix/--diff live there until they are written. Never freed: the
  // process ends right after, and tearing down every parsed file costs as much
  // as a small lint (the analyses are freed likewise).
  RealFileSystem& disk = *new RealFileSystem();
  OverlayFileSystem& overlay = *new OverlayFileSystem(&disk);
  WorkspaceOptions wo = MakeWorkspaceOptions(o.common, o.common.running_file.empty() ? nullptr : &running, &HostFor(o.common));
  wo.fs = &overlay;
  if (!o.stdin_filename.empty()) wo.stdin_file = AbsolutePath(overlay, o.stdin_filename);
  ServerRows& rows = *new ServerRows();
  if (!ReadServerRows(o.common, &rows, &wo)) return kExitUsage;
  Workspace& ws = *new Workspace(wo);
  std::vector<Target> targets;
  std::string error;
  if (!PlanTargets(&ws, &overlay,
                   {o.paths, o.stdin_filename, o.force_exclude, o.verbose},
                   &targets, &error)) {
    PrintError(error);
    return kExitUsage;
  }
  std::vector<Analysis>& analyses = *new std::vector<Analysis>();
  analyses.reserve(targets.size());
  int exit_code = kExitOk;
  int shown_major = 0;
  std::string shown_reason;
  std::string fail_on = o.fail_on;
  std::set<std::string> seen;  // each finding is reported once, whichever roots hold its file
  for (const Target& t : targets) {
    Analysis a;
    if (!ws.Lint(t.root, &a, &error)) {
      PrintError(error);
      return kExitUsage;
    }
    KeepFindingsIn(t, &a, &seen);
    for (const std::string& n : ws.TakeNotices()) std::cerr << "pgconflint: warning: " << n << "\n";
    if (!o.fail_on_option->count() && ws.config().fail_on) fail_on = *ws.config().fail_on;
    if (!shown_major) {
      shown_major = ws.major().major;
      shown_reason = ws.major().reason;
    } else if (ws.major().major != shown_major || ws.major().reason != shown_reason) {
      shown_reason = "the first root's; the roots differ";
    }
    if (a.failure != Analysis::Failure::kNone) {
      PrintError(a.failure_message);
      exit_code = std::max(exit_code, a.failure == Analysis::Failure::kIo ? kExitInternal : kExitUsage);
    }
    analyses.push_back(std::move(a));
  }
  if (o.fix || o.diff)
    if (std::optional<int> rc = FixRounds(o, &overlay, &ws, targets, &analyses)) return *rc;
  if (!o.diff_base.empty() && !FilterToChange(o.diff_base, wo, &analyses, &error)) {
    PrintError(error);
    return kExitUsage;
  }
  ReportOptions ro;
  ro.pg_version = shown_major ? shown_major : Catalog::DefaultMajor();
  ro.pg_version_reason = shown_reason == "--pg-version" ? "from --pg-version"
                         : shown_reason.rfind("the ", 0) == 0 ? shown_reason
                         : shown_reason.empty()               ? ""
                                                              : "from " + shown_reason;
  ro.color = UseColor(o.color);
  ro.tool_version = PGCONFLINT_VERSION;
  ro.base_dir = disk.CurrentDirectory();
  ro.version_control = VersionControlFromEnvironment();
  const char* summary = std::getenv("GITHUB_STEP_SUMMARY");
  // With --fix on standard input, standard output is the fixed text.
  std::ostream& report = o.fix && !o.stdin_filename.empty() ? std::cerr : std::cout;
  int written = WriteOutputs(outputs, &analyses, ro, summary ? summary : "", report);
  if (written != kExitOk) return written;
  if (exit_code != kExitOk) return exit_code;
  return AtOrAbove(analyses, fail_on) ? kExitFindings : kExitOk;
}

}  // namespace

Command AddCheck(CLI::App* app, bool full) {
  auto o = std::make_shared<CheckOptions>();
  CLI::App* check = app->add_subcommand("check", "Check configuration files or data directories");
  if (!full) return {check, {}};
  AddCommonOptions(check, &o->common);
  o->format_option = AddFormatOptions(check, &o->format);
  AddCiOptions(check, o.get());
  o->fail_on_option = check->add_option("--fail-on", o->fail_on, "Lowest severity that makes the exit code 1")
                          ->check(CLI::IsMember({"error", "warning", "info", "never"}))
                          ->capture_default_str();
  check->add_option("--color", o->color, "Colour the full format")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->capture_default_str();
  // Required, but checked in Run: CLI11 would report a missing PATH before an
  // unknown option ("check -x.conf" must say that -x.conf is unknown).
  check->add_option("PATH", o->paths,
                    "postgresql.conf-style file, data directory, pg_hba.conf or pg_ident.conf, or SQL script "
                    "(.sql); each is analysed on its own (a conf.d fragment in the context of the roots that "
                    "include it)");
  AddLiveOptions(check, &o->live);
  return {check, [o] { return RunCheck(*o); }};
}

}  // namespace pgconflint::cli
