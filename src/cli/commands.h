// The subcommands: each registers its options on the CLI11 app and runs when
// its subcommand was given. main.cc only dispatches.
#ifndef PGCONFLINT_CLI_COMMANDS_H_
#define PGCONFLINT_CLI_COMMANDS_H_

#include <CLI/CLI.hpp>

#include <functional>
#include <span>
#include <string>

namespace pgconflint::cli {

/// A registered subcommand: run() returns the exit code.
struct Command {
  CLI::App* app = nullptr;
  std::function<int()> run;
};

/// Each adds its subcommand; with `full` false only its name and description
/// (another subcommand is being run, or only the command list may be printed):
/// registering one option costs CLI11 a comparison with every option before it,
/// and check's 50 options cost more than linting a small file.
Command AddCheck(CLI::App* app, bool full);
Command AddFormat(CLI::App* app, bool full);
Command AddShow(CLI::App* app, bool full);
Command AddParams(CLI::App* app, bool full);
Command AddExplain(CLI::App* app, bool full);
Command AddDocs(CLI::App* app, bool full);
Command AddRecommend(CLI::App* app, bool full);
Command AddDiff(CLI::App* app, bool full);
Command AddServer(CLI::App* app, bool full);
Command AddSnapshot(CLI::App* app, bool full);
Command AddApplySql(CLI::App* app, bool full);
Command AddMan(CLI::App* app, bool full);
Command AddCompletions(CLI::App* app, bool full);

/// A subcommand's name and the function that adds it.
struct Subcommand {
  const char* name;
  Command (*add)(CLI::App* app, bool full);
};

/// Every subcommand, in the order --help lists them (src/cli/commands.cc).
std::span<const Subcommand> Subcommands();

/// The top-level description --help prints.
const char* ProgramDescription();

/// The top-level app as main() runs it and the manual documents it: its
/// description, --help, and --version printing `version`.
void ConfigureProgram(CLI::App* app, const std::string& version);

/// What only --help, the manual page and the completions show, too costly to
/// build on every start: each profile fact with a fixed list of names that
/// is not yes/no (--storage, --workload, ...) gets its list in its
/// description (ProfileFactChoices; the storage types are read from
/// knowledge/storage.toml).
void DescribeForHelp(const Command& command);

}  // namespace pgconflint::cli

#endif  // PGCONFLINT_CLI_COMMANDS_H_
