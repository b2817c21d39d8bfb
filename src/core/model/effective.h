// The effective-configuration model: what the server really uses, from the
// configured values (the last applied setting, else the boot value) and the
// values PostgreSQL derives from them (io_max_concurrency = -1, wal_buffers
// = -1, io_combine_limit capped by io_max_combine_limit, the vacuum ring cap,
// the parallel worker ceilings...). Formulas follow the server
// (docs/postgresql-semantics.md#derived-values) and are held to running servers
// by tests/integration/test_server_claims.py.
#ifndef PGCONFLINT_CORE_MODEL_EFFECTIVE_H_
#define PGCONFLINT_CORE_MODEL_EFFECTIVE_H_

#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/model/analysis.h"
#include "core/rules/expr.h"
#include "core/rules/profile.h"

namespace pgconflint {

/// A derived value with how it was computed, for messages and `show`.
struct DerivedValue {
  ExprValue value;
  std::string explanation;  // e.g. "min(64, 16384 buffers / (MaxBackends 136 + 38))"
};

class EffectiveConfig {
 public:
  /// The cluster's configuration. REQUIRES: analysis.catalog non-null;
  /// `analysis` outlives this object.
  explicit EffectiveConfig(const Analysis& analysis);
  /// What sessions of `scope` start with: the pg_db_role_setting rows that
  /// apply to them over the cluster's configuration. As at connection, a row
  /// for the database and the role wins over one for the role, then the
  /// database, then every session (ALTER ROLE ALL).
  EffectiveConfig(const Analysis& analysis, const Scope& scope);
  /// The same from the rows that may apply to `scope` (indices into
  /// analysis.settings, in reading order): what a caller that looks at many
  /// scopes indexed once (RunRules), instead of a scan per scope.
  EffectiveConfig(const Analysis& analysis, const Scope& scope, const std::vector<size_t>& rows);

  const Catalog& catalog() const { return *analysis_.catalog; }
  /// The machine profile host-dependent derived values read (the huge page
  /// size of shared_memory_size_in_huge_pages); null: its defaults.
  /// REQUIRES: `profile` outlives this object.
  void set_profile(const Profile* profile) { profile_ = profile; }
  const Profile* profile() const { return profile_; }
  const Analysis& analysis() const { return analysis_; }
  /// The scope, or null for the cluster's configuration.
  const Scope* scope() const { return scoped_ ? &scope_ : nullptr; }
  /// In a scope: the indices of the settings of its own rows (the
  /// pg_db_role_setting rows that apply to it), in reading order.
  const std::vector<size_t>& rows() const { return rows_; }

  /// The setting that decides `name`, or null when it keeps its boot value.
  const Setting* SettingFor(std::string_view name) const;
  /// The configured value as `postgres -C` prints it; nullopt if the name is unknown.
  std::optional<std::string> Configured(std::string_view name) const;
  /// The configured value typed for expressions: memory in bytes, time in ms.
  ExprValue Typed(std::string_view name) const;
  /// A derived value (see DerivedNames), or nullopt when `name` is not derived
  /// in this major.
  std::optional<DerivedValue> Derived(std::string_view name) const;
  /// The derived value of parameter `name` when the server uses another value
  /// than the configured one (io_max_concurrency = -1 -> 64, io_combine_limit
  /// capped by io_max_combine_limit), else nullopt: as configured, not
  /// derived, or not a parameter of this major.
  std::optional<DerivedValue> Adjusted(std::string_view name) const;
  /// Names for which Derived() has a value in this major, in name order (from
  /// DerivedValueNames(), core/rules/rule_names.h).
  std::vector<std::string> DerivedNames() const;

 private:
  const Analysis& analysis_;
  const Profile* profile_ = nullptr;
  bool scoped_ = false;
  Scope scope_;
  std::unordered_map<std::string, std::pair<int, size_t>> by_scope_;  // lower name -> (precedence, setting)
  std::vector<size_t> rows_;
  void AddRow(size_t i);
};

/// NUM_AUXILIARY_PROCS of `major`: the auxiliary processes' slots beside
/// MaxBackends (what the 18 derivations and the shared memory model use;
/// known from 18).
int AuxiliaryProcesses(int major);

/// The typed value of `param` for configured text `value` (as -C prints it).
ExprValue TypedValue(const Parameter& param, const std::string& value);

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_MODEL_EFFECTIVE_H_
