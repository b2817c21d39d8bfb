// `pgconflint params` rendering: the catalog as text or JSON. Everything here
// comes from the embedded catalog, never from the files being checked.
#include "cli/params.h"

#include <nlohmann/json.hpp>
#include <iostream>
#include <memory>

#include <cstdlib>

#include "cli/commands.h"
#include "cli/common.h"
#include "core/base/strings.h"
#include "core/knowledge/extension_catalog.h"
#include "core/knowledge/storage_facts.h"
#include "core/knowledge/value.h"

namespace pgconflint {
namespace {

using ordered_json = nlohmann::ordered_json;

ordered_json Nullable(const char* s) { return s[0] ? ordered_json(s) : ordered_json(nullptr); }

ordered_json ParameterJson(const Parameter& p) {
  ordered_json j;
  j["name"] = p.name;
  j["vartype"] = std::string(VarTypeName(p.type));
  j["unit"] = Nullable(p.unit);
  j["context"] = std::string(ContextName(p.context));
  j["min_val"] = Nullable(p.min_val);
  j["max_val"] = Nullable(p.max_val);
  if (p.type == VarType::kEnum) {
    ordered_json ev = ordered_json::array();
    for (const char* v : p.enumvals) ev.push_back(v);
    j["enumvals"] = std::move(ev);
  } else {
    j["enumvals"] = nullptr;
  }
  j["boot_val"] = p.has_boot_val ? ordered_json(p.boot_val) : ordered_json(nullptr);
  j["category"] = p.category;
  j["short_desc"] = p.short_desc;
  j["extra_desc"] = Nullable(p.extra_desc);
  j["majors"] = MajorsOf(p);
  j["in_pg_settings"] = p.in_pg_settings;
  if (p.type == VarType::kEnum) {
    ordered_json hidden = ordered_json::object();
    for (const HiddenEnumValue& h : p.hidden_enumvals) hidden[h.spelling] = h.canonical;
    j["hidden_enumvals"] = std::move(hidden);
    ordered_json build = ordered_json::array();
    for (const char* v : p.build_dependent_enumvals) build.push_back(v);
    j["build_dependent_enumvals"] = std::move(build);
  }
  return j;
}

void WriteParameterText(const Parameter& p, std::ostream& o) {
  o << p.name << " (" << VarTypeName(p.type);
  if (p.unit[0]) o << ", unit " << p.unit;
  o << ", context " << ContextName(p.context) << ")\n";
  o << "  " << p.short_desc << "\n";
  if (p.extra_desc[0]) o << "  " << p.extra_desc << "\n";
  if (p.has_boot_val) o << "  default: " << (p.boot_val[0] ? p.boot_val : "''");
  if (p.type == VarType::kInteger && p.unit_kind != UnitKind::kNone && p.has_boot_val)
    o << " (" << FormatWithUnit(std::strtod(p.boot_val, nullptr), p) << ")";
  o << "\n";
  if (p.min_val[0]) o << "  range: " << p.min_val << " .. " << p.max_val << "\n";
  if (p.type == VarType::kEnum) {
    o << "  values:";
    const std::vector<EnumChoice> choices = EnumChoices(p);
    for (size_t i = 0; i < choices.size(); ++i) {
      o << " " << choices[i].value;
      if (choices[i].needs) o << " (needs a build with " << choices[i].needs->name << ")";
      else if (i >= p.enumvals.size()) o << " (build-dependent)";
    }
    o << "\n";
  }
  o << "  category: " << p.category << "\n  majors:";
  for (int m : MajorsOf(p)) o << " " << m;
  o << "\n\n";
}

}  // namespace

void RenderParams(const Catalog& catalog, const std::vector<std::string>& names, bool as_json, std::ostream& out,
                  std::vector<std::string>* unknown) {
  std::vector<const Parameter*> params;
  if (names.empty()) {
    for (const Parameter& p : catalog.parameters()) params.push_back(&p);
  } else {
    for (const std::string& n : names) {
      const Parameter* p = catalog.FindAnyName(n);
      if (p) params.push_back(p);
      else unknown->push_back(n);
    }
  }
  if (!as_json) {
    for (const Parameter* p : params) WriteParameterText(*p, out);
    return;
  }
  ordered_json arr = ordered_json::array();
  for (const Parameter* p : params) arr.push_back(ParameterJson(*p));
  out << arr.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
}

void RenderExtensionParams(const ExtensionCatalog& catalog, const std::vector<std::string>& names, bool as_json,
                           std::ostream& out, std::vector<std::string>* unknown) {
  std::vector<const ExtensionParameter*> params;
  auto module_of = [&](const ExtensionParameter& p) { return catalog.modules()[p.module].name; };
  if (names.empty()) {
    for (const ExtensionParameter& p : catalog.parameters()) params.push_back(&p);
  } else {
    for (const std::string& n : names) {
      size_t before = params.size();
      if (const ExtensionParameter* p = catalog.Find(n)) params.push_back(p);
      else
        for (const ExtensionParameter& p : catalog.parameters())
          if (n == module_of(p)) params.push_back(&p);
      if (params.size() == before) unknown->push_back(n);
    }
  }
  if (!as_json) {
    for (const ExtensionParameter* p : params) {
      out << "[" << module_of(*p) << "] ";
      WriteParameterText(p->param, out);
    }
    return;
  }
  ordered_json arr = ordered_json::array();
  for (const ExtensionParameter* p : params) {
    ordered_json j = ParameterJson(p->param);
    j["module"] = module_of(*p);
    j["defined_by_load"] = p->defined_by_load;
    arr.push_back(std::move(j));
  }
  out << arr.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
}

}  // namespace pgconflint

// --- The subcommand -------------------------------------------------------------

namespace pgconflint::cli {
namespace {

struct ParamsOptions {
  int major = Catalog::DefaultMajor();
  std::string format = "text";
  std::vector<std::string> names;
  bool extensions = false;
  bool supported = false;
};

// `params --supported`: what this build knows, the one list the test suites
// read (tests/support/supported.py): the majors with their default, and the
// --storage types, in their order.
int RunSupported(const ParamsOptions& o) {
  if (o.format == "json") {
    ordered_json j;
    j["majors"] = ordered_json::array();
    for (int m : Catalog::SupportedMajors()) j["majors"].push_back(m);
    j["default_major"] = Catalog::DefaultMajor();
    j["storage_types"] = ordered_json::array();
    for (const StorageType& t : BuiltinStorageFacts().types) j["storage_types"].push_back(t.name);
    std::cout << j.dump(2) << "\n";
  } else {
    std::cout << "majors:";
    for (int m : Catalog::SupportedMajors()) std::cout << " " << m;
    std::cout << " (default " << Catalog::DefaultMajor() << ")\nstorage types:";
    for (const StorageType& t : BuiltinStorageFacts().types) std::cout << " " << t.name;
    std::cout << "\n";
  }
  return std::cout.flush() ? kExitOk : kExitInternal;
}

int RunParams(const ParamsOptions& o) {
  if (o.supported) {
    if (!o.names.empty() || o.extensions) {
      PrintError("params --supported takes no NAME and no --extensions");
      return kExitUsage;
    }
    return RunSupported(o);
  }
  const Catalog* catalog = CatalogOrComplain(o.major);
  if (!catalog) return kExitUsage;
  std::vector<std::string> unknown;
  if (o.extensions) {
    const ExtensionCatalog* ext = ExtensionCatalog::ForMajor(o.major);
    if (ext) RenderExtensionParams(*ext, o.names, o.format == "json", std::cout, &unknown);
    if (!std::cout.flush()) return kExitInternal;
    for (const std::string& n : unknown)
      PrintError("no module of PostgreSQL " + std::to_string(o.major) + " defines \"" + n + "\"");
    return unknown.empty() ? kExitOk : kExitUsage;
  }
  RenderParams(*catalog, o.names, o.format == "json", std::cout, &unknown);
  if (!std::cout.flush()) return kExitInternal;
  for (const std::string& n : unknown) {
    std::string message = "unknown parameter \"" + n + "\" in PostgreSQL " + std::to_string(o.major);
    std::vector<int> majors = MajorsWithParameter(n);
    std::vector<std::string> s = catalog->Suggest(n, 1);
    if (!majors.empty()) {
      const std::string list = CommaList(majors);
      message += majors.front() > o.major ? " (it exists from PostgreSQL " + std::to_string(majors.front()) + ": "
                                          : " (it exists in PostgreSQL " + list + ": ";
      message += "see `pgconflint params --pg-version " + std::to_string(majors.back()) + " " + n + "`)";
    } else if (!s.empty()) {
      message += " (did you mean \"" + s[0] + "\"?)";
    }
    PrintError(message);
  }
  return unknown.empty() ? kExitOk : kExitUsage;
}

}  // namespace

Command AddParams(CLI::App* app, bool full) {
  auto o = std::make_shared<ParamsOptions>();
  CLI::App* params = app->add_subcommand("params", "Show the parameter catalog");
  if (!full) return {params, {}};
  params->add_option("--pg-version", o->major, "PostgreSQL major (" + SupportedMajorsText("-") + ")")
      ->check(MajorValidator())
      ->capture_default_str();
  params->add_option("--format", o->format, "Output format")->check(CLI::IsMember({"text", "json"}))->capture_default_str();
  params->add_flag("--extensions", o->extensions,
                   "The parameters of the modules PostgreSQL ships (NAME: a parameter or a module)");
  params->add_flag("--supported", o->supported,
                   "Instead of parameters: the supported majors (and the default one) and the --storage types");
  params->add_option("NAME", o->names, "Parameters to show (default: all)");
  return {params, [o] { return RunParams(*o); }};
}

}  // namespace pgconflint::cli
