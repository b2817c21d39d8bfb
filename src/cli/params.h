// Rendering of `pgconflint params`: the harvested catalog of one major, as
// text or JSON.
#ifndef PGCONFLINT_CLI_PARAMS_H_
#define PGCONFLINT_CLI_PARAMS_H_

#include <ostream>
#include <string>
#include <vector>

#include "core/knowledge/catalog.h"
#include "core/knowledge/extension_catalog.h"

namespace pgconflint {

/// Writes the catalog entries of `names` (all when empty; old names resolve
/// to their parameter) to `out`; unknown names are appended to `unknown`.
void RenderParams(const Catalog& catalog, const std::vector<std::string>& names, bool json, std::ostream& out,
                  std::vector<std::string>* unknown);

/// The same for the module parameters of `catalog` (`params --extensions`);
/// a name may be a parameter or a module.
void RenderExtensionParams(const ExtensionCatalog& catalog, const std::vector<std::string>& names, bool json,
                           std::ostream& out, std::vector<std::string>* unknown);

}  // namespace pgconflint

#endif  // PGCONFLINT_CLI_PARAMS_H_
