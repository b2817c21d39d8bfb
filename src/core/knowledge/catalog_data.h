// Declarations of the tables that pgconflint_embed generates (knowledge_data.cc).
#ifndef PGCONFLINT_CORE_KNOWLEDGE_CATALOG_DATA_H_
#define PGCONFLINT_CORE_KNOWLEDGE_CATALOG_DATA_H_

#include <cstddef>

#include "core/knowledge/catalog.h"

namespace pgconflint::generated {
extern const Catalog kCatalogs[];   // one per supported major, in the order of kSupportedMajors
extern const size_t kCatalogCount;
extern const int kSupportedMajors[];  // knowledge/majors.json: ascending, kCatalogCount of them
extern const int kDefaultMajor;
}  // namespace pgconflint::generated

#endif  // PGCONFLINT_CORE_KNOWLEDGE_CATALOG_DATA_H_
