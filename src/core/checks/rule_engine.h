// Evaluates declarative rules (a `when` condition over the effective
// configuration and the machine profile) and the few custom evaluators whose
// logic cannot be said as data, appending their diagnostics to an analysis.
#ifndef PGCONFLINT_CORE_CHECKS_RULE_ENGINE_H_
#define PGCONFLINT_CORE_CHECKS_RULE_ENGINE_H_

#include <map>
#include <set>
#include <string>

#include "core/model/analysis.h"
#include "core/model/effective.h"
#include "core/rules/profile.h"
#include "core/rules/rule_names.h"
#include "core/rules/rules.h"

namespace pgconflint {

struct EngineOptions {
  const RuleSet* rules = nullptr;   // REQUIRES: non-null
  const Profile* profile = nullptr; // REQUIRES: non-null
  /// Values a running server reports (pg_settings.setting by name), when known.
  const std::map<std::string, std::string>* running = nullptr;
  /// Quote `recommend` for settings outside the recommended range (PGC703).
  bool recommendation_hints = true;
  /// Report a finding that no setting of the input causes (the defaults are
  /// at fault) at the start of the root file. False for inputs that hold
  /// only part of a configuration (a SQL script): such findings are dropped.
  bool report_defaults = true;
};

/// Runs every rule that applies to the analysis' major: over the cluster's
/// configuration, then over each database/role scope that pg_db_role_setting
/// rows set (keeping the findings those rows cause, their message prefixed
/// with the scope). Does nothing for a root that could not be read.
void RunRules(const EngineOptions& options, Analysis* analysis);

/// The expression environment over one analysis (exposed for `show` and tests).
class RuleEnv : public ExprEnv {
 public:
  /// Keeps references to `eff` and `profile`: both must outlive it.
  RuleEnv(const EffectiveConfig& eff, const Profile& profile,
          const std::map<std::string, std::string>* running);
  RuleEnv(const EffectiveConfig& eff, Profile&& temporary, const std::map<std::string, std::string>* running) = delete;
  /// The same with the refused parameters computed once (RefusedParameters).
  RuleEnv(const EffectiveConfig& eff, const Profile& profile, const std::map<std::string, std::string>* running,
          std::set<std::string> refused);
  /// The parameters whose applied line has a value the server refuses.
  static std::set<std::string> RefusedParameters(const Analysis& a);
  ExprValue Lookup(std::string_view name, bool* known) const override;
  bool IsSet(std::string_view name) const override;
  /// Whether the server would refuse the value of parameter `name` (its
  /// applied line is invalid): rules read it, and what derives from it, as
  /// unknown.
  bool Refused(std::string_view name) const;

 private:
  ExprValue BuildOffers(const BuildFact& fact) const;
  ExprValue MemoryValue(std::string_view name) const;

  const EffectiveConfig& eff_;
  const Profile& profile_;
  const std::map<std::string, std::string>* running_;
  std::set<std::string> refused_;  // canonical parameter names
};

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_CHECKS_RULE_ENGINE_H_
