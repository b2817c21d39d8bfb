// Rendering a recommendation: a terminal table, markdown, versioned JSON, a
// postgresql.conf fragment and an ALTER SYSTEM script.
#ifndef PGCONFLINT_CORE_ADVICE_RECOMMEND_RENDER_H_
#define PGCONFLINT_CORE_ADVICE_RECOMMEND_RENDER_H_

#include <string>

#include "core/advice/recommend.h"

namespace pgconflint {

enum class RecommendFormat { kTable, kMarkdown, kJson, kConf, kSql };

/// Renders the recommendation. `all` prints every storage row; otherwise the
/// profile's storage (all rows when the profile names none).
std::string RenderRecommendation(const Recommendation& r, RecommendFormat format, bool all);

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_ADVICE_RECOMMEND_RENDER_H_
