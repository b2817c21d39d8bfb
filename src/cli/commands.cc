// The table of subcommands that main() dispatches on and that the manual
// page and the shell completions list.
#include "cli/commands.h"

#include <iterator>

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

}  // namespace pgconflint::cli
