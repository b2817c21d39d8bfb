// pgconflint: the command-line front end, a thin layer over the core library
// and the reporters. main() registers the subcommands (src/cli/*.cc, one file
// each) and runs the one given.
//
// Exit codes: 0 nothing at or above --fail-on; 1 findings; 2 usage or
// configuration error; 3 I/O or internal error.
#include <CLI/CLI.hpp>

#include <iostream>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/common.h"
#include "core/storage_facts.h"

#ifndef PGCONFLINT_VERSION
#define PGCONFLINT_VERSION "0.0.0"
#endif

namespace pgconflint::cli {
namespace {

int Main(int argc, char** argv) {
  CLI::App app{"pgconflint: lint PostgreSQL configuration files as the server reads them"};
  app.set_version_flag("--version", std::string("pgconflint ") + PGCONFLINT_VERSION);
  app.require_subcommand(1);
  // Registering the ~20 profile and rule options costs more than linting a
  // small file; register them only for the subcommand being run (all of them
  // when the first argument names none, so that --help lists everything).
  const std::string first = argc > 1 ? argv[1] : "";
  const bool known_first = first == "check" || first == "show" || first == "recommend" || first == "diff" ||
                           first == "server";
  auto wants = [&](const char* name) { return !known_first || first == name; };
  std::vector<Command> commands = {AddCheck(&app, wants("check")),         AddShow(&app, wants("show")),
                                   AddParams(&app),                        AddExplain(&app),
                                   AddDocs(&app),                          AddRecommend(&app, wants("recommend")),
                                   AddDiff(&app, wants("diff")),
                                   AddServer(&app, wants("server")),
                                   AddSnapshot(&app),                      AddApplySql(&app)};
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // The storage types come from knowledge/storage.toml: parse it only when
    // help may be printed, not on every start.
    for (const Command& c : commands)
      if (CLI::Option* o = c.app->get_option_no_throw("--storage"))
        o->description(o->get_description() + ": " + StorageChoices());
    int rc = app.exit(e);
    return rc == 0 ? kExitOk : kExitUsage;
  }
  for (const Command& c : commands)
    if (c.app->parsed()) return c.run();
  return kExitUsage;
}

}  // namespace
}  // namespace pgconflint::cli

int main(int argc, char** argv) {
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
