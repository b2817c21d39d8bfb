// Declarations of the tables that pgconflint_embed generates (knowledge_data.cc).
#ifndef PGCONFLINT_CORE_CATALOG_DATA_H_
#define PGCONFLINT_CORE_CATALOG_DATA_H_

#include <cstddef>

#include "core/catalog.h"

namespace pgconflint::generated {
extern const Catalog kCatalogs[];
extern const size_t kCatalogCount;
}  // namespace pgconflint::generated

#endif  // PGCONFLINT_CORE_CATALOG_DATA_H_
