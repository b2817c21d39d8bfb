// What editors show for pg_hba.conf and pg_ident.conf, as data: the words
// each field accepts (connection types, keywords, methods, options, per
// major) with a description in our own words, and the hover text and
// completion candidates at a byte offset of a parsed file. The editor server
// only converts positions and wraps these in LSP messages.
#ifndef PGCONFLINT_CORE_HBA_HBA_DOCS_H_
#define PGCONFLINT_CORE_HBA_HBA_DOCS_H_

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/model/analysis.h"
#include "core/hba/hba.h"

namespace pgconflint {

enum class AuthWordKind : uint8_t {
  kConnectionType,   // local, host, hostssl...
  kDatabaseKeyword,  // all, sameuser, samerole, samegroup, replication
  kUserKeyword,      // all
  kAddressKeyword,   // all, samehost, samenet
  kMethod,           // trust, scram-sha-256...
  kOption,           // map, clientcert... (name=value after the method)
  kInclude,          // include, include_if_exists, include_dir (16+)
};

struct AuthWord {
  const char* word;
  AuthWordKind kind;
  const char* text;  // one or two sentences
  int since = 14;    // first major that knows it
  /// Options: the methods that take it ("" = any); methods: unused.
  const char* methods = "";
};

/// Every word of the vocabulary, in a stable order.
std::span<const AuthWord> AuthVocabulary();

/// The meaning of the field at `index` of a line (0-based), by file kind:
/// "connection type", "database", ..., for hover.
std::string AuthFieldName(AuthFileKind kind, const HbaRule* rule, const AuthLine* line, size_t index);

struct AuthHover {
  Range range;           // the token hovered
  std::string markdown;  // what it is and means
};
/// Hover at byte `offset` of file `file` of `a` (a pg_hba.conf or
/// pg_ident.conf, its includes or @files); nullopt outside a token.
std::optional<AuthHover> DescribeAuthPosition(const Analysis& a, int file, uint32_t offset);

struct AuthCompletion {
  std::string label;   // what to insert
  std::string detail;  // a short description
};
/// The names a running server has (the editor's live mode), for completion.
struct AuthNames {
  std::string server;                  // its label, for the descriptions
  std::vector<std::string> databases;  // those that allow connections
  struct Role {
    std::string name;
    bool login = false;  // else a group role, matched as +name
  };
  std::vector<Role> roles;
};

/// Candidates at byte `offset` of file `file`: by the field the offset is
/// in: connection types, keywords, methods, the options of the line's
/// method, and after `map=` the maps pg_ident.conf defines. With `names`,
/// also the server's databases in the database field, its roles in the user
/// field (a group role as +name, which matches its members) and its login
/// roles in pg_ident.conf's PostgreSQL user name field.
std::vector<AuthCompletion> CompleteAuthPosition(const Analysis& a, int file, uint32_t offset,
                                                 const AuthNames* names = nullptr);

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_HBA_HBA_DOCS_H_
