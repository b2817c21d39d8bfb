// The rollout plan: the settings outside the recommended range, as a rollout
// (core/advice/rollout.h: grouped by what applying them takes, capped settings
// waiting for the restart that raises their cap) applied with ALTER SYSTEM.
#include "core/advice/recommend_plan.h"

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <sstream>
#include <vector>

#include "core/model/effective.h"
#include "core/advice/rollout.h"
#include "core/knowledge/storage_facts.h"
#include "core/knowledge/value.h"
#include "core/base/escape.h"
#include "core/base/strings.h"

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

// The option `option` of tablespace `name` as the input leaves it; null when unset.
const TablespaceSetting* CurrentOption(const Analysis& a, const std::string& name, const std::string& option) {
  const TablespaceSetting* found = nullptr;
  for (const TablespaceSetting& t : a.tablespace_settings)
    if (t.tablespace == name && t.option == option) found = &t;
  return found;
}

// Whether an option's current value already lies in the cell's range (or
// equals its single value).
bool OptionAcceptable(const Cell& c, const std::string& now) {
  char* end = nullptr;
  const double v = strtod(now.c_str(), &end);
  if (end == now.c_str() || *end) return now == c.value;
  const double lo = strtod((c.min.empty() ? c.value : c.min).c_str(), nullptr);
  const double hi = strtod((c.max.empty() ? c.value : c.max).c_str(), nullptr);
  return v >= std::min(lo, hi) && v <= std::max(lo, hi);
}

// "script.sql:12" for where the input names a tablespace; "" when no line does.
std::string WhereNamed(const Analysis& a, const TablespaceRef& t) {
  if (t.file < 0 || t.file >= static_cast<int>(a.files.size())) return "";
  const SourceFile& f = a.files[t.file].source;
  return f.path() + ":" + std::to_string(f.LineOf(t.range.begin));
}

// The tablespaces: each one with a storage type (--tablespace NAME=STORAGE)
// gets the options of its storage row the input does not already set within
// range; the input's tablespaces without one are listed in *notes.
void PlanTablespaces(const Recommendation& r, const Analysis& current, Rollout* steps,
                     std::vector<std::string>* notes) {
  auto named = [&](const std::string& name) {
    return std::find_if(current.tablespaces.begin(), current.tablespaces.end(),
                        [&](const TablespaceRef& t) { return t.name == name; });
  };
  for (const TablespaceAdvice& t : r.tablespaces) {
    if (!current.tablespaces.empty() && named(t.name) == current.tablespaces.end())
      notes->push_back("tablespace " + OneLine(t.name) + " (--tablespace) is not in " + OneLine(current.root) +
                       ": check its name; its statement is in the plan regardless");
    std::vector<const Cell*> lacking;
    for (const Cell& c : t.options) {
      const TablespaceSetting* now = CurrentOption(current, t.name, c.parameter);
      if (!now || !OptionAcceptable(c, now->value)) lacking.push_back(&c);
    }
    if (!lacking.empty())
      steps->tablespace_sql.push_back(TablespaceStatement(t.name, lacking) + "  -- " + StorageName(t.storage));
  }
  std::string missing;
  size_t count = 0;
  for (const TablespaceRef& t : current.tablespaces) {
    if (r.profile.tablespaces.count(t.name)) continue;
    std::string where = WhereNamed(current, t);
    missing += std::string(count++ ? ", " : "") + OneLine(t.name) + (where.empty() ? "" : " (" + OneLine(where) + ")");
  }
  if (count) {
    std::string storages;
    for (Storage s : Storage::All()) storages += (storages.empty() ? "" : "|") + StorageName(s);
    notes->push_back(std::string("no storage type for tablespace") + (count == 1 ? "" : "s") + " " + missing +
                     ": give --tablespace NAME=" + storages + " for each to plan its options");
  }
}

}  // namespace

void KeepConfiguredConnections(const Analysis& current, Profile* profile) {
  EffectiveConfig eff(current);
  std::optional<std::string> v = eff.Configured("max_connections");
  if (!eff.SettingFor("max_connections") || !v) return;
  const int clients = std::atoi(v->c_str()) - ReservedSlots(*current.catalog);
  if (clients > 0) profile->configured_connections = clients;
}

std::string RenderPlan(const Recommendation& r, const Analysis& current, bool md) {
  const Catalog& cat = *current.catalog;
  EffectiveConfig eff(current);
  Rollout steps;
  for (const Cell& c : r.machine) Consider(cat, eff, c, &steps);
  if (r.selected >= 0)
    for (const Cell& c : r.matrix[r.selected].cells) Consider(cat, eff, c, &steps);
  for (const Cell& c : r.autovacuum) Consider(cat, eff, c, &steps);
  std::vector<std::string> notes;
  PlanTablespaces(r, current, &steps, &notes);
  WaitForCaps(&steps);
  std::ostringstream o;
  const std::string root = OneLine(current.root);
  o << (md ? "## " : "") << "Rollout plan for " << (md ? MarkdownEscape(root) : root) << " (" << RecommendationHeader(r)
    << ")\n\n";
  if (current.fatal())
    o << "First: PostgreSQL would refuse to start with this configuration; fix what `pgconflint check` reports "
         "as fatal before any step below.\n\n";
  for (const std::string& a : r.assumptions) o << (md ? "- Assumption: " + MarkdownEscape(a) : "Assumption: " + a) << "\n";
  for (const std::string& n : notes) o << (md ? "- " + MarkdownEscape(n) : "Note: " + n) << "\n";
  if (!notes.empty() || !r.assumptions.empty()) o << "\n";
  if (steps.empty()) {
    o << "Every setting is already within the recommended range.\n";
    return o.str();
  }
  WriteRollout(steps, r.major, RolloutSource::kAlterSystem, {.markdown = md, .heading_level = 3}, o);
  o << "Roll back any step by restoring its previous value (shown left of the arrow); measure each step before the next.\n";
  return o.str();
}

}  // namespace pgconflint
