// PGC703. The storage ranges do not depend on the machine, so a profile
// without RAM or CPUs gets stand-ins that let the recommender run; io_workers
// (which does depend on the CPUs) is then left out.
#include "core/checks/recommendation_hints.h"

#include <optional>
#include <string_view>

#include "core/knowledge/storage_facts.h"
#include "core/model/effective.h"
#include "core/advice/recommend.h"
#include "core/knowledge/value.h"

namespace pgconflint {
namespace {

// Whether another storage rule (io-concurrency-for-storage,
// random-page-cost-for-storage...) already reported `s`.
bool AlreadyReported(const Analysis& a, const RuleInfo& rule, const Setting& s) {
  for (const Diagnostic& d : a.diagnostics)
    if (d.file == s.file && d.range.begin == s.name_range.begin && d.parameter == s.param->name &&
        std::string_view(d.rule->category) == "storage" && d.rule != &rule)
      return true;
  return false;
}

// Whether the server would refuse a line of the parameter (then no hint
// reasons from its value).
bool ValueRefused(const Analysis& a, const Parameter& p) {
  for (const Setting& s : a.settings)
    if (s.param == &p && !s.ignored && !s.problem.empty()) return true;
  return false;
}

// Whether the setting's value lies outside the cell's min .. max.
bool Outside(const Catalog& cat, const Setting& s, const Cell& c) {
  const Parameter& param = *s.param;
  ExprValue now = TypedValue(param, *s.value);
  ParsedValue lo = ParseValue(cat, param, c.min), hi = ParseValue(cat, param, c.max);
  if (now.kind != ExprValue::Kind::kNumber || !lo.ok() || !hi.ok()) return false;
  double low = TypedValue(param, lo.normalized).number, high = TypedValue(param, hi.normalized).number;
  return now.number < low || now.number > high;
}

}  // namespace

void AddRecommendationHints(const EngineOptions& o, Analysis* a) {
  if (!o.recommendation_hints || !o.profile->storage) return;
  if (a->failure != Analysis::Failure::kNone || !a->catalog || a->files.empty()) return;
  const RuleInfo* rule = o.rules->Find(Rule(RuleId::kSettingOutsideRecommendedRange).code);
  const int major = a->catalog->major();
  if (!rule || !rule->versions.Contains(major)) return;
  Profile p = *o.profile;
  if (!p.ram_bytes) p.ram_bytes = 16.0 * 1024 * 1024 * 1024;
  const bool cpus_known = p.cpus.has_value();
  if (!p.cpus) p.cpus = 8;
  Recommendation rec;
  std::string error;
  if (!Recommend(p, *a->catalog, &rec, &error) || rec.selected < 0) return;
  EffectiveConfig eff(*a);
  const std::string storage = StorageName(*o.profile->storage);
  // The recommender caps the I/O concurrencies at the io_max_concurrency its
  // own settings resolve; a file that sets io_max_concurrency is judged
  // against the storage type's range under the file's cap instead.
  const StorageType& type = o.profile->storage->type();
  const std::optional<DerivedValue> io_max = eff.SettingFor("io_max_concurrency")
                                                 ? eff.Derived("io_max_concurrency")
                                                 : std::nullopt;
  for (Cell c : rec.matrix[rec.selected].cells) {
    if (c.min.empty() || c.max.empty() || (c.parameter == "io_workers" && !cpus_known)) continue;
    if (io_max && (c.parameter == "effective_io_concurrency" || c.parameter == "maintenance_io_concurrency"))
      c = IoConcurrencyCell(type, c.parameter.c_str(), rec.profile, false, io_max->value.number);
    const Setting* s = eff.SettingFor(c.parameter);
    if (!s || !s->param || !s->value || ValueRefused(*a, *s->param)) continue;
    if (!Outside(*a->catalog, *s, c) || AlreadyReported(*a, *rule, *s)) continue;
    a->diagnostics.push_back(MakeDiagnostic(
        *rule, {s->file, {s->name_range.begin, s->value_range.end}},
        std::string(s->param->name) + " = " + s->raw + " is outside the range recommended for " + storage +
            " storage (" + c.min + " .. " + c.max + ", start at " + c.value + "): " + c.why,
        "see `pgconflint recommend --storage " + storage +
            "`; measure before and after with pg_stat_io (track_io_timing = on for its timings); silence with "
            "recommendation-hints = false",
        s->param->name));
  }
}

}  // namespace pgconflint
