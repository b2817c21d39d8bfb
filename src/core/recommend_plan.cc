// The rollout plan: the settings outside the recommended range, as a rollout
// (core/rollout.h: grouped by what applying them takes, capped settings
// waiting for the restart that raises their cap) applied with ALTER SYSTEM.
#include "core/recommend_plan.h"

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <sstream>
#include <vector>

#include "core/effective.h"
#include "core/rollout.h"
#include "core/value.h"

namespace pgconflint {
namespace {

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

void Consider(const Catalog& cat, const EffectiveConfig& eff, const Cell& c, Rollout* rollout) {
  const Parameter* p = cat.Find(c.parameter);
  if (!p) return;
  std::optional<std::string> now = eff.Configured(c.parameter);
  ParsedValue want = ParseValue(cat, *p, c.value);
  if (!want.ok() || Acceptable(cat, *p, c, now, want)) return;
  std::string shown = now.value_or("");
  if (p->type == VarType::kInteger && p->unit_kind != UnitKind::kNone) shown = FormatWithUnit(strtod(shown.c_str(), nullptr), *p);
  AddRolloutStep({p, shown, c.value, c.why, ""}, RolloutSource::kAlterSystem, rollout);
}

}  // namespace

std::string RenderPlan(const Recommendation& r, const Analysis& current, bool md) {
  const Catalog& cat = *current.catalog;
  EffectiveConfig eff(current);
  Rollout steps;
  for (const Cell& c : r.machine) Consider(cat, eff, c, &steps);
  if (r.selected >= 0)
    for (const Cell& c : r.matrix[r.selected].cells) Consider(cat, eff, c, &steps);
  for (const Cell& c : r.autovacuum) Consider(cat, eff, c, &steps);
  for (const TablespaceAdvice& t : r.tablespaces) steps.tablespace_sql.push_back(t.sql);
  WaitForCaps(&steps);
  std::ostringstream o;
  const char* h = md ? "## " : "";
  o << h << "Rollout plan for " << current.root << " (" << RecommendationHeader(r) << ")\n\n";
  if (current.fatal())
    o << "First: PostgreSQL would refuse to start with this configuration; fix what `pgconflint check` reports "
         "as fatal before any step below.\n\n";
  if (steps.empty()) {
    o << "Every setting is already within the recommended range.\n";
    return o.str();
  }
  WriteRollout(steps, r.major, RolloutSource::kAlterSystem, h, o);
  o << "Roll back any step by restoring its previous value (shown left of the arrow); measure each step before the next.\n";
  return o.str();
}

}  // namespace pgconflint
