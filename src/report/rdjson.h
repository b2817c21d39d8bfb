// reviewdog's Diagnostic message, shared by the `rdjson` (one document) and
// `rdjsonl` (one diagnostic per line) formats.
#ifndef PGCONFLINT_REPORT_RDJSON_H_
#define PGCONFLINT_REPORT_RDJSON_H_

#include <nlohmann/json.hpp>
#include <string>

#include "core/model/analysis.h"

namespace pgconflint {

/// One reviewdog Diagnostic for `d`: columns in UTF-8 bytes, paths relative to
/// `base` (empty: display paths), safe fixes as suggestions, notes as related
/// locations.
nlohmann::ordered_json RdjsonDiagnostic(const Analysis& a, const Diagnostic& d, const std::string& base);

/// How both formats write invalid UTF-8: replaced, never thrown.
constexpr auto kRdjsonReplace = nlohmann::json::error_handler_t::replace;

}  // namespace pgconflint

#endif  // PGCONFLINT_REPORT_RDJSON_H_
