// Per-table autovacuum advice from a snapshot's table statistics.
#include "core/advice/recommend_tables.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <optional>

#include "core/base/quantity.h"
#include "core/knowledge/sql_knowledge.h"
#include "core/model/effective.h"
#include "core/sql/sql_quote.h"
#include "core/sql/storage_options.h"

namespace pgconflint {
namespace {

// Tables below this many rows keep the server's settings: half way, in log
// scale, from 100,000 to the smallest table class (1M rows).
constexpr double kMinRows = 316228;
// A trigger counts as "later" when it lets this much more pile up: a small
// difference is not worth a per-table setting.
constexpr double kLater = 1.5;

// "name=value" reloptions as a map.
std::map<std::string, std::string> Options(const std::vector<std::string>& options) {
  std::map<std::string, std::string> out;
  for (const std::string& o : options) {
    size_t eq = o.find('=');
    if (eq != std::string::npos) out[o.substr(0, eq)] = o.substr(eq + 1);
  }
  return out;
}

// A table's setting: its own reloption when set, else the server's
// parameter of the same name (0 when neither is known).
double TableSetting(const std::map<std::string, std::string>& own, const EffectiveConfig& eff, const std::string& name) {
  auto it = own.find(name);
  if (it != own.end()) return strtod(it->second.c_str(), nullptr);
  ExprValue v = eff.Typed(name);
  return v.kind == ExprValue::Kind::kNumber ? v.number : 0;
}

// Dead (or inserted) tuples that start a vacuum: threshold + scale_factor x
// rows, capped from 18 on by autovacuum_vacuum_max_threshold (-1: no cap)
// for dead tuples.
double Trigger(double threshold, double scale_factor, double rows, std::optional<double> cap) {
  double t = threshold + scale_factor * rows;
  return cap && *cap >= 0 ? std::min(t, *cap) : t;
}

// The table class of r for `rows` (nearest in log scale) and `use`.
const TableClass* ClassFor(const Recommendation& r, double rows, const std::string& use) {
  const TableClass* best = nullptr;
  for (const TableClass& tc : r.tables) {
    if (tc.workload != use) continue;
    if (!best || std::fabs(std::log10(tc.rows / rows)) < std::fabs(std::log10(best->rows / rows))) best = &tc;
  }
  return best;
}

std::string Count(double n) { return FormatNumber(std::round(n)); }

}  // namespace

std::vector<TableAdvice> AdviseTables(const Recommendation& r, const Analysis& current,
                                      const std::vector<SnapshotTable>& tables, std::vector<std::string>* notes) {
  const Catalog& cat = *current.catalog;
  const SqlFacts* facts = SqlFacts::ForMajor(cat.major());
  EffectiveConfig eff(current);
  std::vector<TableAdvice> out;
  std::map<std::string, std::string> refused;  // option -> why, said once
  const bool capped = cat.Find("autovacuum_vacuum_max_threshold") != nullptr;
  for (const SnapshotTable& t : tables) {
    const double rows = t.reltuples >= 0 ? t.reltuples : t.live;
    if (rows < kMinRows) continue;
    // Insert-mostly tables (inserts ten times the updates and deletes) need
    // vacuum for freezing and visibility, not for dead tuples: bulk-load.
    const bool inserts = t.inserted > 0 && t.inserted >= 10 * (t.updated + t.deleted);
    const Workload w = r.profile.workload.value_or(Workload::kMixed);
    const std::string use = inserts ? "bulk-load" : w == Workload::kOltp || w == Workload::kWeb ? "oltp" : "mixed";
    const TableClass* tc = ClassFor(r, rows, use);
    if (!tc) continue;
    const std::map<std::string, std::string> own = Options(t.options);
    std::map<std::string, std::string> want;
    for (const Cell& c : tc->options) want[c.parameter] = c.value;
    auto rec = [&](const std::string& name) {
      auto it = want.find(name);
      return it != want.end() ? strtod(it->second.c_str(), nullptr) : TableSetting(own, eff, name);
    };
    std::optional<double> cap;
    if (capped) cap = TableSetting(own, eff, "autovacuum_vacuum_max_threshold");
    const double now = Trigger(TableSetting(own, eff, "autovacuum_vacuum_threshold"),
                               TableSetting(own, eff, "autovacuum_vacuum_scale_factor"), rows, cap);
    const double after = Trigger(rec("autovacuum_vacuum_threshold"), rec("autovacuum_vacuum_scale_factor"), rows, cap);
    double ins_now = 0, ins_after = 0;
    if (inserts) {
      ins_now = Trigger(TableSetting(own, eff, "autovacuum_vacuum_insert_threshold"),
                        TableSetting(own, eff, "autovacuum_vacuum_insert_scale_factor"), rows, std::nullopt);
      ins_after = Trigger(rec("autovacuum_vacuum_insert_threshold"), rec("autovacuum_vacuum_insert_scale_factor"), rows,
                          std::nullopt);
    }
    if (now <= after * kLater && (!inserts || ins_now <= ins_after * kLater)) continue;
    std::string opts;
    for (const Cell& c : tc->options) {
      auto has = own.find(c.parameter);
      if (has != own.end() && strtod(has->second.c_str(), nullptr) == strtod(c.value.c_str(), nullptr)) continue;
      // The server's own check of ALTER TABLE ... SET (...), so that no
      // statement written here is one the major refuses.
      std::string why;
      if (!facts) {
        why = "PostgreSQL " + std::to_string(cat.major()) + " has no known table options";
      } else {
        SqlOption o;
        o.name = c.parameter;
        o.value = c.value;
        o.has_value = true;
        const std::vector<OptionRefusal> no = CheckTableOptions(*facts, cat, {o});
        if (!no.empty())
          why = "PostgreSQL " + std::to_string(cat.major()) + " refuses " + c.parameter + " = " + c.value + ": " +
                no.front().message + (no.front().rule == RuleId::kTableOptionInvalid ? " (" + no.front().help + ")" : "");
      }
      if (!why.empty()) {
        refused.emplace(c.parameter, why);
        continue;
      }
      opts += (opts.empty() ? "" : ", ") + c.parameter + " = " + c.value;
    }
    if (opts.empty()) continue;
    const std::string name = t.schema + "." + t.name;
    std::string why = Count(rows) + " rows (" + FormatHuman(t.bytes, Dim::kBytes) + "), " + Count(t.dead) +
                      " dead now: vacuum after " + Count(after) + " dead tuples, not " + Count(now);
    if (inserts)
      why += "; insert-mostly (" + Count(t.inserted) + " inserts): vacuum after " + Count(ins_after) +
             " inserted, not " + Count(ins_now);
    why += " (" + tc->label + ")";
    out.push_back({name, "ALTER TABLE " + QuoteIdentifier(t.schema) + "." + QuoteIdentifier(t.name) + " SET (" + opts +
                             ");",
                   why});
  }
  for (const auto& [option, why] : refused) notes->push_back(why + ": left out of the per-table statements");
  return out;
}

}  // namespace pgconflint
