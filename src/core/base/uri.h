// Paths in URIs (RFC 3986): the one percent-encoder of file paths, shared by
// the SARIF report (artifact locations) and the editor server (file:// URIs).
#ifndef PGCONFLINT_CORE_BASE_URI_H_
#define PGCONFLINT_CORE_BASE_URI_H_

#include <string>
#include <string_view>

namespace pgconflint {

/// `path` with every byte outside RFC 3986's unreserved characters
/// (ALPHA, DIGIT, "-", ".", "_", "~") and "/" written as %XX (upper-case
/// hex): "a b/é" -> "a%20b/%C3%A9". Independent of the locale.
std::string PercentEncodePath(std::string_view path);

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_BASE_URI_H_
