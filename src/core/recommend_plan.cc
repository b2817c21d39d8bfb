// The rollout plan. Steps are grouped by what applying them takes (a session
// SET, a reload, a restart: the parameter's context), and a setting capped by
// a restart-only parameter waits for that restart.
#include "core/recommend_plan.h"

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <sstream>
#include <vector>

#include "core/effective.h"
#include "core/sql_quote.h"
#include "core/value.h"

namespace pgconflint {
namespace {

struct Step {
  const Cell* cell;
  const Parameter* param;
  std::string now;  // the current value as the plan shows it
  std::string waits_for;  // a restart-only parameter that caps it ("" when its own context needs the restart)
};

struct Steps {
  std::vector<Step> session, reload, restart;
  bool empty() const { return session.empty() && reload.empty() && restart.empty(); }
};

// Whether the configured value is already acceptable: within the
// recommended range (never "raise everything"), or equal to it.
bool Acceptable(const Catalog& cat, const Parameter& p, const Cell& c, const std::optional<std::string>& now,
                const ParsedValue& want) {
  ExprValue cur = TypedValue(p, now.value_or(""));
  if (cur.kind != ExprValue::Kind::kNumber)
    return now && (*now == want.normalized || (!c.min.empty() && *now == c.min));
  auto as_num = [&](const std::string& v) -> std::optional<double> {
    if (v.empty()) return std::nullopt;
    ParsedValue pv = ParseValue(cat, p, v);
    if (!pv.ok()) return std::nullopt;
    return TypedValue(p, pv.normalized).number;
  };
  std::optional<double> lo = as_num(c.min), hi = as_num(c.max), target = as_num(c.value);
  double low = lo.value_or(target.value_or(0)), high = hi.value_or(target.value_or(0));
  if (cur.number >= std::min(low, high) && cur.number <= std::max(low, high)) return true;
  return c.parameter == "wal_buffers" && cur.number == -1;
}

void Consider(const Catalog& cat, const EffectiveConfig& eff, const Cell& c, Steps* steps) {
  const Parameter* p = cat.Find(c.parameter);
  if (!p) return;
  std::optional<std::string> now = eff.Configured(c.parameter);
  ParsedValue want = ParseValue(cat, *p, c.value);
  if (!want.ok() || Acceptable(cat, *p, c, now, want)) return;
  std::string shown = now.value_or("");
  if (p->type == VarType::kInteger && p->unit_kind != UnitKind::kNone) shown = FormatWithUnit(strtod(shown.c_str(), nullptr), *p);
  Step s{&c, p, shown, ""};
  if (p->context == Context::kPostmaster) steps->restart.push_back(s);
  else if (p->context == Context::kUser) steps->session.push_back(s);
  else steps->reload.push_back(s);
}

// A setting capped by a restart-only parameter that the plan raises only
// takes effect after that restart: move it there.
void WaitForCaps(Steps* steps) {
  static const std::pair<const char*, const char*> kCappedBy[] = {
      {"max_parallel_workers", "max_worker_processes"},
      {"max_parallel_workers_per_gather", "max_worker_processes"},
      {"max_parallel_maintenance_workers", "max_worker_processes"},
      {"autovacuum_max_workers", "autovacuum_worker_slots"},
      {"io_combine_limit", "io_max_combine_limit"},
  };
  auto in_restart = [&](const char* n) {
    return std::any_of(steps->restart.begin(), steps->restart.end(), [&](const Step& s) { return s.cell->parameter == n; });
  };
  for (auto* group : {&steps->session, &steps->reload}) {
    for (auto it = group->begin(); it != group->end();) {
      const char* capped_by = nullptr;
      for (const auto& [dep, cap] : kCappedBy)
        if (it->cell->parameter == dep && in_restart(cap)) capped_by = cap;
      if (capped_by) {
        it->waits_for = capped_by;
        steps->restart.push_back(*it);
        it = group->erase(it);
      } else {
        ++it;
      }
    }
  }
}

void List(const std::vector<Step>& v, std::ostream& o) {
  for (const Step& s : v) {
    o << "   " << s.param->name << ": " << s.now << " -> " << s.cell->value << "  (" << s.cell->why << ")";
    if (!s.waits_for.empty())
      o << "  [context " << ContextName(s.param->context) << ", but capped by " << s.waits_for
        << ", which needs the restart]";
    o << "\n";
  }
}

std::string NameList(const std::vector<Step>& v) {
  std::string n;
  for (const Step& s : v) n += (n.empty() ? "'" : ", '") + std::string(s.param->name) + "'";
  return n;
}

void WriteSteps(const Recommendation& r, const Steps& st, const char* h, std::ostream& o) {
  int step = 1;
  if (!st.session.empty()) {
    o << h << step++ << ". Try per session first (no server change), on the queries that matter:\n";
    List(st.session, o);
    o << "   SQL:\n";
    for (const Step& s : st.session) o << "     SET " << s.param->name << " = " << SettingValueText(s.param, s.cell->value) << ";\n";
    o << "   verify: EXPLAIN (ANALYZE, BUFFERS) of the query before and after, and a pg_stat_io snapshot:\n"
         "     SELECT backend_type, object, context, reads, read_bytes, read_time FROM pg_stat_io WHERE reads > 0;\n\n";
  }
  if (!r.tablespaces.empty()) {
    o << h << step++ << ". Per tablespace (takes effect for new queries, no reload):\n";
    for (const TablespaceAdvice& t : r.tablespaces) o << "     " << t.sql << "\n";
    o << "   verify: SELECT spcname, spcoptions FROM pg_tablespace;\n\n";
  }
  if (!st.session.empty() || !st.reload.empty()) {
    o << h << step++ << ". Make it permanent with a reload:\n";
    List(st.reload, o);
    for (const auto* v : {&st.session, &st.reload})
      for (const Step& s : *v) o << "     " << AlterSystemStatement(*s.param, s.cell->value) << "\n";
    o << "     SELECT pg_reload_conf();\n   verify: SELECT name, setting, unit, source FROM pg_settings WHERE name IN ("
      << NameList(st.session) << (st.session.empty() || st.reload.empty() ? "" : ", ") << NameList(st.reload) << ");\n\n";
  }
  if (!st.restart.empty()) {
    bool capped = std::any_of(st.restart.begin(), st.restart.end(), [](const Step& s) { return !s.waits_for.empty(); });
    o << h << step++ << ". In a restart window (context postmaster"
      << (capped ? ", and the settings capped by those" : "") << "):\n";
    List(st.restart, o);
    for (const Step& s : st.restart) o << "     " << AlterSystemStatement(*s.param, s.cell->value) << "\n";
    o << "   before the restart: SELECT name, pending_restart FROM pg_settings WHERE pending_restart;\n"
         "   restart (pg_ctl restart, or your service manager), then verify:\n";
    for (const Step& s : st.restart) o << "     SHOW " << s.param->name << ";\n";
    if (r.major >= 18)
      o << "     SELECT name, setting FROM pg_settings WHERE name IN ('io_max_concurrency', 'io_combine_limit', "
           "'io_max_combine_limit');  -- the effective values: `pgconflint show` explains them\n";
    o << "\n";
  }
}

}  // namespace

std::string RenderPlan(const Recommendation& r, const Analysis& current, bool md) {
  const Catalog& cat = *current.catalog;
  EffectiveConfig eff(current);
  Steps steps;
  for (const Cell& c : r.machine) Consider(cat, eff, c, &steps);
  if (r.selected >= 0)
    for (const Cell& c : r.matrix[r.selected].cells) Consider(cat, eff, c, &steps);
  for (const Cell& c : r.autovacuum) Consider(cat, eff, c, &steps);
  WaitForCaps(&steps);
  std::ostringstream o;
  const char* h = md ? "## " : "";
  o << h << "Rollout plan for " << current.root << " (" << RecommendationHeader(r) << ")\n\n";
  if (current.fatal())
    o << "First: PostgreSQL would refuse to start with this configuration; fix what `pgconflint check` reports "
         "as fatal before any step below.\n\n";
  if (steps.empty() && r.tablespaces.empty()) {
    o << "Every setting is already within the recommended range.\n";
    return o.str();
  }
  WriteSteps(r, steps, h, o);
  o << "Roll back any step by restoring its previous value (shown left of the arrow); measure each step before the next.\n";
  return o.str();
}

}  // namespace pgconflint
