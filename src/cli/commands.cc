// The table of subcommands that main() dispatches on and that the manual
// page and the shell completions list.
#include "cli/commands.h"

#include <iterator>
#include <string>

#include "core/rules/profile.h"

namespace pgconflint::cli {

std::span<const Subcommand> Subcommands() {
  static constexpr Subcommand kSubcommands[] = {
      {"check", AddCheck},         {"format", AddFormat},     {"show", AddShow},         {"params", AddParams},     {"explain", AddExplain},
      {"docs", AddDocs},           {"recommend", AddRecommend}, {"diff", AddDiff},       {"server", AddServer},
      {"snapshot", AddSnapshot},   {"apply-sql", AddApplySql}, {"man", AddMan},         {"completions", AddCompletions}};
  return kSubcommands;
}

const char* ProgramDescription() {
  return "pgconflint: lint PostgreSQL configuration files as the server reads them";
}

void ConfigureProgram(CLI::App* app, const std::string& version) {
  app->description(ProgramDescription());
  app->set_version_flag("--version", version);
}

void DescribeForHelp(const Command& command) {
  // The storage types come from the knowledge, which a run without --help
  // does not read before it needs them.
  for (const char* fact : {"storage", "workload", "os", "container"}) {
    CLI::Option* o = command.app->get_option_no_throw(std::string("--") + fact);
    if (!o) continue;
    std::string list;
    for (const std::string& v : ProfileFactChoices(fact)) list += (list.empty() ? "" : ", ") + v;
    o->description(o->get_description() + ": " + list);
  }
}

}  // namespace pgconflint::cli
