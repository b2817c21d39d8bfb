// What the subcommands share: exit codes, the options that configure a
// workspace (project configuration, profile, rules, selection), and error
// reporting. The CLI only translates arguments to core calls and prints.
#ifndef PGCONFLINT_CLI_COMMON_H_
#define PGCONFLINT_CLI_COMMON_H_

#include <CLI/CLI.hpp>

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/knowledge/catalog.h"
#include "core/base/host.h"
#include "core/workspace/workspace.h"

namespace pgconflint::cli {

// Exit codes (README): 0 nothing at or above --fail-on; 1 findings; 2 usage
// or configuration error; 3 I/O or internal error.
inline constexpr int kExitOk = 0;
inline constexpr int kExitFindings = 1;
inline constexpr int kExitUsage = 2;
inline constexpr int kExitInternal = 3;

/// Options of check, show and recommend: configuration, profile, rules.
struct CommonOptions {
  int major = 0;
  bool no_config = false;
  bool allow_outside_includes = false;
  std::string config;
  std::vector<std::string> rules, select, ignore;
  std::vector<std::string> select_lists, ignore_lists;  // as given: comma lists, split by CheckCommonOptions
  std::string running_file;
  std::string server_host = "no";  // does pgconflint run on the server's host?
  std::map<std::string, std::string> profile;  // flag name -> value
  std::vector<std::string> tablespaces;
  std::string file_type = "auto";             // --file-type
  std::vector<std::string> extension_catalogs;  // --extension-catalog
  std::string server_hba_file, server_ident_file;  // --server-hba, --server-ident
  std::string cluster, auto_conf;  // what SQL scripts run against (--cluster, --auto-conf)
};

/// Rows of a running server's pg_hba_file_rules / pg_ident_file_mappings
/// read from the files of --server-hba / --server-ident.
struct ServerRows {
  std::vector<ServerHbaRule> hba;
  std::vector<ServerIdentMapping> ident;
};

/// Registers the common options on `sub`.
void AddCommonOptions(CLI::App* sub, CommonOptions* o);
/// --server-host (part of AddCommonOptions; alone for apply-sql).
void AddServerHostOption(CLI::App* sub, CommonOptions* o);

/// Prints "pgconflint: error: MESSAGE" on stderr, control characters escaped.
void PrintError(const std::string& message);

/// Checks what CLI11 cannot: a --select/--ignore list that is empty once its
/// empty items are dropped (`--select ,,,`), a --config that is no regular
/// file. False after printing why. Fills `select` and `ignore` from the
/// comma lists given.
bool CheckCommonOptions(CommonOptions* c);

/// A CLI11 check for --pg-version: one of the majors pgconflint knows.
CLI::Validator MajorValidator();

/// The catalog of `major`, or null after saying which majors exist.
const Catalog* CatalogOrComplain(int major);

/// The workspace options for `c`. `running` and `host` must outlive the
/// workspace.
WorkspaceOptions MakeWorkspaceOptions(const CommonOptions& c, const std::map<std::string, std::string>* running,
                                      const HostFacts* host);

/// The host facts `c` asks for (--server-host).
const HostFacts& HostFor(const CommonOptions& c);

/// Parses a --running document: a JSON object of parameter name -> setting
/// (string, number or boolean), nested at most kMaxJsonDepth (core/base/limits.h).
/// False with *error saying why.
bool ParseRunning(std::string_view text, std::map<std::string, std::string>* out, std::string* error);

/// Reads --server-hba and --server-ident into *rows and points `o` at them
/// (rows must outlive the workspace); false after printing why.
bool ReadServerRows(const CommonOptions& c, ServerRows* rows, WorkspaceOptions* o);

/// Reads --running: a JSON object {"name": "setting", ...}; false after
/// printing why.
bool ReadRunning(const std::string& path, std::map<std::string, std::string>* out);

/// Lints one root for a command that needs it whole (show, recommend --plan):
/// the exit code when it cannot (configuration error, unreadable root).
int LintOne(Workspace* ws, const std::string& path, Analysis* out);

/// Registers --cluster and --auto-conf (what SQL scripts run against).
void AddSqlOptions(CLI::App* sub, CommonOptions* o);

/// Reads a snapshot file (`pgconflint snapshot` or scripts/snapshot.sql
/// output), labelled with its path when it names no server; false after
/// printing why.
bool ReadSnapshotFile(const std::string& path, Snapshot* out);

}  // namespace pgconflint::cli

#endif  // PGCONFLINT_CLI_COMMON_H_
