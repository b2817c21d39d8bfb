#include "core/knowledge/unit_spelling.h"

#include <strings.h>

#include "core/base/quantity.h"
#include "core/knowledge/hooks.h"
#include "core/knowledge/value.h"

namespace pgconflint {

std::optional<std::string> UnitCaseFixed(const Parameter& param, std::string_view text) {
  size_t end = text.size();
  while (end > 0 && (text[end - 1] == ' ' || text[end - 1] == '\t')) --end;
  size_t begin = end;
  while (begin > 0 && ((text[begin - 1] >= 'a' && text[begin - 1] <= 'z') ||
                       (text[begin - 1] >= 'A' && text[begin - 1] <= 'Z')))
    --begin;
  if (begin == end || begin == 0) return std::nullopt;
  const std::string unit(text.substr(begin, end - begin));
  const Unit* match = nullptr;
  for (const Unit& u : UnitsOf(UnitDim(param))) {
    if (unit == u.name) return std::nullopt;  // spelled right: something else is wrong
    if (strcasecmp(unit.c_str(), u.name) == 0) match = &u;
  }
  if (!match) return std::nullopt;
  return std::string(text.substr(0, begin)) + match->name + std::string(text.substr(end));
}

std::optional<std::string> AcceptedUnitCaseFix(const Catalog& catalog, const HostFacts& host, const Parameter& param,
                                               std::string_view text) {
  std::optional<std::string> fixed = UnitCaseFixed(param, text);
  if (!fixed || !CheckValue(catalog, host, param, *fixed).ok()) return std::nullopt;
  return fixed;
}

std::string UnitCaseHelp(const std::string& fixed, const std::string& hint) {
  return "units are case-sensitive: write '" + fixed + "' (" + hint + ")";
}

}  // namespace pgconflint
