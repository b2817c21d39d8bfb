// The rule engine. Declarative rules come first; custom evaluators are listed
// in kEvaluators, one function each.
#include "core/rule_engine.h"

#include <cmath>
#include <mutex>
#include <unordered_map>
#include <cstring>
#include <sstream>

#include "core/expr.h"
#include "core/memory_model.h"
#include "core/rule_names.h"
#include "core/value.h"

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

// Where a rule's diagnostic goes: the deciding line of the first anchor
// parameter that a file sets and whose guard (after '|') holds; else of any
// parameter the condition reads.
const Setting* FindAnchor(const RuleInfo& rule, const CompiledExpr* cond, const EffectiveConfig& eff,
                          const ExprEnv& env) {
  std::string_view anchors = rule.anchor;
  while (!anchors.empty()) {
    size_t nl = anchors.find('\n');
    std::string_view a = anchors.substr(0, nl);
    anchors = nl == std::string_view::npos ? std::string_view() : anchors.substr(nl + 1);
    size_t bar = a.find('|');
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
      if (const Setting* s = eff.SettingFor(n)) return s;
    }
  return nullptr;
}

void Emit(Analysis* a, const RuleInfo& rule, const Setting* at, std::string message, std::string help,
          std::string parameter) {
  Location where;
  if (at) {
    where = {at->file, {at->name_range.begin, at->value_range.end}};
    if (parameter.empty()) parameter = at->param ? at->param->name : at->name;
  } else if (!a->files.empty()) {
    where = {0, {0, 0}};  // no line sets the parameters: the defaults are at fault, report at the root file
  }
  a->diagnostics.push_back(MakeDiagnostic(rule, where, std::move(message), std::move(help), std::move(parameter)));
}

// --- Custom evaluators ------------------------------------------------------

using Evaluator = void (*)(const RuleInfo&, const RuleEnv&, const EffectiveConfig&, const EngineOptions&,
                           Analysis*);

std::string Bytes(double b) { return ExprValue::Number(b, Dim::kBytes).Display(); }

// Worst-case memory (core/memory_model.h) against the profile's RAM, with the breakdown.
void MemoryOvercommit(const RuleInfo& rule, const RuleEnv&, const EffectiveConfig& eff,
                      const EngineOptions& o, Analysis* a) {
  const Profile& p = *o.profile;
  if (!p.ram_bytes) return;
  MemoryModel model = MemoryModelOf(eff, p);
  double total = model.Total();
  double budget = MemoryBudget(p);
  if (total <= budget) return;
  std::ostringstream m;
  m << "worst-case memory " << Bytes(total) << " exceeds " << Bytes(budget) << " (RAM " << Bytes(*p.ram_bytes)
    << " less " << static_cast<int>(std::lround(p.headroom * 100)) << "% headroom): " << model.Breakdown();
  const char* anchors[] = {"work_mem", "max_connections", "shared_buffers", "maintenance_work_mem"};
  const Setting* at = nullptr;
  for (const char* n : anchors)
    if ((at = eff.SettingFor(n))) break;
  Emit(a, rule, at, m.str(),
       "lower work_mem (set it per role or per query where big sorts need it), use a connection pooler to "
       "cap connections, or set --connections to the real concurrency",
       "work_mem");
}

// Postmaster-context parameters set through ALTER SYSTEM (postgresql.auto.conf),
// or differing from what the running server reports, need a restart.
void RestartRequired(const RuleInfo& rule, const RuleEnv&, const EffectiveConfig& eff, const EngineOptions& o,
                     Analysis* a) {
  for (const Setting& s : a->settings) {
    if (!s.applied || !s.param || s.param->context != Context::kPostmaster) continue;
    if (&s != eff.SettingFor(s.param->name)) continue;  // only the deciding line
    if (o.running) {
      auto it = o.running->find(s.param->name);
      if (it == o.running->end() || !s.value || it->second == *s.value) continue;
      Emit(a, rule, &s,
           std::string(s.param->name) + " is " + FormatWithUnit(strtod(s.value->c_str(), nullptr), *s.param) +
               " in the file but the running server uses " + it->second +
               ": a reload will not apply it (context postmaster)",
           "schedule a restart; until then pg_settings.pending_restart is true", s.param->name);
    } else if (a->files[s.file].auto_conf) {
      Emit(a, rule, &s,
           std::string(s.param->name) + " was set with ALTER SYSTEM but its context is postmaster: "
               "pg_reload_conf() does not apply it",
           "restart the server, then check SELECT name, setting, pending_restart FROM pg_settings WHERE "
           "pending_restart",
           s.param->name);
    }
  }
}

struct NamedEvaluator {
  const char* name;
  Evaluator fn;
};
constexpr NamedEvaluator kEvaluators[] = {
    {"memory-overcommit", MemoryOvercommit},
    {"restart-required", RestartRequired},
    // "recommendation" (PGC703) runs after the rules, above both this engine
    // and the recommender: core/recommendation_hints.h.
};

// build.FACT: the build lists the value (true), lists it as depending on the
// build (null: the profile must say), or does not know it (false).
ExprValue BuildOffers(const Catalog& catalog, const BuildFact& fact) {
  const Parameter* p = catalog.Find(fact.parameter);
  if (!p) return ExprValue::Bool(false);
  for (const char* e : p->enumvals)
    if (std::string_view(e) == fact.value) return ExprValue::Bool(true);
  for (const char* e : p->build_dependent_enumvals)
    if (std::string_view(e) == fact.value) return ExprValue::Null();
  return ExprValue::Bool(false);
}

}  // namespace

RuleEnv::RuleEnv(const EffectiveConfig& eff, const Profile& profile, const std::map<std::string, std::string>* running)
    : eff_(eff), profile_(profile), running_(running) {}

bool RuleEnv::IsSet(std::string_view name) const { return eff_.SettingFor(name) != nullptr; }

ExprValue RuleEnv::Lookup(std::string_view name, bool* known) const {
  // The kinds of names and their tables are in core/rule_names.h, shared with
  // the validation of rule files.
  *known = true;
  std::string_view rest;
  switch (ClassifyName(name, &rest)) {
    case NameKind::kPgMajor: return ExprValue::Number(eff_.catalog().major());
    case NameKind::kProfile:
      if (const ProfileFact* f = FindProfileFact(rest)) return f->value(profile_);
      break;
    case NameKind::kEffective:
      if (auto d = eff_.Derived(rest)) return d->value;
      return eff_.Typed(rest);
    case NameKind::kRunning: {
      const Parameter* param = eff_.catalog().Find(rest);
      if (!running_ || !param) return ExprValue::Null();
      auto it = running_->find(param->name);
      return it == running_->end() ? ExprValue::Null() : TypedValue(*param, it->second);
    }
    case NameKind::kBuild:
      if (const BuildFact* f = FindBuildFact(rest)) return BuildOffers(eff_.catalog(), *f);
      break;
    case NameKind::kParameter:
      if (eff_.catalog().Find(name)) return eff_.Typed(name);
      *known = !MajorsWithParameter(name).empty();
      return ExprValue::Null();
  }
  *known = false;
  return ExprValue::Null();
}

void RunRules(const EngineOptions& o, Analysis* a) {
  if (a->failure != Analysis::Failure::kNone || !a->catalog || a->files.empty()) return;
  EffectiveConfig eff(*a);
  RuleEnv env(eff, *o.profile, o.running);
  const int major = a->catalog->major();
  for (const RuleInfo* rule : o.rules->rules()) {
    if (major < rule->min_major || major > rule->max_major) continue;
    if (rule->evaluator[0]) {
      for (const NamedEvaluator& e : kEvaluators)
        if (strcmp(e.name, rule->evaluator) == 0) e.fn(*rule, env, eff, o, a);
      continue;
    }
    const CompiledExpr* cond = o.rules->Condition(rule);
    if (!cond || !cond->Eval(env).is_true()) continue;
    const Setting* at = FindAnchor(*rule, cond, eff, env);
    Emit(a, *rule, at, ExpandTemplate(rule->message, env), ExpandTemplate(rule->help, env), "");
  }
}

}  // namespace pgconflint
