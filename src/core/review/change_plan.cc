// Comparing one root in two revisions.
#include "core/review/change_plan.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <map>
#include <set>

#include "core/model/effective.h"
#include "core/model/fingerprint.h"
#include "core/model/memory_model.h"
#include "core/base/quantity.h"
#include "core/conf/classify.h"
#include "core/sql/sql_quote.h"
#include "core/sql/sql_source.h"
#include "core/knowledge/value.h"

namespace pgconflint {
namespace {

// A value as `postgres -C` prints it, shown in the server's units ("128MB").
std::string Shown(const Parameter& p, const std::string& value) {
  if ((p.type == VarType::kInteger || p.type == VarType::kReal) && p.unit_kind != UnitKind::kNone) {
    char* end = nullptr;
    double v = strtod(value.c_str(), &end);
    if (end && !*end && !value.empty() && v >= 0) return FormatWithUnit(v, p);
  }
  return value;
}

// The value the server really uses, when derived (core/model/effective.h), shown
// in the server's units; "" when the parameter is not derived.
std::string EffectiveShown(const EffectiveConfig& eff, const Parameter& p) {
  std::optional<DerivedValue> d = eff.Derived(p.name);
  if (!d || d->value.kind != ExprValue::Kind::kNumber) return "";
  double v = d->value.number;
  if (d->value.dim != Dim::kNone && p.unit_amount > 0) v /= p.unit_amount;
  return Shown(p, p.type == VarType::kReal ? FormatReal(v) : FormatWhole(v));
}

// Every parameter either revision sets, and every derived one.
std::set<std::string> Candidates(const Analysis* before, const Analysis& after) {
  std::set<std::string> names;
  for (const Analysis* a : {before, &after})
    if (a)
      for (const Setting& s : a->settings)
        if (s.param) names.insert(s.param->name);
  // Not the values the server computes at start (shared_memory_size): no line sets them.
  for (const std::string& n : EffectiveConfig(after).DerivedNames())
    if (const Parameter* p = after.catalog->Find(n); p && p->context != Context::kInternal) names.insert(n);
  return names;
}

// The last line that sets `p` for the cluster (a file line or ALTER SYSTEM),
// refused or not: the one the server reads last.
const Setting* LastLine(const Analysis& a, const Parameter& p) {
  const Setting* last = nullptr;
  for (const Setting& s : a.settings)
    if (s.param == &p && (s.origin.kind == Origin::Kind::kFile || s.origin.kind == Origin::Kind::kAlterSystem))
      last = &s;
  return last;
}

// The value of `s` as written when the server refuses it; "" for none.
std::string RefusedValue(const Setting* s) {
  return s && !s->problem.empty() ? (s->quoted ? QuoteLiteral(s->raw) : s->raw) : "";
}

void CompareValues(const Analysis* before, const Analysis& after, RootChange* out) {
  EffectiveConfig now(after);
  // A root the old revision lacks is compared with an empty configuration of
  // its major: the values it derives from defaults are not its changes.
  Analysis empty;
  empty.catalog = after.catalog;
  EffectiveConfig then(before ? *before : empty);
  for (const std::string& name : Candidates(before, after)) {
    const Parameter* p = after.catalog->Find(name);
    if (!p) continue;  // removed in this major: the findings say so
    ValueChange c;
    c.param = p;
    c.after = Shown(*p, now.Configured(name).value_or(""));
    c.after_default = !now.SettingFor(name);
    c.before = Shown(*p, then.Configured(name).value_or(p->boot_val));
    c.before_default = !then.SettingFor(name);
    std::string eff_after = EffectiveShown(now, *p), eff_before = EffectiveShown(then, *p);
    // A line the server refuses is planned as refused, also when the value it
    // keeps is the one it had; one refused in both revisions alike is not news.
    const Setting* last = LastLine(after, *p);
    const std::string refused_after = RefusedValue(last);
    const bool newly_refused =
        !refused_after.empty() && refused_after != RefusedValue(before ? LastLine(*before, *p) : nullptr);
    if (c.before == c.after && eff_before == eff_after && !newly_refused) continue;
    if (eff_after != c.after) c.after_effective = eff_after;
    if (eff_before != c.before) c.before_effective = eff_before;
    c.applies = ApplyingTakes(*p);
    if (const Setting* s = now.SettingFor(name)) c.where = {s->file, {s->name_range.begin, s->value_range.end}};
    if (!refused_after.empty()) {
      c.refused = refused_after;
      c.where = {last->file, {last->name_range.begin, last->value_range.end}};
    }
    out->values.push_back(std::move(c));
  }
}

// Changed lines whose parameter a later line sets again, when the value the
// server uses did not change.
void FindIneffective(const Analysis* before, const Analysis& after, const std::vector<std::string>& changed,
                     RootChange* out) {
  std::set<std::string> changed_files(changed.begin(), changed.end());
  std::set<std::string> valued;
  for (const ValueChange& c : out->values) valued.insert(c.param->name);
  // Settings as (file, name, raw) in the old revision: an unchanged line is not reported.
  std::set<std::tuple<std::string, std::string, std::string>> old_lines;
  if (before)
    for (const Setting& s : before->settings)
      if (s.file >= 0) old_lines.insert({before->files[s.file].source.path(), AsciiLower(s.name), s.raw});
  EffectiveConfig now(after);
  for (const Setting& s : after.settings) {
    if (!s.param || s.file < 0 || s.overridden_by < 0 || valued.count(s.param->name)) continue;
    const LoadedFile& f = after.files[s.file];
    if (!changed_files.count(f.abs_path) || old_lines.count({f.source.path(), AsciiLower(s.name), s.raw})) continue;
    const Setting* winner = now.SettingFor(s.param->name);
    if (!winner || winner == &s) continue;
    out->ineffective.push_back({s.param->name, s.raw, {s.file, {s.name_range.begin, s.value_range.end}},
                                {winner->file, {winner->name_range.begin, winner->value_range.end}}});
  }
}

void CompareFindings(const Analysis* before, const Analysis* after, const std::string& base_before,
                     const std::string& base_after, RootChange* out) {
  std::vector<std::string> old_prints = before ? Fingerprints(*before, base_before) : std::vector<std::string>();
  std::vector<std::string> new_prints = after ? Fingerprints(*after, base_after) : std::vector<std::string>();
  std::set<std::string> new_set(new_prints.begin(), new_prints.end());
  std::map<std::string, size_t> old_index;
  for (size_t i = 0; i < old_prints.size(); ++i) old_index.emplace(old_prints[i], i);
  for (size_t i = 0; i < new_prints.size(); ++i) {
    auto it = old_index.find(new_prints[i]);
    const FindingRef now{after, &after->diagnostics[i]};
    if (it == old_index.end()) {
      out->introduced.push_back(now);
    } else if (const Diagnostic& was = before->diagnostics[it->second]; FiguresDiffer(was.message, now.diagnostic->message)) {
      out->changed.push_back({{before, &was}, now});
    } else {
      out->unchanged.push_back(now);
    }
  }
  for (size_t i = 0; i < old_prints.size(); ++i)
    if (!new_set.count(old_prints[i])) out->fixed.push_back({before, &before->diagnostics[i]});
}

// The quantities with a unit in `m`, in order: (value in base units, dim;
// kNone for a percentage).
std::vector<std::pair<double, Dim>> Quantities(std::string_view m) {
  std::vector<std::pair<double, Dim>> out;
  auto alnum = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; };
  for (size_t i = 0; i < m.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(m[i])) || (i > 0 && (alnum(m[i - 1]) || m[i - 1] == '.'))) continue;
    size_t j = i;
    while (j < m.size() && (std::isdigit(static_cast<unsigned char>(m[j])) || m[j] == '.')) ++j;
    size_t k = j;
    while (k < m.size() && std::isalpha(static_cast<unsigned char>(m[k]))) ++k;
    const std::string text(m.substr(i, k - i));
    double v = 0;
    std::string error;
    if (k < m.size() && m[k] == '%' && k == j) {
      out.push_back({std::strtod(text.c_str(), nullptr), Dim::kNone});
      ++k;
    } else if (k > j && ParseQuantityOf(text, Dim::kBytes, &v, &error)) {
      out.push_back({v, Dim::kBytes});
    } else if (k > j && ParseQuantityOf(text, Dim::kMs, &v, &error)) {
      out.push_back({v, Dim::kMs});
    }
    i = k;
  }
  return out;
}

}  // namespace

bool FiguresDiffer(std::string_view before, std::string_view after) {
  const auto a = Quantities(before), b = Quantities(after);
  if (a.size() != b.size()) return true;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].second != b[i].second) return true;
    const double scale = std::max(std::fabs(a[i].first), std::fabs(b[i].first));
    if (scale > 0 && std::fabs(a[i].first - b[i].first) > 0.1 * scale) return true;
  }
  return false;
}

std::string ApplyingTakes(const Parameter& p) {
  switch (p.context) {
    case Context::kInternal: return "cannot be changed";
    case Context::kPostmaster: return "restart";
    case Context::kSighup: return "reload";
    case Context::kSuperuserBackend:
    case Context::kBackend: return "reload (new sessions only)";
    case Context::kSuperuser: return "reload (or SET as superuser)";
    case Context::kUser: return "reload (or per session)";
  }
  return "reload";
}

MemoryPicture MemoryPictureOf(const Analysis& a, const Profile& profile) {
  EffectiveConfig eff(a);
  MemoryModel m = MemoryModelOf(eff, profile);
  MemoryPicture p;
  p.shared = m.shared_buffers + m.wal_buffers;
  // The memory model's worst case, every node a hash table (HashTotal):
  // client connections and the parallel workers that can run at once.
  p.work = m.connections * m.HashPerBackend();
  p.parallel = m.parallel_workers * m.HashPerBackend();
  p.maintenance = m.maintenance_work_mem + m.autovacuum_workers * m.autovacuum_work_mem;
  p.ram = *profile.ram_bytes;
  p.headroom = p.ram - MemoryBudget(profile);
  return p;
}

RootChange CompareRoot(const Analysis* before, const Analysis* after, const std::string& base_before,
                       const std::string& base_after, const std::vector<std::string>& changed, const Profile& profile) {
  RootChange out;
  out.root = after ? after->root : before->root;
  out.before = before;
  out.after = after;
  out.added = !before;
  out.removed = !after;
  CompareFindings(before, after, base_before, base_after, &out);
  if (!after || !after->catalog || after->failure != Analysis::Failure::kNone) return out;
  const Analysis* old = before && before->catalog && before->failure == Analysis::Failure::kNone ? before : nullptr;
  out.major = after->catalog->major();
  CompareValues(old, *after, &out);
  FindIneffective(old, *after, changed, &out);
  if (IsSqlPath(out.root)) out.source = RolloutSource::kScript;
  for (const Diagnostic& d : after->diagnostics)
    if (d.fatal()) out.blocking.push_back({after, &d});
  if (!out.blocking.empty()) {
    // What the new revision's values would derive is moot: it does not start.
    std::erase_if(out.values, [](const ValueChange& c) { return c.before == c.after && c.refused.empty(); });
  } else {
    for (const ValueChange& c : out.values)
      if (c.before != c.after)  // an effective value follows the change of another parameter
        AddRolloutStep({c.param, c.before, c.after, "", ""}, out.source, &out.rollout);
    WaitForCaps(&out.rollout);
    const std::set<std::string> touched(changed.begin(), changed.end());
    for (const LoadedFile& f : after->files)
      if ((f.kind == FileKind::kHba || f.kind == FileKind::kIdent) && touched.count(f.abs_path))
        (f.kind == FileKind::kHba ? out.rollout.hba_files : out.rollout.ident_files).push_back(f.source.path());
  }
  if (profile.ram_bytes) {
    if (old) out.memory_before = MemoryPictureOf(*old, profile);
    out.memory_after = MemoryPictureOf(*after, profile);
  }
  return out;
}

}  // namespace pgconflint
