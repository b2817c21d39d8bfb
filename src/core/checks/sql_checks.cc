// PGC1009 and PGC1012.
#include "core/checks/sql_checks.h"

#include "core/advice/recommend.h"
#include "core/knowledge/value.h"

namespace pgconflint {
namespace {

constexpr const char* kReloadMessage =
    "the server cannot read this line of postgresql.auto.conf: at every reload it logs \"configuration file ... "
    "contains errors; no changes were applied\", so no change to any configuration file takes effect while the "
    "line is there, and the next restart fails";
constexpr const char* kReloadHelp =
    "delete the line, or run ALTER SYSTEM RESET ALL (which removes every entry; ALTER SYSTEM RESET of an unknown "
    "name fails), then reload";

// The recommendation for the profile, with stand-ins for RAM and CPUs (the
// tablespace options do not depend on them).
bool RecommendFor(const Profile& profile, const Catalog& cat, Recommendation* rec) {
  Profile p = profile;
  if (!p.ram_bytes) p.ram_bytes = 16.0 * 1024 * 1024 * 1024;
  if (!p.cpus) p.cpus = 8;
  std::string error;
  return Recommend(p, cat, rec, &error);
}

const Cell* OptionCell(const Recommendation& rec, const std::string& tablespace, const std::string& option) {
  for (const TablespaceAdvice& t : rec.tablespaces)
    if (t.name == tablespace)
      for (const Cell& c : t.options)
        if (c.parameter == option) return &c;
  return nullptr;
}

}  // namespace

void ReportAutoConfTraps(Analysis* a) {
  for (size_t i = 0; i < a->files.size(); ++i) {
    if (!a->files[i].auto_conf) continue;
    const int file = static_cast<int>(i);
    for (const SyntaxError& e : a->files[i].parsed.errors)
      a->Add(MakeDiagnostic(Rule(RuleId::kAutoConfBlocksReload), {file, e.near}, kReloadMessage, kReloadHelp));
  }
  for (const Setting& s : a->settings) {
    if (s.param || s.name.find('.') != std::string::npos || s.file < 0 || !a->files[s.file].auto_conf) continue;
    a->Add(MakeDiagnostic(Rule(RuleId::kAutoConfBlocksReload), {s.file, {s.name_range.begin, s.value_range.end}},
                          kReloadMessage, kReloadHelp, s.name));
  }
}

void AddTablespaceHints(const EngineOptions& o, Analysis* a) {
  if (!a->catalog || a->tablespace_settings.empty() || o.profile->tablespaces.empty()) return;
  const RuleInfo* rule = o.rules->Find(Rule(RuleId::kTablespaceOptionForStorage).code);
  if (!rule) return;
  Recommendation rec;
  if (!RecommendFor(*o.profile, *a->catalog, &rec)) return;
  for (const TablespaceSetting& t : a->tablespace_settings) {
    auto storage = o.profile->tablespaces.find(t.tablespace);
    const Cell* c = storage == o.profile->tablespaces.end() ? nullptr : OptionCell(rec, t.tablespace, t.option);
    if (!c || c->min.empty() || c->max.empty()) continue;
    double v = strtod(t.value.c_str(), nullptr), lo = strtod(c->min.c_str(), nullptr), hi = strtod(c->max.c_str(), nullptr);
    if (v >= lo && v <= hi) continue;
    const std::string name = StorageName(storage->second);
    a->Add(MakeDiagnostic(*rule, {t.file, {t.name_range.begin, t.value_range.end}},
                          t.option + " = " + t.value + " for tablespace " + t.tablespace +
                              " is outside the range recommended for " + name + " storage (" + c->min + " .. " +
                              c->max + ", start at " + c->value + "): " + c->why,
                          "see `pgconflint recommend --tablespace " + t.tablespace + "=" + name +
                              " --format sql`; measure before and after",
                          t.option));
  }
}

}  // namespace pgconflint
