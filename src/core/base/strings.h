// Small text pieces every layer words its messages with: how a message
// quotes a name or value, plural nouns, blank trimming, ASCII character
// classes. One definition each, so the messages stay alike.
#ifndef PGCONFLINT_CORE_BASE_STRINGS_H_
#define PGCONFLINT_CORE_BASE_STRINGS_H_

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <type_traits>

namespace pgconflint {

/// `s` in double quotes, as the server's messages quote names and values
/// (nothing inside is escaped).
inline std::string DoubleQuoted(std::string_view s) { return "\"" + std::string(s) + "\""; }

/// `s` with each line break written as \n or \r: a name or path that holds
/// one stays on its line (a `--` or `#` comment it is printed in cannot be
/// ended by it, and no line of a report can be forged with it).
inline std::string OneLine(std::string_view s) {
  std::string out;
  for (char c : s) out += c == '\n' ? "\\n" : c == '\r' ? "\\r" : std::string(1, c);
  return out;
}

/// "1 file", "2 files".
inline std::string Plural(size_t n, const char* word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

/// The items joined by ", " ("14, 15, 16"; "" for none): `text` gives an
/// item's text (a string, a C string, a string_view or a number), the item
/// itself by default.
template <typename Items, typename Text = std::identity>
std::string CommaList(const Items& items, Text text = {}) {
  std::string out;
  bool first = true;
  for (const auto& item : items) {
    if (!first) out += ", ";
    first = false;
    if constexpr (std::is_arithmetic_v<std::remove_cvref_t<decltype(text(item))>>) out += std::to_string(text(item));
    else out += text(item);
  }
  return out;
}

/// A space, tab or carriage return (a line's blanks).
inline bool IsBlank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

inline bool IsAsciiDigit(char c) { return c >= '0' && c <= '9'; }

/// `s` without its leading and trailing blanks (IsBlank).
inline std::string_view TrimBlanks(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && IsBlank(s[b])) ++b;
  while (e > b && IsBlank(s[e - 1])) --e;
  return s.substr(b, e - b);
}

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_BASE_STRINGS_H_
