// The names rule conditions may read, shared by the validation of rule files
// and by evaluation (RuleEnv::Lookup), so that a name that loads is a name
// that can have a value:
//
//   work_mem            a parameter of some supported major (its value, typed)
//   pg.major            the major being checked
//   profile.FACT        a fact of the machine profile (ProfileFactNames())
//   effective.NAME      a derived value (DerivedValueNames()) or a parameter
//   running.PARAMETER   the running server's value (--running)
//   build.FACT          what the PostgreSQL build offers (BuildFacts())
//   memory.NAME         the worst-case memory model (MemoryModelNames())
//
// Parameter names come from the caller: the runtime takes them from the
// catalogs, the build-time generator (which cannot link the catalogs it
// generates) from knowledge/pg*.json.
#ifndef PGCONFLINT_CORE_RULES_RULE_NAMES_H_
#define PGCONFLINT_CORE_RULES_RULE_NAMES_H_

#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace pgconflint {

enum class NameKind { kParameter, kPgMajor, kProfile, kEffective, kRunning, kBuild, kMemory };

/// The kind of `name` by its prefix; *rest is the part after the prefix
/// ("profile.ram" -> kProfile, "ram"; "work_mem" -> kParameter, "work_mem").
NameKind ClassifyName(std::string_view name, std::string_view* rest);

/// The machine-profile facts rules may read as profile.NAME, in name order;
/// profile.cc gives each its value (FindProfileFact).
std::span<const char* const> ProfileFactNames();

/// The values EffectiveConfig::Derived computes, in name order. Each has a
/// value in some supported major (EffectiveConfig::DerivedNames filters by major).
std::span<const char* const> DerivedValueNames();
bool IsDerivedValueName(std::string_view name);

/// memory.NAME: the worst-case memory model of core/model/memory_model.h under the
/// profile (budget is null without the profile's RAM), in name order.
std::span<const char* const> MemoryModelNames();

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

/// The parameters rules may read (of every supported major), as the caller
/// knows them.
class ParameterNames {
 public:
  virtual ~ParameterNames() = default;
  /// Whether `name` (in any case) is a parameter.
  virtual bool Has(std::string_view name) const = 0;
  /// Calls `fn` with every name (for suggestions; repeats are harmless).
  virtual void ForEach(const std::function<void(std::string_view)>& fn) const = 0;
};

/// ParameterNames over a list of names (the build-time generator's).
class ListedParameterNames : public ParameterNames {
 public:
  explicit ListedParameterNames(std::vector<std::string> names);  // any case, any order
  bool Has(std::string_view name) const override;
  void ForEach(const std::function<void(std::string_view)>& fn) const override;

 private:
  std::vector<std::string> names_;  // lower-cased, sorted, unique
};

/// Whether a rule may read `name`; false with *error ("unknown name
/// \"fsnyc\" (did you mean \"fsync\"?)").
bool CheckRuleName(std::string_view name, const ParameterNames& parameters, std::string* error);

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_RULES_RULE_NAMES_H_
