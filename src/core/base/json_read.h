// Reading numbers from JSON the tool did not write (snapshots, server rows):
// a value outside the target type is absent, never converted (a float out of
// an int's range is undefined behaviour; a large integer would wrap).
#ifndef PGCONFLINT_CORE_BASE_JSON_READ_H_
#define PGCONFLINT_CORE_BASE_JSON_READ_H_

#include <nlohmann/json.hpp>

#include <limits>
#include <optional>

namespace pgconflint {

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
