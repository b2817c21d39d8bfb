// pg_hba_file_rules and pg_ident_file_mappings of a running server, as plain
// rows, and their comparison with pgconflint's reading of the same files.
// The live mode (a libpq SettingsSource) fills the rows from its queries;
// the CLI reads them from JSON (--server-hba, --server-ident); the
// differential suite uses the same path. Core has no libpq: only these
// structs cross the boundary.
#ifndef PGCONFLINT_CORE_HBA_HBA_SERVER_H_
#define PGCONFLINT_CORE_HBA_HBA_SERVER_H_

#include <optional>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/model/analysis.h"
#include "core/hba/hba.h"

namespace pgconflint {

/// One row of pg_hba_file_rules. Columns a major lacks (rule_number,
/// file_name before 16) stay empty.
struct ServerHbaRule {
  std::optional<int> rule_number;
  std::string file_name;
  int line_number = 0;
  std::optional<std::string> type;
  std::optional<std::vector<std::string>> database, user_name;
  std::optional<std::string> address, netmask;
  std::optional<std::string> auth_method;
  std::optional<std::vector<std::string>> options;
  std::optional<std::string> error;
};

/// One row of pg_ident_file_mappings (15+; map_number and file_name 16+).
struct ServerIdentMapping {
  std::optional<int> map_number;
  std::string file_name;
  int line_number = 0;
  std::optional<std::string> map_name, sys_name, pg_username;
  std::optional<std::string> error;
};

/// A line the server reads differently: where (the line, or the file when
/// the server reports more rows) and what differs, in words.
struct AuthDifference {
  Location where;
  std::string message;
  bool build_dependent = false;  // the server's verdict comes from its build ("not supported by this build")
};

/// A row as its line would read ("host all all 10.0.0.0/8 trust"), without
/// its error; empty for a row that has only an error.
std::string RowText(const ServerHbaRule& r);
std::string RowText(const ServerIdentMapping& m);

/// The row the server should report for `rule` (fill_hba_line), and for `map`.
ServerHbaRule ExpectedHbaRow(const AuthConfig& auth, const Analysis& a, const HbaRule& rule);
ServerIdentMapping ExpectedIdentRow(const AuthConfig& auth, const Analysis& a, const IdentMap& map);

/// Compares the server's rows with `auth`, line by line in the server's
/// order (file names may differ: the files may be copies). Empty when they
/// agree. A span may be empty when the view was not read (pg_ident_file_mappings
/// does not exist in 14): then that file is not compared.
std::vector<AuthDifference> CompareWithServer(const AuthConfig& auth, const Analysis& a,
                                              std::span<const ServerHbaRule> hba,
                                              std::span<const ServerIdentMapping> ident, bool compare_hba,
                                              bool compare_ident);

/// Drift: the rules and mappings a running server has in force against
/// these files, aligned by content (longest common subsequence): line
/// numbers, file names and comments do not count. A line the server lacks
/// is a difference at the line; a row the files lack, one at the file.
std::vector<AuthDifference> CompareInForce(const AuthConfig& auth, const Analysis& a,
                                           std::span<const ServerHbaRule> hba,
                                           std::span<const ServerIdentMapping> ident, bool compare_hba,
                                           bool compare_ident);

/// Rows from JSON: an array of objects with the view's column names (what
/// `SELECT json_agg(r) FROM pg_hba_file_rules r` returns). False with *error.
bool ParseServerHbaRules(const std::string& json, std::vector<ServerHbaRule>* out, std::string* error);
bool ParseServerIdentMappings(const std::string& json, std::vector<ServerIdentMapping>* out, std::string* error);
/// The same from rows already parsed (a snapshot's sections).
bool ReadServerHbaRules(const nlohmann::json& rows, std::vector<ServerHbaRule>* out, std::string* error);
bool ReadServerIdentMappings(const nlohmann::json& rows, std::vector<ServerIdentMapping>* out, std::string* error);

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_HBA_HBA_SERVER_H_
