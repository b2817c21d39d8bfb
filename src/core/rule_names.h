// The names rule conditions may read, shared by the validation of rule files
// and by evaluation (RuleEnv::Lookup), so that a name that loads is a name
// that can have a value:
//
//   work_mem            a parameter of some supported major (its value, typed)
//   pg.major            the major being checked
//   profile.FACT        a fact of the machine profile (ProfileFacts())
//   effective.NAME      a derived value (DerivedValueNames()) or a parameter
//   running.PARAMETER   the running server's value (--running)
//   build.FACT          what the PostgreSQL build offers (BuildFacts())
//
// Parameter names come from the caller: the runtime takes them from the
// catalogs, the build-time generator (which cannot link the catalogs it
// generates) from knowledge/pg*.json.
#ifndef PGCONFLINT_CORE_RULE_NAMES_H_
#define PGCONFLINT_CORE_RULE_NAMES_H_

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace pgconflint {

enum class NameKind { kParameter, kPgMajor, kProfile, kEffective, kRunning, kBuild };

/// The kind of `name` by its prefix; *rest is the part after the prefix
/// ("profile.ram" -> kProfile, "ram"; "work_mem" -> kParameter, "work_mem").
NameKind ClassifyName(std::string_view name, std::string_view* rest);

/// The values EffectiveConfig::Derived computes, in name order. Each has a
/// value in some supported major (EffectiveConfig::DerivedNames filters by major).
std::span<const char* const> DerivedValueNames();
bool IsDerivedValueName(std::string_view name);

/// build.NAME: whether this build offers `value` among the values of the enum
/// parameter `parameter` (true), lists it as build-dependent (null: ask the
/// profile), or not at all (false).
struct BuildFact {
  const char* name;       // "io_uring"
  const char* parameter;  // "io_method"
  const char* value;      // "io_uring"
};
std::span<const BuildFact> BuildFacts();
/// Null if there is no such fact.
const BuildFact* FindBuildFact(std::string_view name);

/// Whether a rule may read `name`; false with *error ("unknown name
/// \"fsnyc\" (did you mean \"fsync\"?)"). REQUIRES: `parameters` holds the
/// lower-cased names of every supported major's parameters, sorted, unique.
bool CheckRuleName(std::string_view name, const std::vector<std::string>& parameters, std::string* error);

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_RULE_NAMES_H_
