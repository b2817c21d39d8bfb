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
#include "core/advice/recommend_tables.h"
#include "core/advice/rollout.h"
#include "core/knowledge/storage_facts.h"
#include "core/knowledge/value.h"
#include "core/base/file_system.h"
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

void Consider(const Analysis& a, const EffectiveConfig& eff, const Cell& c, RolloutSource source, Rollout* rollout,
              std::vector<std::string>* notes) {
  const Catalog& cat = *a.catalog;
  const Parameter* p = cat.Find(c.parameter);
  if (!p) return;
  std::optional<std::string> now = eff.Configured(c.parameter);
  ParsedValue want = ParseValue(cat, *p, c.value);
  if (!want.ok() || Acceptable(cat, *p, c, now, want)) return;
  std::string shown = now.value_or("");
  if (p->type == VarType::kInteger && p->unit_kind != UnitKind::kNone) shown = FormatWithUnit(strtod(shown.c_str(), nullptr), *p);
  // A value the configuration sets, lowered: said where it is set.
  const Setting* set = eff.SettingFor(c.parameter);
  ExprValue before = TypedValue(*p, now.value_or("")), after = TypedValue(*p, want.normalized);
  if (set && set->file >= 0 && before.kind == ExprValue::Kind::kNumber && after.kind == ExprValue::Kind::kNumber &&
      after.number < before.number)
    notes->push_back("lowers " + std::string(p->name) + " from the " + OneLine(shown) + " that " +
                     OneLine(a.files[set->file].source.path()) + ":" + std::to_string(set->line) +
                     " sets to the recommended " + OneLine(c.value) + "; keep the configured value if it was measured");
  AddRolloutStep({p, shown, c.value, c.why, ""}, source, rollout);
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

// The settings outside the recommended range as rollout steps, and the
// notes about tablespaces.
Rollout PlanSteps(const Recommendation& r, const Analysis& current, RolloutSource source,
                  const std::vector<SnapshotTable>* tables, std::vector<std::string>* notes) {
  EffectiveConfig eff(current);
  Rollout steps;
  for (const Cell& c : r.machine) Consider(current, eff, c, source, &steps, notes);
  if (r.selected >= 0)
    for (const Cell& c : r.matrix[r.selected].cells) Consider(current, eff, c, source, &steps, notes);
  for (const Cell& c : r.autovacuum) Consider(current, eff, c, source, &steps, notes);
  PlanTablespaces(r, current, &steps, notes);
  if (tables) {
    for (const TableAdvice& t : AdviseTables(r, current, *tables, notes))
      steps.table_sql.push_back(t.sql + "  -- " + OneLine(t.table) + ": " + OneLine(t.why));
    if (steps.table_sql.empty())
      notes->push_back("per-table autovacuum: none of the " + std::to_string(tables->size()) +
                       " largest tables of the database needs its own settings (pg_stat_user_tables)");
  }
  WaitForCaps(&steps);
  return steps;
}

// Where a fragment wins: the file to write it as, how it is read, and which
// settings are read after it.
struct FragmentPlace {
  std::string file;  // the display path to write
  std::string how;   // why it is read after the configuration's other lines
  std::vector<const Setting*> after;  // settings the server reads after the fragment
};

// The root configuration file of `a` (not postgresql.auto.conf); -1 for none.
int RootConfFile(const Analysis& a) {
  for (size_t i = 0; i < a.files.size(); ++i)
    if (a.files[i].included_from.file < 0 && !a.files[i].auto_conf && a.files[i].kind == FileKind::kConf)
      return static_cast<int>(i);
  return -1;
}

// The last include_dir of the root file: a file in that directory that sorts
// after the others is read last but for the lines after the directive and
// postgresql.auto.conf. Without one, the end of the root file.
FragmentPlace PlaceFragment(const Analysis& a) {
  FragmentPlace place;
  const int root = RootConfFile(a);
  uint32_t dir_line = 0;
  std::string dir_abs, dir_written;
  if (root >= 0) {
    const LoadedFile& f = a.files[root];
    for (const SettingLine& l : f.parsed.settings)
      if (AsciiLower(f.source.Slice(l.name)) == "include_dir") {
        dir_line = l.line;
        dir_written = l.value_text;
        dir_abs = dir_written.empty() || dir_written[0] == '/'
                      ? dir_written
                      : CanonicalizePath(ParentDirectory(f.abs_path) + "/" + dir_written);
      }
  }
  // The line (in the root) that brings each setting in: its own, or its include's.
  auto root_line = [&](const Setting& s) -> std::optional<uint32_t> {
    int file = s.file;
    uint32_t line = s.line;
    while (file >= 0 && file != root) {
      line = a.files[file].included_from.line;
      file = a.files[file].included_from.file;
    }
    if (file != root) return std::nullopt;
    return line;
  };
  for (const Setting& s : a.settings) {
    if (!s.param || !s.origin.cluster_wide() || s.file < 0) continue;
    std::optional<uint32_t> line = root_line(s);
    const bool later = a.files[s.file].auto_conf || (dir_line && line && *line > dir_line);
    if (later) place.after.push_back(&s);
  }
  if (root < 0) {
    place.file = "postgresql.conf";
    place.how = "append it to the end of postgresql.conf, whose last lines win";
    return place;
  }
  const std::string root_shown = a.files[root].source.path();
  if (!dir_line) {
    place.file = root_shown;
    place.how = "append it to the end of " + root_shown + ", whose last lines win";
    return place;
  }
  // Named to sort after every file already in the directory (byte order).
  std::string last;
  for (const LoadedFile& f : a.files)
    if (ParentDirectory(f.abs_path) == dir_abs) last = std::max(last, f.abs_path.substr(dir_abs.size() + 1));
  std::string name = "99-pgconflint.conf";
  if (last >= name) name = "zz-pgconflint.conf";
  if (last >= name) name = "~" + last;
  const std::string root_dir = ParentDirectory(root_shown);
  const std::string shown_dir = dir_written.empty() || dir_written[0] == '/' || root_dir.empty() || root_dir == "."
                                    ? dir_written
                                    : root_dir + "/" + dir_written;
  place.file = shown_dir + "/" + name;
  place.how = "save it as " + place.file + ": " + root_shown + ":" + std::to_string(dir_line) + " reads the " +
              DoubleQuoted(dir_written) + " directory in name order, and this name sorts after its files";
  return place;
}

}  // namespace

void KeepConfiguredConnections(const Analysis& current, Profile* profile) {
  EffectiveConfig eff(current);
  std::optional<std::string> v = eff.Configured("max_connections");
  if (!eff.SettingFor("max_connections") || !v) return;
  const int clients = std::atoi(v->c_str()) - ReservedSlots(*current.catalog);
  if (clients > 0) profile->configured_connections = clients;
}

std::string RenderPlan(const Recommendation& r, const Analysis& current, bool md,
                       const std::vector<SnapshotTable>* tables) {
  std::vector<std::string> notes;
  Rollout steps = PlanSteps(r, current, RolloutSource::kAlterSystem, tables, &notes);
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

std::string RenderPlanFragment(const Recommendation& r, const Analysis& current,
                               const std::vector<SnapshotTable>* tables) {
  std::vector<std::string> notes;
  Rollout steps = PlanSteps(r, current, RolloutSource::kFiles, tables, &notes);
  const FragmentPlace place = PlaceFragment(current);
  std::ostringstream o;
  auto comment = [&o](const std::string& text) {
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) o << (line.empty() ? "#" : "# " + line) << "\n";
  };
  comment("A postgresql.conf fragment from pgconflint recommend --plan " + OneLine(current.root) + " (" +
          RecommendationHeader(r) + ").");
  comment("To apply it, " + place.how + ".");
  if (current.fatal())
    comment("First: PostgreSQL would refuse to start with this configuration; fix what `pgconflint check` "
            "reports as fatal.");
  for (const std::string& a : r.assumptions) comment("Assumption: " + OneLine(a));
  for (const std::string& n : notes) comment("Note: " + OneLine(n));
  if (steps.empty()) {
    comment("Every setting is already within the recommended range: nothing to set.");
    return o.str();
  }
  o << "\n";
  for (const auto* group : {&steps.session, &steps.reload, &steps.restart})
    for (const RolloutStep& s : *group) {
      o << s.param->name << " = " << s.value << "  # was " << (s.now.empty() ? "the default" : OneLine(s.now));
      if (!s.why.empty()) o << "; " << OneLine(s.why);
      o << "\n";
      for (const Setting* later : place.after) {
        if (later->param != s.param) continue;
        const LoadedFile& f = current.files[later->file];
        o << "#   overridden by " << OneLine(f.source.path()) << ":" << later->line << " (" << OneLine(later->name)
          << " = " << OneLine(later->raw) << ")"
          << (f.auto_conf ? ", written by ALTER SYSTEM: run ALTER SYSTEM RESET " + std::string(s.param->name)
                          : ", read after this fragment: remove that line")
          << "\n";
      }
    }
  o << "\n";
  std::ostringstream rollout;
  WriteRollout(steps, r.major, RolloutSource::kFiles, {.markdown = false, .heading_level = 3}, rollout);
  comment("Then:\n" + rollout.str());
  return o.str();
}

}  // namespace pgconflint
