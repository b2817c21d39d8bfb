// Lookups in the built-in extension catalogs, and the reader of user
// catalog files (toml++ exceptions stop here).
#include "core/knowledge/extension_catalog.h"

#include "core/base/toml_read.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>

#include "core/base/quantity.h"

namespace pgconflint {

std::string ModuleName(std::string_view library) {
  size_t slash = library.rfind('/');
  if (slash != std::string_view::npos) library.remove_prefix(slash + 1);
  if (library.size() > 3 && library.substr(library.size() - 3) == ".so") library.remove_suffix(3);
  return std::string(library);
}

namespace generated {
extern const ExtensionCatalog kExtensionCatalogs[];
extern const size_t kExtensionCatalogCount;
}  // namespace generated

const ExtensionCatalog* ExtensionCatalog::ForMajor(int major) {
  for (size_t i = 0; i < generated::kExtensionCatalogCount; ++i)
    if (generated::kExtensionCatalogs[i].major() == major) return &generated::kExtensionCatalogs[i];
  return nullptr;
}

const ExtensionParameter* ExtensionCatalog::Find(std::string_view name) const {
  std::string lower = AsciiLower(name);
  for (const ExtensionParameter& p : params_)
    if (AsciiLower(p.param.name) == lower) return &p;
  return nullptr;
}

const ExtensionModule* ExtensionCatalog::FindModule(std::string_view name) const {
  for (const ExtensionModule& m : modules_)
    if (name == m.name) return &m;
  return nullptr;
}

const ExtensionModule* ExtensionCatalog::ModuleForPrefix(std::string_view prefix, const ExtensionPrefix** which) const {
  std::string lower = AsciiLower(prefix);
  for (const ExtensionModule& m : modules_)
    for (const ExtensionPrefix& p : m.prefixes)
      if (AsciiLower(p.prefix) == lower) {
        if (which) *which = &p;
        return &m;
      }
  return nullptr;
}

// --- User catalogs ----------------------------------------------------------

namespace {

const char* const kTypes[] = {"bool", "integer", "real", "string", "enum"};
const char* const kContexts[] = {"internal", "postmaster", "sighup", "superuser-backend", "backend", "superuser",
                                 "user"};

template <typename E>
bool EnumOf(const std::string& text, const char* const* names, size_t n, E* out) {
  for (size_t i = 0; i < n; ++i)
    if (text == names[i]) {
      *out = static_cast<E>(i);
      return true;
    }
  return false;
}

}  // namespace

// Builds a user catalog's parts (it may use the catalog's private storage).
struct UserCatalogBuilder {
  static bool ParameterFrom(UserExtensionCatalog* c, const toml::table& p, int module, ExtensionParameter* out,
                            std::string* why);
};

const char* UserExtensionCatalog::Keep(std::string s) {
  strings_.push_back(std::move(s));
  return strings_.back().c_str();
}

std::unique_ptr<UserExtensionCatalog> UserExtensionCatalog::Load(const FileSystem& fs, const std::string& path,
                                                                  int major, std::string* error) {
  std::string text, why;
  if (fs.Read(path, &text, &why) != ReadStatus::kOk) {
    *error = path + ": " + why;
    return nullptr;
  }
  return Parse(text, path, major, error);
}

std::unique_ptr<UserExtensionCatalog> UserExtensionCatalog::Parse(std::string_view text, const std::string& path,
                                                                   int major, std::string* error) {
  std::unique_ptr<UserExtensionCatalog> c(new UserExtensionCatalog());
  c->major_ = major;
  auto fail = [&](const toml::node* n, const std::string& m) {
    *error = path + ":" + std::to_string(n ? n->source().begin.line : 1) + ": " + m;
    return nullptr;
  };
  toml::table t;
  // Through the one entry to toml++, with its guard (an extension catalog
  // called toml++ directly: a key of a million parts crashed it).
  if (!ParseToml(text, path, &t, error)) return nullptr;
  for (const auto& [k, v] : t)
    if (k.str() != "module") return fail(&v, "unknown key \"" + std::string(k.str()) + "\" (expected [[module]])");
  const toml::array* modules = t["module"].as_array();
  if (!modules) return c;
  c->module_store_.reserve(modules->size());
  for (const toml::node& mn : *modules) {
    const toml::table* m = mn.as_table();
    if (!m) return fail(&mn, "[[module]] must be a table");
    for (const auto& [k, v] : *m) {
      std::string key(k.str());
      if (key != "name" && key != "prefixes" && key != "reserves-prefixes" && key != "parameter")
        return fail(&v, "unknown module key \"" + key + "\"");
    }
    std::optional<std::string> name = (*m)["name"].value<std::string>();
    if (!name || name->empty()) return fail(&mn, "a module needs a name");
    bool reserved = (*m)["reserves-prefixes"].value_or(false);
    std::vector<ExtensionPrefix>& prefixes = c->prefix_lists_.emplace_back();
    if (const toml::array* ps = (*m)["prefixes"].as_array()) {
      for (const toml::node& p : *ps) {
        std::optional<std::string> s = p.value<std::string>();
        if (!s) return fail(&p, "prefixes must be strings");
        prefixes.push_back({c->Keep(*s), reserved, !reserved, ""});
      }
    } else {
      prefixes.push_back({c->Keep(*name), reserved, !reserved, ""});
    }
    int index = static_cast<int>(c->module_store_.size());
    c->module_store_.push_back({c->Keep(*name), true, "", true, "", {}, prefixes});
    if (const toml::array* params = (*m)["parameter"].as_array())
      for (const toml::node& pn : *params) {
        const toml::table* p = pn.as_table();
        if (!p) return fail(&pn, "[[module.parameter]] must be a table");
        std::string why;
        ExtensionParameter ep{};
        if (!UserCatalogBuilder::ParameterFrom(c.get(), *p, index, &ep, &why)) return fail(&pn, why);
        c->param_store_.push_back(ep);
      }
  }
  std::sort(c->param_store_.begin(), c->param_store_.end(), [](const ExtensionParameter& a, const ExtensionParameter& b) {
    return AsciiLower(a.param.name) < AsciiLower(b.param.name);
  });
  c->modules_ = c->module_store_;
  c->params_ = c->param_store_;
  return c;
}

bool UserCatalogBuilder::ParameterFrom(UserExtensionCatalog* c, const toml::table& p, int module,
                                       ExtensionParameter* out, std::string* why) {
  auto Keep = [c](std::string s) { return c->Keep(std::move(s)); };
  static const char* const kKeys[] = {"name", "type", "context", "default", "min", "max", "unit", "values",
                                      "description", "defined-by-load"};
  for (const auto& entry : p) {
    const std::string_view key = entry.first.str();  // clang 14 cannot capture a structured binding
    if (std::find_if(std::begin(kKeys), std::end(kKeys), [&](const char* x) { return key == x; }) ==
        std::end(kKeys)) {
      *why = "unknown parameter key \"" + std::string(key) + "\"";
      return false;
    }
  }
  std::string name = p["name"].value_or(std::string());
  if (name.find('.') == std::string::npos) {
    *why = "a parameter name needs the module's prefix and a dot (\"citus.shard_count\")";
    return false;
  }
  Parameter& q = out->param;
  q = Parameter{};
  q.name = Keep(name);
  if (!EnumOf(p["type"].value_or(std::string("string")), kTypes, std::size(kTypes), &q.type)) {
    *why = "type must be bool, integer, real, string or enum";
    return false;
  }
  if (!EnumOf(p["context"].value_or(std::string("user")), kContexts, std::size(kContexts), &q.context)) {
    *why = "context must be one of postmaster, sighup, superuser-backend, backend, superuser, user";
    return false;
  }
  std::string unit = p["unit"].value_or(std::string());
  q.unit = Keep(unit);
  q.unit_kind = UnitKind::kNone;
  if (!unit.empty()) {
    Quantity qty;
    std::string e;
    if (!ParseQuantity(isdigit(static_cast<unsigned char>(unit[0])) ? unit : "1" + unit, &qty, &e) ||
        qty.dim == Dim::kNone) {
      *why = "unit must be one of pg_settings' units (kB, 8kB, MB, ms, s, min...)";
      return false;
    }
    q.unit_kind = qty.dim == Dim::kBytes ? UnitKind::kMemory : UnitKind::kTime;
    q.unit_amount = qty.value;
  }
  std::string min = p["min"].value_or(std::string()), max = p["max"].value_or(std::string());
  q.min_val = Keep(min);
  q.max_val = Keep(max);
  q.min = min.empty() ? -1e300 : strtod(min.c_str(), nullptr);
  q.max = max.empty() ? 1e300 : strtod(max.c_str(), nullptr);
  std::vector<const char*>& values = c->string_lists_.emplace_back();
  if (const toml::array* vs = p["values"].as_array())
    for (const toml::node& v : *vs) values.push_back(Keep(v.value_or(std::string())));
  q.enumvals = values;
  std::string def = p["default"].value_or(std::string());
  q.boot_val = Keep(def);
  q.has_boot_val = true;
  q.category = Keep("Customized Options");
  q.short_desc = Keep(p["description"].value_or(std::string()));
  q.extra_desc = q.file_message = q.alter_system_message = "";
  q.in_pg_settings = q.file_accepted = q.alter_system_accepted = true;
  q.majors = 0;  // a user's catalog does not say in which majors the module exists
  out->module = module;
  out->defined_by_load = p["defined-by-load"].value_or(q.context != Context::kPostmaster);
  return true;
}

// --- The set of catalogs of one lint ------------------------------------------

const ExtensionParameter* ExtensionSet::Find(std::string_view name, const ExtensionCatalog** from) const {
  for (const ExtensionCatalog* c : user)
    if (const ExtensionParameter* p = c->Find(name)) {
      if (from) *from = c;
      return p;
    }
  // A module the user describes hides the built-in knowledge of its prefixes.
  if (size_t dot = name.find('.'); dot != std::string_view::npos)
    for (const ExtensionCatalog* c : user)
      if (c->ModuleForPrefix(name.substr(0, dot))) return nullptr;
  const ExtensionParameter* p = builtin ? builtin->Find(name) : nullptr;
  if (p && from) *from = builtin;
  return p;
}

const ExtensionModule* ExtensionSet::FindModule(std::string_view name) const {
  for (const ExtensionCatalog* c : user)
    if (const ExtensionModule* m = c->FindModule(name)) return m;
  return builtin ? builtin->FindModule(name) : nullptr;
}

const ExtensionModule* ExtensionSet::ModuleForPrefix(std::string_view prefix, const ExtensionPrefix** which) const {
  for (const ExtensionCatalog* c : user)
    if (const ExtensionModule* m = c->ModuleForPrefix(prefix, which)) return m;
  return builtin ? builtin->ModuleForPrefix(prefix, which) : nullptr;
}

std::vector<std::string> ExtensionSet::ModuleNames() const {
  std::vector<std::string> out;
  for (const ExtensionCatalog* c : user)
    for (const ExtensionModule& m : c->modules()) out.push_back(m.name);
  if (builtin)
    for (const ExtensionModule& m : builtin->modules()) out.push_back(m.name);
  return out;
}

const ExtensionModule& ExtensionSet::ModuleOf(const ExtensionParameter& p) const {
  auto owns = [&](const ExtensionCatalog* c) {
    auto ps = c->parameters();
    return !ps.empty() && &p >= &ps.front() && &p <= &ps.back();
  };
  for (const ExtensionCatalog* c : user)
    if (owns(c)) return c->modules()[p.module];
  return builtin->modules()[p.module];
}

}  // namespace pgconflint
