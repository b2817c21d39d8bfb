// Facts about parameters that depend on the server's operating system, which
// the harvested catalogs (built and run on Linux) cannot show: boot values and
// upper limits that differ by platform. Each is taken from PostgreSQL's
// documentation or the server's own message on that platform, quoted in its
// `source`; the profile's --os says which platform the server runs on.
#ifndef PGCONFLINT_CORE_KNOWLEDGE_PLATFORM_H_
#define PGCONFLINT_CORE_KNOWLEDGE_PLATFORM_H_

#include <span>
#include <string_view>

#include "core/knowledge/catalog.h"
#include "core/knowledge/value.h"

namespace pgconflint {

struct PlatformFact {
  enum class Kind { kBootValue, kMaximum };
  const char* parameter;
  Kind kind;
  /// The operating systems it holds on, as --os names them: "windows", or
  /// "not-linux" for every one but Linux.
  const char* os;
  int first_major, last_major;  // the majors it holds for (inclusive)
  /// In pg_settings' terms: the boot_val, or the max_val in the parameter's
  /// unit ("16" for io_combine_limit is 16 blocks of 8kB).
  const char* value;
  const char* basis;   // where it comes from, in a few words ("PostgreSQL's documentation")
  const char* source;  // the same, quoted, with the address

  /// `value` as a number, in the parameter's unit.
  double number() const;
};

/// Every platform fact, in parameter order.
std::span<const PlatformFact> PlatformFacts();

/// The fact of `kind` for `param` on `os` in `major`, or null when the
/// harvested (Linux) catalog holds there.
const PlatformFact* FindPlatformFact(const Parameter& param, std::string_view os, int major, PlatformFact::Kind kind);

/// The boot value of `param` on `os`: the platform's where it differs, else
/// the catalog's.
std::string_view PlatformBootValue(const Parameter& param, std::string_view os, int major);

/// Refuses a value that the generic checks accepted but that lies above the
/// platform's maximum for `param` on `os`, with the server's wording.
/// REQUIRES: out->ok() (ParseValue accepted it).
void ApplyPlatformLimit(const Parameter& param, std::string_view os, int major, ParsedValue* out);

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_KNOWLEDGE_PLATFORM_H_
