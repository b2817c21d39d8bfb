// The table of subcommands that main() dispatches on and that the manual
// page and the shell completions list.
#include "cli/commands.h"

#include <iterator>
#include <string>
#include <vector>

#include "core/base/strings.h"
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

namespace {

// The storage types come from the knowledge, which a run without --help
// does not read before it needs them. A yes/no fact's description says
// what yes means instead.
void DescribeChoices(CLI::App* app) {
  for (CLI::Option* o : app->get_options()) {
    if (o->get_lnames().size() != 1 || IsYesNoFact(o->get_lnames()[0])) continue;
    if (std::vector<std::string> choices = ProfileFactChoices(o->get_lnames()[0]); !choices.empty())
      o->description(o->get_description() + ": " + CommaList(choices));
  }
  for (CLI::App* group : app->get_subcommands([](CLI::App* a) { return a->get_name().empty(); }))
    DescribeChoices(group);
}

}  // namespace

void DescribeForHelp(const Command& command) { DescribeChoices(command.app); }

}  // namespace pgconflint::cli
