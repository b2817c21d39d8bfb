// The built-in knowledge about PostgreSQL parameters, one catalog per major.
//
// Everything here is generated at build time from knowledge/pg<major>.json,
// which scripts/harvest_knowledge.py harvests from real servers. Nothing in
// this file is typed by hand; this header only gives it a typed shape.
#ifndef PGCONFLINT_CORE_KNOWLEDGE_CATALOG_H_
#define PGCONFLINT_CORE_KNOWLEDGE_CATALOG_H_

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace pgconflint {

enum class VarType : uint8_t { kBool, kInteger, kReal, kString, kEnum };

/// The GUC contexts, in PostgreSQL's order (lower = harder to change).
enum class Context : uint8_t {
  kInternal, kPostmaster, kSighup, kSuperuserBackend, kBackend, kSuperuser, kUser
};

/// The kind of a parameter's base unit; the amount is in Parameter::unit_bytes
/// (memory) or unit_ms (time).
enum class UnitKind : uint8_t { kNone, kMemory, kTime };

/// An accepted enum spelling that pg_settings does not list.
struct HiddenEnumValue {
  const char* spelling;   // lower-case
  const char* canonical;  // what `postgres -C` prints for it
};

/// One parameter of one major, as harvested. Strings are never null ("" when
/// pg_settings has NULL, with the matching has_* flag false).
struct Parameter {
  const char* name;  // pg_settings spelling, e.g. "DateStyle"
  VarType type;
  Context context;
  const char* unit;  // pg_settings.unit: "kB", "8kB", "ms", ... or ""
  UnitKind unit_kind;
  double unit_amount;  // bytes per base unit (memory) or ms per base unit (time)
  const char* category;
  const char* short_desc;
  const char* extra_desc;
  const char* min_val;  // pg_settings strings; "" when none
  const char* max_val;
  double min;           // parsed min_val/max_val (integer and real types)
  double max;
  std::span<const char* const> enumvals;
  std::span<const HiddenEnumValue> hidden_enumvals;
  std::span<const char* const> build_dependent_enumvals;
  std::span<const HiddenEnumValue> enumval_output;  // listed values that -C prints differently
  std::span<const char* const> list_keywords;  // keyword lists: the keywords the server accepts (lower-case)
  bool file_value_ignored;     // a value in a file is accepted and has no effect
  // Values the server refuses although type and range allow them (the boot
  // value of lc_messages, `on` for default_with_oids): the value as -C prints
  // it -> the server's message.
  std::span<const HiddenEnumValue> refused_values;
  const char* boot_val;
  bool has_boot_val;
  bool in_pg_settings;
  bool list_input;
  bool file_accepted;          // does `name = '<boot>'` in a file pass `postgres -C`?
  const char* file_message;    // the server's message when it does not
  bool alter_system_accepted;  // does ALTER SYSTEM accept it?
  const char* alter_system_message;
  uint32_t majors;  // in which majors the name exists: bit i for Catalog::SupportedMajors()[i]
};

struct Alias {
  const char* old_name;
  const char* new_name;
};

struct BuildInfo {
  int block_size;        // bytes
  int wal_block_size;    // bytes
  int64_t wal_segment_size;  // bytes
  int max_identifier_length;
  std::span<const HiddenEnumValue> encodings;  // cleaned encoding name -> canonical name
  std::span<const char* const> timezone_sets;  // accepted timezone_abbreviations values
};

/// The knowledge of one PostgreSQL major. Immutable, thread-safe.
class Catalog {
 public:
  /// The catalog for `major`, or null when there is none (see SupportedMajors).
  static const Catalog* ForMajor(int major);
  /// The majors with a catalog, ascending, and the one assumed when nothing
  /// says which: knowledge/majors.json (generated).
  static std::span<const int> SupportedMajors();
  static int DefaultMajor();

  int major() const { return major_; }
  const char* server_version() const { return server_version_; }
  const char* package() const { return package_; }
  const BuildInfo& build() const { return build_; }
  std::span<const Parameter> parameters() const { return parameters_; }
  std::span<const Alias> aliases() const { return aliases_; }

  /// Case-insensitive (ASCII folding, as guc_name_compare) lookup; null if unknown.
  const Parameter* Find(std::string_view name) const;
  /// Resolves an old name (sort_mem) to its parameter's name, or null.
  const char* AliasTarget(std::string_view name) const;
  /// The parameter by any name the server accepts: its own (Find) or an
  /// old one (sort_mem); null if unknown.
  const Parameter* FindAnyName(std::string_view name) const;

  /// Up to `limit` known names closest to `name` (for "did you mean").
  std::vector<std::string> Suggest(std::string_view name, size_t limit = 1) const;

  /// `hash`: open-addressing table of 1-based parameter indices by the FNV-1a
  /// hash of the lower-cased name (generated).
  constexpr Catalog(int major, const char* server_version, const char* package, BuildInfo build,
                    std::span<const Parameter> parameters, std::span<const Alias> aliases,
                    std::span<const uint16_t> hash)
      : major_(major), server_version_(server_version), package_(package), build_(build),
        parameters_(parameters), aliases_(aliases), hash_(hash) {}

 private:
  int major_;
  const char* server_version_;
  const char* package_;
  BuildInfo build_;
  std::span<const Parameter> parameters_;  // sorted by lower-cased name
  std::span<const Alias> aliases_;
  std::span<const uint16_t> hash_;
};

/// Whether a file can set `p` at all (false for read-only parameters: the
/// harvested refusal of its boot value says "cannot be changed").
bool SettableInFile(const Parameter& p);
/// Whether ALTER SYSTEM can set `p` at all (its refusal of the boot value
/// may be the value's: lc_messages = '').
bool SettableByAlterSystem(const Parameter& p);
/// The server's message when it refuses `value` (as -C prints it) for `p`
/// although the type and range allow it; null when it accepts it.
const char* RefusedValueMessage(const Parameter& p, std::string_view value);

/// The majors of `p.majors` (its bit per supported major), in order.
std::vector<int> MajorsOf(const Parameter& p);

/// The supported majors for a message: "14..18" when they follow each other
/// (`range` between the first and the last), else "14, 16, 18".
std::string SupportedMajorsText(std::string_view range = "..");

/// The majors (as a list) in which a parameter named `name` exists, any spelling.
std::vector<int> MajorsWithParameter(std::string_view name);

std::string_view VarTypeName(VarType type);
std::string_view ContextName(Context context);

/// ASCII lower-casing, as PostgreSQL folds parameter names.
std::string AsciiLower(std::string_view s);

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_KNOWLEDGE_CATALOG_H_
