// A unit in the wrong letter case ('2gb', '512mb', '10S'): the most common
// refused value. The server's units are case-sensitive ("Valid units for this
// parameter are ..."), so the value is refused; the same value with the
// unit spelled as the server spells it is the fix.
#ifndef PGCONFLINT_CORE_KNOWLEDGE_UNIT_SPELLING_H_
#define PGCONFLINT_CORE_KNOWLEDGE_UNIT_SPELLING_H_

#include <optional>
#include <string>
#include <string_view>

#include "core/base/host.h"
#include "core/knowledge/catalog.h"

namespace pgconflint {

/// `text`, a value of `param`, with its trailing unit spelled as the server
/// spells it when only the unit's letter case differs from one of
/// `param`'s units ('2gb' -> '2GB', '1MIN' -> '1min'); nullopt when there is
/// no unit, it is already spelled right, or no unit matches. The caller
/// checks that the server accepts the result.
std::optional<std::string> UnitCaseFixed(const Parameter& param, std::string_view text);

/// UnitCaseFixed when the server accepts the result (CheckValue), the fix a
/// finding about `text` offers; nullopt otherwise.
std::optional<std::string> AcceptedUnitCaseFix(const Catalog& catalog, const HostFacts& host, const Parameter& param,
                                               std::string_view text);

/// The help of a finding with that fix: "units are case-sensitive: write
/// '2GB' (" + the server's hint + ")".
std::string UnitCaseHelp(const std::string& fixed, const std::string& hint);

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_KNOWLEDGE_UNIT_SPELLING_H_
