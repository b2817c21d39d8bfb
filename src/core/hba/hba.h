// pg_hba.conf and pg_ident.conf as each major reads them (libpq/hba.c): the
// tokenizer (fields, comma lists, double quotes, '#' comments, backslash
// continuation, @file inclusion, include / include_if_exists / include_dir
// in 16+) and the parse of every line into an HBA rule or an ident mapping,
// with the server's own message for each line it refuses. Every token keeps
// the bytes it was written at. The facts are in docs/postgresql-semantics.md
// (#hba-files) and tests/integration/test_hba_differential.py checks them
// against pg_hba_file_rules and pg_ident_file_mappings of real servers.
#ifndef PGCONFLINT_CORE_HBA_HBA_H_
#define PGCONFLINT_CORE_HBA_HBA_H_

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/knowledge/catalog.h"
#include "core/hba/hba_address.h"
#include "core/base/source_file.h"

namespace pgconflint {

enum class AuthFileKind : uint8_t { kHba, kIdent };

/// One token of a field, as the server compares it.
struct AuthToken {
  std::string text;      // dequoted: `"a""b"` is a"b
  bool quoted = false;   // a double quote came before its first character: no keyword, no +group
  Range range;           // where it is written in the line's file; an @file's tokens: the @token
  int from_file = -1;    // the @file it came from (index into Analysis::files); -1: the line itself

  bool IsKeyword(const char* k) const { return !quoted && text == k; }
  bool IsRegex() const { return !text.empty() && text[0] == '/'; }  // 16+ (and ident system users)
};

/// One whitespace-separated field: a comma-separated list of tokens.
struct AuthField {
  std::vector<AuthToken> tokens;
  Range range;
};

/// One logical line (continuations joined) that is not blank or a comment:
/// the server's TokenizedAuthLine.
struct AuthLine {
  int file = -1;      // index into Analysis::files
  uint32_t line = 0;  // 1-based, of its first physical line
  Range range;        // from the first to the last byte of the logical line
  std::vector<AuthField> fields;
  std::string error;  // the tokenizer's error (pg_hba_file_rules.error); empty if none
  Range error_range;  // what the error is about (the @token, the include line)
};

enum class HbaConnType : uint8_t { kLocal, kHost, kHostSsl, kHostNoSsl, kHostGssEnc, kHostNoGssEnc };
enum class HbaAddressKind : uint8_t { kNone, kAll, kSameHost, kSameNet, kIp, kHostName };

struct HbaOption {
  std::string name, value;  // split at the first '='
  Range range;              // the whole name=value token
};

/// The outcome of one line for the server, shared by HBA rules and ident maps.
struct AuthOutcome {
  /// The server built a rule from the line (it loads unless another line of
  /// the file is refused). False: the line is refused and the whole file is
  /// not loaded.
  bool parsed = false;
  /// pg_hba_file_rules.error / pg_ident_file_mappings.error: why the line is
  /// refused, or (with parsed) why a loaded hostssl / hostgssenc rule cannot
  /// match. Empty when the view shows none, which happens for some refusals.
  std::string error;
  /// What the server logs about the line (its LOG message): the refusal's
  /// reason even when `error` is empty.
  std::string message;
  Range where;  // the token the message is about (else the line)
  bool host_dependent = false;  // only the server's host can tell (interface names, DNS)
};

/// One pg_hba.conf line (parse_hba_line).
struct HbaRule {
  size_t line_index = 0;  // into AuthConfig::hba_lines
  AuthOutcome outcome;
  HbaConnType type = HbaConnType::kLocal;
  std::vector<AuthToken> databases, roles;
  HbaAddressKind address_kind = HbaAddressKind::kNone;
  IpAddress addr, mask;    // kIp
  int prefix = -1;         // the mask's prefix length; -1 if it has holes
  std::string hostname;    // kHostName (a leading '.' matches a suffix)
  Range address_range;     // the address field (and the mask field when separate)
  std::string method;      // as pg_hba_file_rules prints it ("peer" for ident on local lines)
  Range method_range;
  std::vector<HbaOption> options;
  std::string clientcert;  // "verify-ca" / "verify-full" when set or implied by cert; else ""
  std::string usermap;     // map=
};

/// One pg_ident.conf line (parse_ident_line).
struct IdentMap {
  size_t line_index = 0;  // into AuthConfig::ident_lines
  AuthOutcome outcome;
  AuthToken map, system_user, pg_user;
};

/// Facts from outside the files that change how a line reads.
struct AuthParseOptions {
  int major = Catalog::DefaultMajor();
  /// `ssl` of postgresql.conf; unknown: hostssl rules are not judged.
  std::optional<bool> ssl;
  /// Whether the server's build has GSSAPI; unknown: it is assumed to have it.
  std::optional<bool> gssapi;
  /// --build-features: the build lacks ldap, pam and bsd unless it names
  /// them; unknown (nullopt): assumed to have them.
  std::optional<std::set<std::string>> build_features;
  /// The server's operating system ("linux", "windows", "openbsd"...):
  /// sspi exists only on Windows, bsd only on OpenBSD. Unknown: not judged.
  std::optional<std::string> os;
  /// `oauth_validator_libraries` of postgresql.conf (18); unknown: oauth
  /// rules are not judged against it.
  std::optional<std::string> oauth_validator_libraries;
};

/// What the server loads from pg_hba.conf and pg_ident.conf for one root.
struct AuthConfig {
  AuthParseOptions options;  // the facts the lines were parsed with
  int hba_file = -1, ident_file = -1;  // the two files (indices into Analysis::files); -1 if not read
  std::vector<AuthLine> hba_lines, ident_lines;  // includes expanded in place
  std::vector<HbaRule> hba;                      // one per hba line
  std::vector<IdentMap> ident;                   // one per ident line

  /// load_hba(): every line parsed and at least one rule.
  bool HbaLoads() const;
  /// load_ident(): every line parsed.
  bool IdentLoads() const;
  /// The rules the server uses, in order (empty when the file is refused).
  std::vector<const HbaRule*> LoadedRules() const;
};

/// parse_hba_line of `options.major` over one tokenized line.
HbaRule ParseHbaLine(const AuthLine& line, const AuthParseOptions& options);
/// parse_ident_line of `options.major` over one tokenized line.
IdentMap ParseIdentLine(const AuthLine& line, const AuthParseOptions& options);

/// SplitGUCList (varlena.c), which splits RADIUS option lists and, as
/// SplitDirectoriesString, library lists: items separated by `separator`,
/// blanks around them dropped, double quotes group (with "" for a quote); no
/// case folding. False on a syntax error (an empty unquoted item, a missing
/// quote).
bool SplitGucList(const std::string& text, char separator, std::vector<std::string>* items);

/// The connection-type keyword ("hostssl").
const char* HbaConnTypeName(HbaConnType type);

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_HBA_HBA_H_
