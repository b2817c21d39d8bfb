// `pgconflint show` rendering. Values and paths come from the files: the text
// form escapes their control characters.
#include "cli/show.h"

#include <nlohmann/json.hpp>
#include <iostream>
#include <memory>

#include <algorithm>
#include <cstdlib>
#include <sstream>

#include "cli/commands.h"
#include "cli/common.h"
#include "core/model/effective.h"
#include "core/model/shared_memory.h"
#include "core/model/secrets.h"
#include "core/knowledge/platform.h"
#include "core/knowledge/value.h"
#include "report/text.h"

namespace pgconflint {
namespace {

using ordered_json = nlohmann::ordered_json;

// The parameters the files set (each once, the deciding line), then the
// derived values that are not parameters.
std::vector<std::string> DefaultNames(const Analysis& a, const EffectiveConfig& eff) {
  std::vector<std::string> list;
  for (const Setting& s : a.settings)
    if (s.param && eff.SettingFor(s.param->name) == &s &&
        std::find(list.begin(), list.end(), s.param->name) == list.end())
      list.push_back(s.param->name);
  for (const std::string& d : eff.DerivedNames()) {
    if (d == "max_backends") continue;
    if (std::find(list.begin(), list.end(), d) == list.end()) list.push_back(d);
  }
  return list;
}

// The terms of the shared memory estimate, with their bytes when the major
// has a measured model (scripts/harvest_shared_memory.py reads the counts).
ordered_json ShmemTerms(const EffectiveConfig& eff) {
  std::optional<SharedMemorySize> size = ComputeSharedMemory(eff);
  ordered_json terms = ordered_json::array();
  std::vector<ShmemTerm> list = SharedMemoryTerms(eff);
  for (size_t i = 0; i < list.size(); ++i)
    terms.push_back({{"term", list[i].name},
                     {"count", list[i].count},
                     {"bytes", size ? ordered_json(size->parts[i].bytes) : ordered_json(nullptr)}});
  return terms;
}

// A derived value the server computes, not read from a file (max_backends;
// shared_memory_size and the other internal parameters it computes at start).
void ShowComputed(const EffectiveConfig& eff, const std::string& name, const DerivedValue& d, size_t width,
                  ordered_json* arr, std::string* line) {
  if (!arr) {
    *line = name + std::string(width - std::min(width, name.size()) + 2, ' ') + d.value.Display() + "  (" +
            d.explanation + ")";
    return;
  }
  const Parameter* p = eff.catalog().Find(name);
  ordered_json j = {{"name", name},       {"configured", nullptr}, {"unit", p && p->unit[0] ? ordered_json(p->unit) : ordered_json(nullptr)},
                    {"source", nullptr},  {"effective", d.value.Display()}, {"effective_note", d.explanation},
                    {"context", p ? ordered_json(std::string(ContextName(p->context))) : ordered_json(nullptr)}};
  if (name == "shared_memory_size") j["terms"] = ShmemTerms(eff);
  arr->push_back(std::move(j));
}

// One parameter: as a JSON object, or as a text line (without its newline).
void ShowParameter(const Analysis& a, const EffectiveConfig& eff, const Parameter& p, size_t width,
                   ordered_json* arr, std::string* line) {
  const Setting* s = eff.SettingFor(p.name);
  std::string configured = eff.Configured(p.name).value_or("");
  std::string shown = configured;
  if (p.type == VarType::kInteger && p.unit_kind != UnitKind::kNone)
    shown = FormatWithUnit(strtod(configured.c_str(), nullptr), p);
  std::string source = s ? a.files[s->file].source.path() + ":" + std::to_string(s->line) : "default";
  if (!s && a.os)
    if (const PlatformFact* f = FindPlatformFact(p, *a.os, a.catalog->major(), PlatformFact::Kind::kBootValue))
      source = "default on " + *a.os + ", " + f->basis;
  if (s && s->origin.scoped()) source += ", " + Scope{s->origin.database, s->origin.role}.Describe();
  std::optional<DerivedValue> d = eff.Derived(p.name);
  std::string effective = d ? d->value.Display() : shown;
  if (arr) {
    ordered_json j;
    j["name"] = p.name;
    j["configured"] = configured;
    j["unit"] = p.unit[0] ? ordered_json(p.unit) : ordered_json(nullptr);
    j["source"] = s ? ordered_json({{"file", a.files[s->file].source.path()}, {"line", s->line}}) : ordered_json(nullptr);
    j["effective"] = effective;
    j["effective_note"] = d ? ordered_json(d->explanation) : ordered_json(nullptr);
    j["context"] = std::string(ContextName(p.context));
    arr->push_back(std::move(j));
    return;
  }
  std::ostringstream o;
  o << p.name << std::string(width - std::min(width, std::string(p.name).size()) + 2, ' ') << shown;
  if (effective != shown) o << "  -> effective " << effective;
  o << "  (" << source;
  if (d && d->explanation != "as configured" && d->explanation != "set explicitly") o << "; " << d->explanation;
  o << ")";
  *line = o.str();
}

}  // namespace

void RenderShow(const Analysis& a, const std::vector<std::string>& names, bool as_json, std::ostream& out,
                std::vector<std::string>* unknown, const Scope* scope, const Profile* profile) {
  EffectiveConfig eff = scope ? EffectiveConfig(a, *scope) : EffectiveConfig(a);
  eff.set_profile(profile);
  std::vector<std::string> list = names.empty() ? DefaultNames(a, eff) : names;
  ordered_json arr = ordered_json::array();
  size_t width = 0;
  for (const std::string& n : list) width = std::max(width, n.size());
  for (const std::string& n : list) {
    std::string line;
    const Parameter* p = a.catalog->Find(n);
    std::optional<DerivedValue> d = eff.Derived(p ? std::string(p->name) : n);
    if (d && (!p || p->context == Context::kInternal)) {
      ShowComputed(eff, p ? p->name : n, *d, width, as_json ? &arr : nullptr, &line);
    } else if (p) {
      ShowParameter(a, eff, *p, width, as_json ? &arr : nullptr, &line);
    } else {
      unknown->push_back(n);
      continue;
    }
    if (!as_json) out << EscapeControls(line) << "\n";
  }
  if (as_json) out << arr.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
}

}  // namespace pgconflint

// --- The subcommand -------------------------------------------------------------

namespace pgconflint::cli {
namespace {

struct ShowOptions {
  CommonOptions common;
  std::string format = "text", path;
  std::vector<std::string> names;
  std::string database, role;  // --database, --role: a session's scope
};

// The scope --database/--role ask for, or null for the cluster's values.
const Scope* ScopeOf(const ShowOptions& o, Scope* storage) {
  if (o.database.empty() && o.role.empty()) return nullptr;
  *storage = {o.database, o.role};
  return storage;
}

int RunShow(ShowOptions& o) {
  if (o.path.empty()) {
    PrintError("show: PATH is required (a configuration file or a data directory; see `pgconflint show --help`)");
    return kExitUsage;
  }
  if (!CheckCommonOptions(&o.common)) return kExitUsage;
  if (o.common.major && !CatalogOrComplain(o.common.major)) return kExitUsage;
  Workspace ws(MakeWorkspaceOptions(o.common, nullptr, &HostFor(o.common)));
  Analysis a;
  if (int rc = LintOne(&ws, o.path, &a); rc != kExitOk) return rc;
  std::vector<std::string> unknown;
  Scope scope;
  RedactSecrets(&a);  // primary_conninfo's password is shown as *****
  RenderShow(a, o.names, o.format == "json", std::cout, &unknown, ScopeOf(o, &scope), &ws.config().profile);
  if (!std::cout.flush()) return kExitInternal;
  for (const std::string& n : unknown)
    PrintError("unknown parameter \"" + n + "\" in PostgreSQL " + std::to_string(a.catalog->major()));
  return unknown.empty() ? kExitOk : kExitUsage;
}

}  // namespace

Command AddShow(CLI::App* app, bool full) {
  auto o = std::make_shared<ShowOptions>();
  CLI::App* show = app->add_subcommand("show", "Print configured and effective values with their source line");
  if (!full) return {show, {}};
  AddCommonOptions(show, &o->common);
  show->add_option("--format", o->format, "Output format")->check(CLI::IsMember({"text", "json"}))->capture_default_str();
  show->add_option("PATH", o->path, "Configuration file or data directory");  // required: checked in RunShow
  show->add_option("NAME", o->names, "Parameters to show (default: those set in the files, and derived values)");
  show->add_option("--database", o->database,
                   "Show what sessions of this database start with (ALTER DATABASE ... SET over the cluster's values)");
  show->add_option("--role", o->role, "Show what sessions of this role start with (ALTER ROLE ... SET)");
  return {show, [o] { return RunShow(*o); }};
}

}  // namespace pgconflint::cli
