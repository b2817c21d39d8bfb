// `pgconflint server`: the language server over stdin and stdout
// (src/lsp). The command line's options configure the workspace; a client's
// initializationOptions add to them. A live server (live.conninfo) is read
// through src/live's child processes.
#include <unistd.h>

#include <cstdlib>
#include <memory>

#include "cli/commands.h"
#include "cli/common.h"
#include "live/child_process.h"
#include "lsp/server.h"

#ifndef PGCONFLINT_VERSION
#define PGCONFLINT_VERSION "0.0.0"
#endif

namespace pgconflint::cli {
namespace {

struct ServerCommandOptions {
  CommonOptions common;
  bool stdio = false;
  int debounce_ms = 20;
  std::string docs_dir;
};

// Where the rule pages linked from diagnostics are written: the user's cache.
std::string DefaultDocsDir() {
  std::string base;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && xdg[0] == '/') base = xdg;
  else if (const char* home = std::getenv("HOME"); home && home[0] == '/') base = std::string(home) + "/.cache";
  else return "";
  return base + "/pgconflint/" PGCONFLINT_VERSION "/rules";
}

int RunServer(const ServerCommandOptions& o) {
  if (o.common.major && !CatalogOrComplain(o.common.major)) return kExitUsage;
  if (isatty(STDIN_FILENO))
    PrintError("`pgconflint server` speaks the Language Server Protocol on stdin and stdout: start it from an "
               "editor (see editors/README.md)");
  lsp::ServerOptions options;
  options.workspace = MakeWorkspaceOptions(o.common, nullptr, &HostFor(o.common));
  options.debounce_ms = o.debounce_ms;
  options.docs_dir = o.docs_dir == "none" ? "" : o.docs_dir.empty() ? DefaultDocsDir() : o.docs_dir;
  options.version = PGCONFLINT_VERSION;
  // live.conninfo: each request to the server runs in a child process (live/child_process.h).
  static const live::ChildProcessLiveClient live_client;
  options.live = &live_client;
  return lsp::RunServer(options, STDIN_FILENO, STDOUT_FILENO);
}

}  // namespace

Command AddServer(CLI::App* app, bool full) {
  auto o = std::make_shared<ServerCommandOptions>();
  CLI::App* server = app->add_subcommand("server", "Run the language server (LSP 3.17) on stdin and stdout");
  if (!full) return {server, {}};
  AddCommonOptions(server, &o->common);
  server->add_flag("--stdio", o->stdio, "Talk over stdin and stdout (the default and only transport)");
  server->add_option("--debounce-ms", o->debounce_ms,
                     "In a burst of changes, milliseconds without a change before the document is linted "
                     "(a change alone is linted at once)")
      ->check(CLI::Range(0, 60000))
      ->capture_default_str();
  server->add_option("--docs-dir", o->docs_dir,
                     "Where rule pages linked from diagnostics are written (default: "
                     "$XDG_CACHE_HOME/pgconflint/VERSION/rules, else $HOME/.cache/pgconflint/VERSION/rules; "
                     "none: no links)");
  return {server, [o] { return RunServer(*o); }};
}

}  // namespace pgconflint::cli
