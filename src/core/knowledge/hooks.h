// Per-parameter checks that a real server applies after the generic type and
// range checks (its check hooks): SLRU buffer multiples, io_max_concurrency 0,
// vacuum_buffer_usage_limit, PG18 log_connections, list syntax, locales, ...
// Each mirrors observed server behaviour; the differential suite
// (tests/integration/differential.py) holds them to the real servers.
#ifndef PGCONFLINT_CORE_KNOWLEDGE_HOOKS_H_
#define PGCONFLINT_CORE_KNOWLEDGE_HOOKS_H_

#include <string>
#include <vector>

#include "core/knowledge/catalog.h"
#include "core/base/host.h"
#include "core/knowledge/value.h"

namespace pgconflint {

/// Parses `value` for `param` as the server does: the generic checks of
/// ParseValue, then the parameter's check hook. Hooks that depend on the
/// host (locales, time zones, the stack limit) ask `host`.
ParsedValue CheckValue(const Catalog& catalog, const HostFacts& host, const Parameter& param, std::string_view value);

/// Runs the check hook of `param`, if it has one; may refuse the value, change
/// `out->normalized`, or mark it adjusted/host-dependent.
/// REQUIRES: out->ok() (the generic checks passed).
void ApplyCheckHook(const Catalog& catalog, const HostFacts& host, const Parameter& param, const std::string& text,
                    ParsedValue* out);

/// SplitIdentifierString: a separator-delimited list of identifiers, double
/// quotes group, unquoted items are lower-cased. False on a syntax error.
bool SplitIdentifierList(const std::string& text, char separator, std::vector<std::string>* items);

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_KNOWLEDGE_HOOKS_H_
