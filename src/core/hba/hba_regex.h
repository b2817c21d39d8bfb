// Syntax check of the regular expressions pg_hba.conf (database and user
// fields, 16+) and pg_ident.conf (system user, and in 16+ the database user)
// accept after a '/': PostgreSQL compiles them as advanced regular
// expressions (AREs, Henry Spencer's engine) and refuses the line with
// `invalid regular expression "<re>": <reason>`. This checker reproduces the
// engine's refusals for the syntax it sees (balance, quantifiers, bounds,
// brackets, classes, escapes, back references, embedded options); the
// differential suite (tests/integration/test_hba_differential.py) holds it
// to the real servers.
#ifndef PGCONFLINT_CORE_HBA_HBA_REGEX_H_
#define PGCONFLINT_CORE_HBA_HBA_REGEX_H_

#include <string>
#include <string_view>

namespace pgconflint {

/// True when PostgreSQL's regex engine compiles `pattern` (the text after
/// the '/') with REG_ADVANCED. False with *reason set to the engine's error
/// text (regerrs.h), e.g. "parentheses () not balanced".
bool CheckAdvancedRegex(std::string_view pattern, std::string* reason);

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_HBA_HBA_REGEX_H_
