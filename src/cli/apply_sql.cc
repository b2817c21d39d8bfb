// `pgconflint apply-sql SCRIPT.sql`: the postgresql.auto.conf that the
// script's ALTER SYSTEM statements leave, byte for byte as the server writes
// it, on stdout; the statements the server would refuse on stderr.
#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "cli/common.h"
#include "report/reporter.h"

namespace pgconflint::cli {
namespace {

struct ApplySqlOptions {
  CommonOptions common;
  std::string script;
};

// Statement findings: those of the sql category (the others are about the
// resulting configuration, which `check` reports).
bool Refused(const Diagnostic& d) {
  return std::string_view(d.rule->category) == "sql" || d.rule == &Rule(RuleId::kUnknownParameter) ||
         d.rule == &Rule(RuleId::kInvalidValue) || d.rule == &Rule(RuleId::kValueOutOfRange);
}

int RunApplySql(const ApplySqlOptions& o) {
  if (o.common.major && !CatalogOrComplain(o.common.major)) return kExitUsage;
  Workspace ws(MakeWorkspaceOptions(o.common, nullptr, &HostFor(o.common)));
  Analysis a;
  std::string auto_conf, error;
  if (!ws.LintSql(o.script, &a, &auto_conf, &error)) {
    PrintError(error);
    return kExitUsage;
  }
  if (a.failure != Analysis::Failure::kNone) {
    PrintError(a.failure_message);
    return a.failure == Analysis::Failure::kIo ? kExitInternal : kExitUsage;
  }
  std::cout << auto_conf;
  if (!std::cout.flush()) return kExitInternal;
  std::vector<Diagnostic> refused;
  for (Diagnostic& d : a.diagnostics)
    if (Refused(d) && d.file >= 0 && !a.files[d.file].auto_conf) refused.push_back(std::move(d));
  a.diagnostics = std::move(refused);
  if (a.diagnostics.empty()) return kExitOk;
  ReportOptions ro;
  ro.pg_version = ws.major().major;
  std::vector<Analysis> v;
  v.push_back(std::move(a));
  FindReporter("concise")->render(v, ro, std::cerr);
  return kExitFindings;
}

}  // namespace

Command AddApplySql(CLI::App* app, bool full) {
  auto o = std::make_shared<ApplySqlOptions>();
  CLI::App* apply = app->add_subcommand(
      "apply-sql", "Print the postgresql.auto.conf a SQL script's ALTER SYSTEM statements would leave");
  if (!full) return {apply, {}};
  apply->add_option("SCRIPT", o->script, "SQL script (.sql)")->required();
  apply->add_option("--pg-version", o->common.major,
                    "PostgreSQL major (" + SupportedMajorsText("-") + "; default: the cluster's, else " +
                        std::to_string(Catalog::DefaultMajor()) + ")");
  apply->add_option("--config", o->common.config, "Use this .pgconflint.toml instead of searching upwards");
  apply->add_flag("--no-config", o->common.no_config, "Ignore .pgconflint.toml files");
  AddSqlOptions(apply, &o->common);
  AddServerHostOption(apply, &o->common);
  return {apply, [o] { return RunApplySql(*o); }};
}

}  // namespace pgconflint::cli
