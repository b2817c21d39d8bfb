// What the server does with the parameters of loadable modules
// (docs/postgresql-semantics.md#extension-parameters): a module parameter is
// a placeholder until the module is loaded; shared_preload_libraries loads
// it at start, session_preload_libraries at each session start, archive_library in the archiver, an extension's functions
// on first use. When the module defines the parameter, an invalid value is a
// WARNING and the default is used; an unknown name under a prefix the
// module reserves is dropped; a postmaster-context parameter only exists
// with shared_preload_libraries; a library that does not exist stops the
// server. Unknown modules (citus.*) stay accepted, as the server accepts
// them. Findings PGC161-PGC169 (rules/extensions.toml).
#ifndef PGCONFLINT_CORE_CHECKS_EXTENSIONS_H_
#define PGCONFLINT_CORE_CHECKS_EXTENSIONS_H_

#include <string>
#include <vector>

#include "core/model/analysis.h"
#include "core/knowledge/extension_catalog.h"
#include "core/base/host.h"
#include "core/rules/profile.h"

namespace pgconflint {

/// How the configuration loads one module.
struct ModuleLoad {
  bool shared_preload = false;   // shared_preload_libraries: in the postmaster, at start
  bool session_preload = false;  // session_preload_libraries: each session
  bool archive_library = false;  // archive_library (15+): in the archiver
  bool session_load = false;     // a script's LOAD before the SET in question (set per setting, not by LoadOf)
  bool any() const { return shared_preload || session_preload || archive_library || session_load; }
};

/// The module names (library file names without a directory or ".so") a
/// list setting such as shared_preload_libraries names.
std::vector<std::string> LibraryNames(const std::string& list_value);

/// How `analysis`'s effective configuration loads `module`.
ModuleLoad LoadOf(const Analysis& analysis, const std::string& module);

/// Models every module-parameter setting (a dotted name that a catalog of
/// `extensions` knows) and every library of shared/session_preload_libraries:
/// sets Setting::value, ::applied and ::problem as the server would use the
/// setting, and adds PGC161-PGC165. REQUIRES: the passes ran.
void CheckExtensionSettings(const ExtensionSet& extensions, const HostFacts& host, Analysis* a);

/// The advice rules about modules that need the machine profile or weigh
/// settings together (PGC166-PGC169). REQUIRES: CheckExtensionSettings ran.
void AddExtensionAdvice(const ExtensionSet& extensions, const Profile& profile, Analysis* a);

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_CHECKS_EXTENSIONS_H_
