// The findings about parsed pg_hba.conf and pg_ident.conf (rules/hba.toml):
// what the server refuses (PGC831-PGC833), and what it accepts that is wrong
// (PGC834-PGC843), judged with facts from postgresql.conf and the profile.
// Also the matching logic the shadowing checks use, exposed for tests and
// the editor server.
#ifndef PGCONFLINT_CORE_HBA_HBA_CHECKS_H_
#define PGCONFLINT_CORE_HBA_HBA_CHECKS_H_

#include <optional>
#include <string>

#include "core/model/analysis.h"
#include "core/hba/hba.h"

namespace pgconflint {

/// Facts from outside the two files.
struct AuthFacts {
  std::optional<bool> ssl;          // postgresql.conf's ssl (effective)
  const Setting* ssl_setting = nullptr;  // the line that sets it, if any
  std::string password_encryption;  // effective value ("scram-sha-256", "md5"); "" unknown
  const Setting* password_encryption_setting = nullptr;
  std::optional<bool> gssapi;       // the profile's gssapi fact
};

/// Adds the findings about `auth` to `a` (whose files hold the lines).
void CheckAuthConfig(const AuthConfig& auth, const AuthFacts& facts, Analysis* a);

/// True when every connection `later` matches is matched by `earlier` too,
/// judged from the file alone (keywords, +groups and regular expressions
/// are equal only to themselves).
bool HbaRuleCovers(const HbaRule& earlier, const HbaRule& later);
/// True when some connection certainly matches both rules.
bool HbaRulesOverlap(const HbaRule& a, const HbaRule& b);

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_HBA_HBA_CHECKS_H_
