// The one entry to toml++ for every TOML file pgconflint reads
// (.pgconflint.toml, rule files, knowledge/storage.toml). It turns the
// library's exceptions into "FILE:LINE: cause" errors and refuses, before the
// library sees them, the inputs on which toml++ 3.3 (Debian 12's
// libtomlplusplus-dev) has undefined behaviour.
#ifndef PGCONFLINT_CORE_BASE_TOML_READ_H_
#define PGCONFLINT_CORE_BASE_TOML_READ_H_

#include <string>
#include <string_view>

#include <toml++/toml.h>

namespace pgconflint {

/// Whether toml++ 3.3's whitespace test (is_non_ascii_horizontal_whitespace)
/// reaches its `unreachable` branch for code point `c`: U+00A1..U+0499 and
/// U+FB26..U+FEFE, except the ones it does classify.
bool TomlWhitespaceTestIsUndefined(char32_t c);

/// Where toml++ would run that test on such a code point: outside strings and
/// comments, after a backslash in a multi-line basic string, or first on the
/// line after a line-ending backslash. False with *error ("LINE:COLUMN:
/// cause", the column in code points) if the text has one; true otherwise (the text may still be invalid
/// TOML: toml++ says so).
bool CheckTomlText(std::string_view text, std::string* error);

/// Parses `text` (named `path` in errors) into *out; false with *error
/// ("PATH:LINE: cause") when it is not TOML pgconflint can read.
bool ParseToml(std::string_view text, const std::string& path, toml::table* out, std::string* error);

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_BASE_TOML_READ_H_
