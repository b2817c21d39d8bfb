// pgconflint: the command-line front end, a thin layer over the core library
// and the reporters. main() registers the subcommands (src/cli/*.cc, one file
// each) and runs the one given.
//
// Exit codes: 0 nothing at or above --fail-on; 1 findings; 2 usage or
// configuration error; 3 I/O or internal error.
#include <CLI/CLI.hpp>

#include <unistd.h>

#include <algorithm>
#include <iostream>
#include <new>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/common.h"
#include "core/knowledge/catalog.h"
#include "live/helper.h"

#ifndef PGCONFLINT_VERSION
#define PGCONFLINT_VERSION "0.0.0"
#endif
#ifndef PGCONFLINT_COMMIT
#define PGCONFLINT_COMMIT "unknown"
#endif

namespace pgconflint::cli {
namespace {

// CLI11's message for a usage error, as one line. An argument it did not
// expect that starts with '-' is an unknown option (`check -x.conf`).
std::string UsageMessage(const CLI::ParseError& e) {
  std::string what = e.what();
  if (dynamic_cast<const CLI::ExtrasError*>(&e)) {
    std::string args = what.substr(what.find(':') + 1);
    args.erase(0, args.find_first_not_of(' '));
    if (!args.empty() && args[0] == '-')
      return "unknown option " + args + " (a path that starts with '-' goes after `--`: check -- " + args + ")";
    return "unexpected argument " + args;
  }
  for (char& c : what)
    if (c == '\n') c = ' ';
  return what + " (see --help)";
}

// Out of memory anywhere, even where an exception cannot leave (a destructor,
// a noexcept function), ends the run the same way: one line on stderr and
// exit 3. What was written to stdout stays as it is; the line says why it
// stops.
[[noreturn]] void OutOfMemory() {
  static const char kMessage[] = "pgconflint: error: out of memory\n";
  ssize_t written = write(STDERR_FILENO, kMessage, sizeof kMessage - 1);
  (void)written;
  _exit(kExitInternal);
}

// "pgconflint 0.1.0 (commit 0123456789ab)" and the PostgreSQL releases the
// catalogs were harvested from.
std::string VersionText() {
  std::string text = std::string("pgconflint ") + PGCONFLINT_VERSION + " (commit " + PGCONFLINT_COMMIT + ")\n" +
                     "PostgreSQL catalogs:";
  for (int major : Catalog::SupportedMajors())
    if (const Catalog* c = Catalog::ForMajor(major)) text += std::string(" ") + c->server_version();
  return text;
}

int Main(int argc, char** argv) {
  // The editor server's child for one request to a running server
  // (live/helper.h): not a user's command, and not registered.
  if (argc == 2 && argv[1] == live::kLiveHelperCommand) return live::RunLiveHelper(STDIN_FILENO, STDOUT_FILENO);
  // Left to the operating system at exit, as check leaves its workspace:
  // tearing down the option tree cost more than building it (a static
  // reference keeps it reachable for leak checkers).
  static CLI::App& app = *new CLI::App;
  ConfigureProgram(&app, VersionText());
  app.require_subcommand(1);
  // The subcommand being run is the only one registered, with its options;
  // otherwise each adds its name and description, which is all the top-level
  // --help lists (an App costs as much as ten options).
  const std::string first = argc > 1 ? argv[1] : "";
  static std::vector<Command>& commands = *new std::vector<Command>;
  std::span<const Subcommand> all = Subcommands();
  auto named = std::find_if(all.begin(), all.end(), [&](const Subcommand& s) { return first == s.name; });
  if (named != all.end())
    commands.push_back(named->add(&app, true));
  else
    for (const Subcommand& s : all) commands.push_back(s.add(&app, false));
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() != 0) {  // not --help or --version: a usage error
      PrintError(UsageMessage(e));
      return kExitUsage;
    }
    for (const Command& c : commands) DescribeForHelp(c);
    return app.exit(e) == 0 ? kExitOk : kExitUsage;
  }
  for (const Command& c : commands)
    if (c.app->parsed() && c.run) return c.run();
  return kExitUsage;
}

}  // namespace
}  // namespace pgconflint::cli

int main(int argc, char** argv) {
  std::set_new_handler(pgconflint::cli::OutOfMemory);
  try {
    return pgconflint::cli::Main(argc, argv);
  } catch (const std::bad_alloc&) {
    std::cerr << "pgconflint: error: out of memory\n";
    return pgconflint::cli::kExitInternal;
  } catch (const std::exception& e) {
    std::cerr << "pgconflint: internal error: " << e.what() << "\n";
    return pgconflint::cli::kExitInternal;
  }
}
