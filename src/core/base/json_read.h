// Reading JSON the tool did not write (LSP messages, snapshots, server rows):
// nesting is bounded while parsing, and a number outside the target type is
// absent, never converted (a float out of an int's range is undefined
// behaviour; a large integer would wrap).
#ifndef PGCONFLINT_CORE_BASE_JSON_READ_H_
#define PGCONFLINT_CORE_BASE_JSON_READ_H_

#include <nlohmann/json.hpp>

#include <limits>
#include <optional>
#include <string>
#include <string_view>

#include "core/base/limits.h"

namespace pgconflint {

/// A document nested deeper than kMaxJsonDepth: a json exception like the
/// parser's own, so that the callers' handlers of bad JSON take it too.
class JsonTooDeep : public nlohmann::json::exception {
 public:
  JsonTooDeep() : exception(kId, Message().c_str()) {}
  static constexpr int kId = 900;  // outside the ids nlohmann's own exceptions use (1xx-5xx)

 private:
  // Appended in place: g++ 12 at -O3 reports a false -Warray-bounds on
  // `"literal" + std::to_string(...)` here when the file is built on its own
  // (scripts/test.sh --quick's tree has no unity batches).
  static std::string Message() {
    std::string message = "JSON nested deeper than ";
    message += std::to_string(kMaxJsonDepth);
    message += " levels";
    return message;
  }
};

/// `text` parsed as `Json` (nlohmann::json or ordered_json), refusing nesting
/// deeper than kMaxJsonDepth as it goes. The parser does not recurse per
/// level (its stack is on the heap), but copying, comparing and writing a
/// value do: an LSP message of a million nested brackets (2 MB) ended the
/// server with SIGSEGV.
/// Throws nlohmann::json::exception (JsonTooDeep included).
template <typename Json = nlohmann::json>
Json ParseJson(std::string_view text) {
  return Json::parse(text, [](int depth, typename Json::parse_event_t, Json&) {
    if (depth > kMaxJsonDepth) throw JsonTooDeep();
    return true;
  });
}

/// `v` as an int when it is a JSON integer within int's range; nullopt otherwise.
inline std::optional<int> JsonInt(const nlohmann::json& v) {
  if (v.is_number_unsigned()) {
    auto u = v.get<nlohmann::json::number_unsigned_t>();
    if (u <= static_cast<nlohmann::json::number_unsigned_t>(std::numeric_limits<int>::max())) return static_cast<int>(u);
    return std::nullopt;
  }
  if (v.is_number_integer()) {
    auto i = v.get<nlohmann::json::number_integer_t>();
    if (i >= std::numeric_limits<int>::min() && i <= std::numeric_limits<int>::max()) return static_cast<int>(i);
  }
  return std::nullopt;
}

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_BASE_JSON_READ_H_
