// The subcommands: each registers its options on the CLI11 app and runs when
// its subcommand was given. main.cc only dispatches.
#ifndef PGCONFLINT_CLI_COMMANDS_H_
#define PGCONFLINT_CLI_COMMANDS_H_

#include <CLI/CLI.hpp>

#include <functional>

namespace pgconflint::cli {

/// A registered subcommand: run() returns the exit code.
struct Command {
  CLI::App* app = nullptr;
  std::function<int()> run;
};

/// `with_common_options` is false when another subcommand is being run (the
/// ~20 profile options cost more to register than linting a small file).
Command AddCheck(CLI::App* app, bool with_common_options);
Command AddShow(CLI::App* app, bool with_common_options);
Command AddParams(CLI::App* app);
Command AddExplain(CLI::App* app);
Command AddDocs(CLI::App* app);
Command AddRecommend(CLI::App* app, bool with_common_options);
Command AddDiff(CLI::App* app, bool with_common_options);
Command AddServer(CLI::App* app, bool with_common_options);
Command AddSnapshot(CLI::App* app);
Command AddApplySql(CLI::App* app);

}  // namespace pgconflint::cli

#endif  // PGCONFLINT_CLI_COMMANDS_H_
