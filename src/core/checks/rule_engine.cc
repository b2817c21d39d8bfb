// The rule engine. Declarative rules come first; custom evaluators are listed
// in kEvaluators, one function each. No rule reasons from a value the server
// would refuse: such a parameter reads as unknown (null), and so do the
// derived values and the memory model, which combine several parameters.
#include "core/checks/rule_engine.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <mutex>
#include <sstream>
#include <unordered_map>

#include "core/base/strings.h"
#include "core/rules/expr.h"
#include "core/model/finding_placement.h"
#include "core/model/memory_model.h"
#include "core/model/shared_memory.h"
#include "core/rules/rule_names.h"
#include "core/knowledge/value.h"

namespace pgconflint {
namespace {

bool StartsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// An anchor's guard ("effective_io_concurrency|effective_io_concurrency > 16"),
// compiled once per process.
const CompiledExpr* AnchorGuard(const std::string& text) {
  static std::mutex mu;
  static std::unordered_map<std::string, std::shared_ptr<const CompiledExpr>> cache;
  std::lock_guard<std::mutex> lock(mu);
  auto it = cache.find(text);
  if (it == cache.end()) {
    std::string error;
    it = cache.emplace(text, CompiledExpr::Parse(text, &error)).first;
  }
  return it->second.get();
}

// The first anchor, else parameter the condition reads, that a setting of
// the effective configuration's own scope decides.
const Setting* ScopedAnchor(const RuleInfo& rule, const CompiledExpr* cond, const EffectiveConfig& eff) {
  std::string_view anchors = rule.anchor;
  while (!anchors.empty()) {
    size_t nl = anchors.find('\n');
    std::string_view name = anchors.substr(0, std::min(nl, anchors.find('|')));
    anchors = nl == std::string_view::npos ? std::string_view() : anchors.substr(nl + 1);
    if (const Setting* s = eff.SettingFor(name); s && s->origin.scoped()) return s;
  }
  if (cond)
    for (const std::string& id : cond->identifiers()) {
      std::string_view n = id;
      if (StartsWith(n, "effective.")) n.remove_prefix(10);
      if (const Setting* s = eff.SettingFor(n); s && s->origin.scoped()) return s;
    }
  return nullptr;
}

// Where a rule's diagnostic goes: the deciding line of the first anchor
// parameter that a file sets and whose guard (after '|') holds; else of any
// parameter the condition reads; in a scope, a setting of the scope first.
// Null when no line sets any of them: then *about is the parameter the
// finding is about (the first anchor, else the first parameter the condition
// reads).
const Setting* FindAnchor(const RuleInfo& rule, const CompiledExpr* cond, const EffectiveConfig& eff,
                          const ExprEnv& env, std::string* about) {
  if (eff.scope())
    if (const Setting* s = ScopedAnchor(rule, cond, eff)) return s;
  std::string_view anchors = rule.anchor;
  while (!anchors.empty()) {
    size_t nl = anchors.find('\n');
    std::string_view a = anchors.substr(0, nl);
    anchors = nl == std::string_view::npos ? std::string_view() : anchors.substr(nl + 1);
    size_t bar = a.find('|');
    if (about->empty()) *about = std::string(a.substr(0, bar));
    const Setting* s = eff.SettingFor(a.substr(0, bar));
    if (!s) continue;
    if (bar != std::string_view::npos) {
      const CompiledExpr* guard = AnchorGuard(std::string(a.substr(bar + 1)));
      if (!guard || !guard->Eval(env).is_true()) continue;
    }
    return s;
  }
  if (cond)
    for (const std::string& id : cond->identifiers()) {
      std::string_view n = id;
      if (StartsWith(n, "effective.")) n.remove_prefix(10);
      if (about->empty() && eff.catalog().Find(n)) *about = std::string(n);
      if (const Setting* s = eff.SettingFor(n)) return s;
    }
  return nullptr;
}

// Adds a finding at `at`, or, when no line sets what it is about, a finding
// about `about`'s default: for a whole configuration, placed where a reader
// would set it, and as information (the defaults are untuned, not a mistake
// of the file). A user rule is never dropped: without a better place, it
// stands at the root's first line.
void EmitFinding(Analysis* a, const RuleInfo& rule, const Setting* at, std::string message, std::string help,
          std::string parameter, const std::string& about = "") {
  Location where;
  bool about_default = false;
  if (at) {
    where = {at->file, {at->name_range.begin, at->value_range.end}};
    if (parameter.empty()) parameter = at->param ? at->param->name : at->name;
  } else {
    // A fragment, or a tree with an include not read: its defaults are not known.
    if (a->files.empty() || ((!a->whole_configuration || a->incomplete_tree) && rule.builtin)) return;
    if (parameter.empty()) parameter = about;
    about_default = true;
    if (!a->whole_configuration || parameter.empty()) {
      // A user rule about a fragment, or about no parameter: the root's first line.
      Diagnostic d = MakeDiagnostic(rule, {0, {0, 0}}, std::move(message), std::move(help), std::move(parameter));
      a->diagnostics.push_back(std::move(d));
      return;
    }
    where = DefaultLocation(*a, parameter);
    if (!parameter.empty())
      message += where.range.begin == where.range.end
                     ? " (the default: no line of this configuration sets " + parameter + ")"
                     : " (the default: this line is commented out, and no other line sets " + parameter + ")";
  }
  Diagnostic d = MakeDiagnostic(rule, where, std::move(message), std::move(help), std::move(parameter));
  if (about_default && d.level == Severity::kWarning) d.level = Severity::kInfo;
  a->diagnostics.push_back(std::move(d));
}

// --- Custom evaluators ------------------------------------------------------

using Evaluator = void (*)(const RuleInfo&, const RuleEnv&, const EffectiveConfig&, const EngineOptions&,
                           Analysis*);

std::string Bytes(double b) { return ExprValue::Number(b, Dim::kBytes).Display(); }

// The settings an evaluator walks: every one for the cluster's
// configuration; in a scope only its own rows, as the cluster's run saw the
// rest (16,000 ALTER ROLE statements made every scope walk every setting).
template <typename F>
void ForSettings(const EffectiveConfig& eff, const Analysis& a, F f) {
  if (!eff.scope()) {
    for (const Setting& s : a.settings) f(s);
    return;
  }
  for (size_t i : eff.rows()) f(a.settings[i]);
}

// Worst-case memory (core/model/memory_model.h) against the profile's RAM, with the breakdown.
void MemoryOvercommit(const RuleInfo& rule, const RuleEnv& env, const EffectiveConfig& eff, const EngineOptions& o,
                      Analysis* a) {
  const Profile& p = *o.profile;
  if (!p.ram_bytes) return;
  for (const char* input : MemoryModelInputs())
    if (env.Refused(input)) return;
  MemoryModel model = MemoryModelOf(eff, p);
  double total = model.Total();
  double budget = MemoryBudget(p);
  if (total <= budget) return;
  std::ostringstream m;
  m << "worst-case memory " << Bytes(total) << " exceeds " << Bytes(budget) << " (RAM " << Bytes(*p.ram_bytes)
    << " less " << static_cast<int>(std::lround(Headroom(p) * 100)) << "% headroom): " << model.Breakdown();
  const char* anchors[] = {"work_mem", "max_connections", "shared_buffers", "maintenance_work_mem"};
  const Setting* at = nullptr;
  for (const char* n : anchors)
    if ((at = eff.SettingFor(n))) break;
  EmitFinding(a, rule, at, m.str(),
       "lower work_mem (set it per role or per query where big sorts need it), use a connection pooler to "
       "cap connections, or set --connections to the real concurrency",
       at ? std::string(at->param->name) : "work_mem");
}

// Postmaster-context parameters whose file value differs from what the
// running server uses (with --running), comparing resolved values where the
// file asks for an automatic one (wal_buffers = -1).
void RestartPending(const RuleInfo& rule, const EffectiveConfig& eff, const std::map<std::string, std::string>& running,
                    Analysis* a) {
  ForSettings(eff, *a, [&](const Setting& s) {
    if (!s.applied || !s.param || s.param->context != Context::kPostmaster || !s.value) return;
    if (&s != eff.SettingFor(s.param->name)) return;  // only the deciding line
    auto it = running.find(s.param->name);
    if (it == running.end() || it->second == *s.value) return;
    std::optional<DerivedValue> derived = eff.Derived(s.param->name);
    if (derived && *s.value == "-1" && TypedValue(*s.param, it->second).number == derived->value.number) return;
    EmitFinding(a, rule, &s,
         std::string(s.param->name) + " is " + ShownWithUnit(*s.param, *s.value) +
             " in the file but the running server uses " + ShownWithUnit(*s.param, it->second) +
             ": a reload will not apply it (context postmaster)",
         "schedule a restart; until then pg_settings.pending_restart is true", s.param->name);
  });
}

// Without running values: per postgresql.auto.conf, one finding listing the
// postmaster-context parameters ALTER SYSTEM wrote, which only a restart
// applies (whether one is pending cannot be known from the file).
void RestartNeededForAlterSystem(const RuleInfo& rule, const EffectiveConfig& eff, Analysis* a) {
  std::map<int, std::vector<const Setting*>> by_file;
  ForSettings(eff, *a, [&](const Setting& s) {
    if (s.applied && s.param && s.param->context == Context::kPostmaster && a->files[s.file].auto_conf &&
        &s == eff.SettingFor(s.param->name))
      by_file[s.file].push_back(&s);
  });
  for (const auto& [file, list] : by_file) {
    const std::string names = CommaList(list, [](const Setting* s) { return s->param->name; });
    std::string message =
        list.size() == 1 ? names + " was set with ALTER SYSTEM, but its context is postmaster: pg_reload_conf() does "
                                   "not apply it, only a restart does"
                         : std::to_string(list.size()) + " parameters set with ALTER SYSTEM have context postmaster (" +
                               names + "): pg_reload_conf() does not apply them, only a restart does";
    EmitFinding(a, rule, list[0], message,
         "if the server has not been restarted since, restart it; SELECT name FROM pg_settings WHERE pending_restart "
         "tells (or pass the running values with --running)",
         list[0]->param->name);
    Diagnostic& d = a->diagnostics.back();
    d.level = Severity::kInfo;
    for (size_t i = 1; i < list.size(); ++i)
      d.notes.push_back({{list[i]->file, {list[i]->name_range.begin, list[i]->value_range.end}},
                         std::string(list[i]->param->name) + " (context postmaster)"});
  }
}

void RestartRequired(const RuleInfo& rule, const RuleEnv&, const EffectiveConfig& eff, const EngineOptions& o,
                     Analysis* a) {
  if (o.running) RestartPending(rule, eff, *o.running, a);
  else RestartNeededForAlterSystem(rule, eff, a);
}

// enable_* planner methods turned off for every session.
void PlannerMethodDisabled(const RuleInfo& rule, const RuleEnv&, const EffectiveConfig& eff, const EngineOptions&,
                           Analysis* a) {
  ForSettings(eff, *a, [&](const Setting& s) {
    if (!s.applied || !s.param || s.param->type != VarType::kBool || !s.value || *s.value != "off") return;
    std::string_view name = s.param->name;
    if (!StartsWith(name, "enable_") || std::string_view(s.param->boot_val) != "on") return;
    if (&s != eff.SettingFor(name)) return;
    EmitFinding(a, rule, &s,
         std::string(name) + " is off for every session: the planner avoids these plans wherever another plan "
                             "exists, however much cheaper they would be (" + s.param->short_desc + ")",
         "remove it from the configuration; to compare plans, SET " + std::string(name) +
             " = off in one session, or per role or database where a workload needs it",
         std::string(name));
  });
}

// Enum values that exist only in builds with an optional library
// (io_method = io_uring, wal_compression = lz4...), against the build
// features the profile states.
void BuildDependentValue(const RuleInfo& rule, const RuleEnv&, const EffectiveConfig& eff, const EngineOptions& o,
                         Analysis* a) {
  const std::optional<std::set<std::string>>& features = o.profile->build_features;
  ForSettings(eff, *a, [&](const Setting& s) {
    if (s.ignored || !s.param || !s.value || s.param->type != VarType::kEnum) return;
    const BuildFeature* f = FeatureFor(s.param->name, *s.value);
    if (!f) return;
    std::string what = std::string(s.param->name) + " = " + *s.value + " needs a server built with " + f->name +
                       " (configure --with-" + f->name + ")";
    if (features && features->count(f->name)) return;
    if (features) {
      EmitFinding(a, rule, &s, what + ", and the profile says this build lacks it: PostgreSQL refuses to start",
           "use a value every build has, or a server built with " + std::string(f->name) +
               " (pg_config --configure lists the options it was built with)",
           s.param->name);
      a->diagnostics.back().Set(Outcome::kRefusesStart, Severity::kError);
    } else {
      EmitFinding(a, rule, &s, what + "; whether the server's build has it is not known (a build without it does not start)",
           "check the server's build (pg_config --configure), and state it with --build-features (e.g. lz4,zstd "
           "or none) to have this checked",
           s.param->name);
      a->diagnostics.back().Set(Outcome::kAdvisory, Severity::kInfo);
    }
  });
}

struct NamedEvaluator {
  const char* name;
  Evaluator fn;
};
constexpr NamedEvaluator kEvaluators[] = {
    {"build-dependent-value", BuildDependentValue},
    {"memory-overcommit", MemoryOvercommit},
    {"planner-method-disabled", PlannerMethodDisabled},
    {"restart-required", RestartRequired},
    // "recommendation" (PGC703) runs after the rules, above both this engine
    // and the recommender: core/checks/recommendation_hints.h.
};

}  // namespace

std::set<std::string> RuleEnv::RefusedParameters(const Analysis& a) {
  // A parameter whose applied line has a value the server refuses: the
  // server would not start, so nothing is reasoned from it.
  std::set<std::string> out;
  for (const Setting& s : a.settings)
    if (s.param && !s.ignored && !s.problem.empty()) out.insert(s.param->name);
  return out;
}

RuleEnv::RuleEnv(const EffectiveConfig& eff, const Profile& profile, const std::map<std::string, std::string>* running)
    : RuleEnv(eff, profile, running, RefusedParameters(eff.analysis())) {}

RuleEnv::RuleEnv(const EffectiveConfig& eff, const Profile& profile, const std::map<std::string, std::string>* running,
                 std::set<std::string> refused)
    : eff_(eff), profile_(profile), running_(running), refused_(std::move(refused)) {}

bool RuleEnv::IsSet(std::string_view name) const { return eff_.SettingFor(name) != nullptr; }

bool RuleEnv::Refused(std::string_view name) const {
  const Parameter* p = eff_.catalog().Find(name);
  return p && refused_.count(p->name);
}

// build.FACT: what the profile's --build-features say; else whether the
// catalog lists the value (true), lists it as depending on the build (null:
// the profile must say), or does not know it (false).
ExprValue RuleEnv::BuildOffers(const BuildFact& fact) const {
  const Parameter* p = eff_.catalog().Find(fact.parameter);
  if (!p) return ExprValue::Bool(false);
  for (const char* e : p->enumvals)
    if (std::string_view(e) == fact.value) return ExprValue::Bool(true);
  for (const char* e : p->build_dependent_enumvals)
    if (std::string_view(e) == fact.value) {
      const BuildFeature* f = FeatureFor(fact.parameter, fact.value);
      if (f && profile_.build_features) return ExprValue::Bool(profile_.build_features->count(f->name) > 0);
      return ExprValue::Null();
    }
  return ExprValue::Bool(false);
}

ExprValue RuleEnv::MemoryValue(std::string_view name) const {
  const bool shared = name == "shared_memory" || name == "huge_pages_needed";  // core/model/shared_memory.h
  for (const char* input : shared ? SharedMemoryInputs() : MemoryModelInputs())
    if (Refused(input)) return ExprValue::Null();
  if (shared) {
    std::optional<double> v = SharedMemoryFact(name, eff_, profile_);
    return v ? ExprValue::Number(*v, name == "shared_memory" ? Dim::kBytes : Dim::kNone) : ExprValue::Null();
  }
  MemoryModel m = MemoryModelOf(eff_, profile_);
  if (name == "worst_case") return ExprValue::Number(m.Total(), Dim::kBytes);
  if (name == "hash_worst_case") return ExprValue::Number(m.HashTotal(), Dim::kBytes);
  if (name == "backends") return ExprValue::Number(m.Backends());
  if (name == "nodes_per_query") return ExprValue::Number(m.nodes_per_query);
  if (name == "budget" && profile_.ram_bytes) return ExprValue::Number(MemoryBudget(profile_), Dim::kBytes);
  return ExprValue::Null();
}

ExprValue RuleEnv::Lookup(std::string_view name, bool* known) const {
  // The kinds of names and their tables are in core/rules/rule_names.h, shared with
  // the validation of rule files.
  *known = true;
  std::string_view rest;
  switch (ClassifyName(name, &rest)) {
    case NameKind::kPgMajor: return ExprValue::Number(eff_.catalog().major());
    case NameKind::kProfile:
      if (const ProfileFact* f = FindProfileFact(rest)) return f->value(profile_);
      break;
    case NameKind::kEffective:
      // Derived values combine several parameters: unknown when any is refused.
      if (!refused_.empty()) return ExprValue::Null();
      if (auto d = eff_.Derived(rest)) return d->value;
      return eff_.Typed(rest);
    case NameKind::kRunning: {
      const Parameter* param = eff_.catalog().Find(rest);
      if (!running_ || !param) return ExprValue::Null();
      auto it = running_->find(param->name);
      return it == running_->end() ? ExprValue::Null() : TypedValue(*param, it->second);
    }
    case NameKind::kBuild:
      if (const BuildFact* f = FindBuildFact(rest)) return BuildOffers(*f);
      break;
    case NameKind::kMemory: return MemoryValue(rest);
    case NameKind::kParameter:
      if (eff_.catalog().Find(name)) return Refused(name) ? ExprValue::Null() : eff_.Typed(name);
      *known = !MajorsWithParameter(name).empty();
      return ExprValue::Null();
  }
  *known = false;
  return ExprValue::Null();
}

namespace {

// Whether a declarative rule can have a finding that a scope's own rows
// cause: only at a row of the scope that decides one of its anchors or of the
// parameters its condition reads (KeepScoped keeps no other).
bool CanFireAtOwnRows(const RuleInfo& rule, const CompiledExpr& cond, const std::set<std::string>& own) {
  std::string_view anchors = rule.anchor;
  while (!anchors.empty()) {
    size_t nl = anchors.find('\n');
    std::string_view name = anchors.substr(0, std::min(nl, anchors.find('|')));
    anchors = nl == std::string_view::npos ? std::string_view() : anchors.substr(nl + 1);
    if (own.count(AsciiLower(name))) return true;
  }
  for (const std::string& id : cond.identifiers()) {
    std::string_view n = id;
    if (StartsWith(n, "effective.")) n.remove_prefix(10);
    if (own.count(AsciiLower(n))) return true;
  }
  return false;
}

// `own`: in a scope, the lower-cased parameters its own rows set; null for
// the cluster's configuration.
void RunRulesWith(const EngineOptions& o, const EffectiveConfig& eff, const std::set<std::string>& refused,
                  const std::set<std::string>* own, Analysis* a) {
  RuleEnv env(eff, *o.profile, o.running, refused);
  const int major = a->catalog->major();
  for (const RuleInfo* rule : o.rules->rules()) {
    if (!rule->versions.Contains(major)) continue;
    if (rule->evaluator[0]) {
      for (const NamedEvaluator& e : kEvaluators)
        if (strcmp(e.name, rule->evaluator) == 0) e.fn(*rule, env, eff, o, a);
      continue;
    }
    const CompiledExpr* cond = o.rules->Condition(rule);
    if (!cond || (own && !CanFireAtOwnRows(*rule, *cond, *own)) || !cond->Eval(env).is_true()) continue;
    std::string about;
    const Setting* at = FindAnchor(*rule, cond, eff, env, &about);
    EmitFinding(a, *rule, at, ExpandTemplate(rule->message, env), ExpandTemplate(rule->help, env), "", about);
  }
}

// Where a finding stands, for telling the same finding twice apart.
using FindingPlace = std::tuple<const RuleInfo*, int, uint32_t>;

// Keeps the findings added since `first` that a setting of `scope` itself
// causes (at one of `own`, its own rows' positions), once each (`reported`
// holds those of the configuration and the scopes before), their message
// prefixed with the scope.
void KeepScoped(const Scope& scope, size_t first, const std::set<std::pair<int, uint32_t>>& own,
                std::set<FindingPlace>* reported, Analysis* a) {
  std::vector<Diagnostic> kept;
  for (size_t i = first; i < a->diagnostics.size(); ++i) {
    Diagnostic& d = a->diagnostics[i];
    if (!own.count({d.file, d.range.begin}) || !reported->insert({d.rule, d.file, d.range.begin}).second) continue;
    d.message = "for " + scope.Describe() + ": " + d.message;
    kept.push_back(std::move(d));
  }
  a->diagnostics.resize(first);
  for (Diagnostic& d : kept) a->diagnostics.push_back(std::move(d));
}

}  // namespace

void RunRules(const EngineOptions& o, Analysis* a) {
  if (a->failure != Analysis::Failure::kNone || !a->catalog || a->files.empty()) return;
  const size_t first = a->diagnostics.size();
  const std::set<std::string> refused = RuleEnv::RefusedParameters(*a);
  RunRulesWith(o, EffectiveConfig(*a), refused, nullptr, a);
  if (!o.report_defaults) {
    // No setting caused these: they are about defaults the input does not hold.
    // A user rule's finding stays: it is never dropped.
    auto unanchored = [](const Diagnostic& d) {
      return d.rule->builtin && d.file == 0 && d.range.begin == 0 && d.range.end == 0;
    };
    a->diagnostics.erase(std::remove_if(a->diagnostics.begin() + static_cast<long>(first), a->diagnostics.end(),
                                        unanchored),
                         a->diagnostics.end());
  }
  // The pg_db_role_setting rows by their exact scope, indexed once: a scope's
  // rows are those of its own, of its role, of its database and of every session.
  std::map<std::pair<std::string, std::string>, std::vector<size_t>> by_scope;
  for (size_t i = 0; i < a->settings.size(); ++i)
    if (a->settings[i].origin.scoped())
      by_scope[{a->settings[i].origin.database, a->settings[i].origin.role}].push_back(i);
  if (by_scope.empty()) return;
  std::set<FindingPlace> reported;
  for (const Diagnostic& d : a->diagnostics) reported.insert({d.rule, d.file, d.range.begin});
  for (const auto& [key, own_rows] : by_scope) {
    const Scope scope{key.first, key.second};
    std::vector<size_t> rows;
    for (const auto& k : {key, std::make_pair(std::string(), key.second), std::make_pair(key.first, std::string()),
                          std::make_pair(std::string(), std::string())}) {
      auto it = by_scope.find(k);
      if (it != by_scope.end()) rows.insert(rows.end(), it->second.begin(), it->second.end());
    }
    std::sort(rows.begin(), rows.end());
    rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
    std::set<std::string> own;
    std::set<std::pair<int, uint32_t>> own_places;
    for (size_t i : own_rows) {
      const Setting& s = a->settings[i];
      own.insert(AsciiLower(s.param ? std::string_view(s.param->name) : std::string_view(s.name)));
      own_places.insert({s.file, s.name_range.begin});
    }
    // A database whose default tablespace has a storage in the profile is
    // checked against that storage.
    EngineOptions so = o;
    Profile profile;
    auto ts = a->database_tablespaces.find(scope.database);
    if (ts != a->database_tablespaces.end() && o.profile->tablespaces.count(ts->second)) {
      profile = *o.profile;
      profile.storage = o.profile->tablespaces.at(ts->second);
      so.profile = &profile;
    }
    const size_t before = a->diagnostics.size();
    RunRulesWith(so, EffectiveConfig(*a, scope, rows), refused, &own, a);
    KeepScoped(scope, before, own_places, &reported, a);
  }
}

}  // namespace pgconflint
