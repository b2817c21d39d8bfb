// The knowledge about loadable modules (extensions): per major, every
// module of the build with what loading it does, and the parameters each
// defines, as pg_settings shows them with the module loaded. Generated at
// build time from knowledge/extensions/pg<major>.json (harvested by
// scripts/harvest_knowledge.py --part extensions); a user catalog file
// (`extension-catalog` in .pgconflint.toml, --extension-catalog) adds
// modules we ship no knowledge for, in the format of
// docs/extension-catalog.md.
#ifndef PGCONFLINT_CORE_KNOWLEDGE_EXTENSION_CATALOG_H_
#define PGCONFLINT_CORE_KNOWLEDGE_EXTENSION_CATALOG_H_

#include <deque>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/knowledge/catalog.h"
#include "core/base/file_system.h"

namespace pgconflint {

/// What the server does with a name under one of a module's prefixes that
/// the module does not define, once the module is loaded.
struct ExtensionPrefix {
  const char* prefix;       // "auto_explain"
  bool reserved;            // 15+: MarkGUCPrefixReserved (SET refuses such names)
  bool placeholder_kept;    // a file's unknown name stays as a placeholder (14) or is removed (15+)
  const char* warning;      // the WARNING the server logs at start for such a line ("" when unknown)
};

struct ExtensionModule {
  const char* name;               // the library's file name without .so: "pg_stat_statements"
  bool session_loadable;          // LOAD in a session succeeds
  const char* session_message;    // the error when it does not
  bool preloadable;               // the server starts with it in shared_preload_libraries
  const char* preload_message;    // the FATAL when it does not
  std::span<const char* const> extensions;  // CREATE EXTENSION names whose functions load it
  std::span<const ExtensionPrefix> prefixes;
};

struct ExtensionParameter {
  Parameter param;          // as pg_settings shows it with the module loaded
  int module;               // index into ExtensionCatalog::modules()
  bool defined_by_load;     // LOAD in a session defines it (else only shared_preload_libraries does)
  double shared_memory_per_unit;  // bytes of shared memory per unit of the value (15+ measured); 0 unknown
};

/// The module a library names: "$libdir/x", "/path/to/x.so" and "x.so" all
/// name module x (the file name without a directory or ".so").
std::string ModuleName(std::string_view library);

/// The modules of one major (built-in), or of a user catalog file. Immutable
/// once built; thread-safe to read.
class ExtensionCatalog {
 public:
  /// The built-in catalog of `major`, or null.
  static const ExtensionCatalog* ForMajor(int major);

  ExtensionCatalog(int major, std::span<const ExtensionModule> modules, std::span<const ExtensionParameter> params)
      : major_(major), modules_(modules), params_(params) {}
  ExtensionCatalog(const ExtensionCatalog&) = delete;
  ExtensionCatalog& operator=(const ExtensionCatalog&) = delete;

  int major() const { return major_; }
  std::span<const ExtensionModule> modules() const { return modules_; }
  std::span<const ExtensionParameter> parameters() const { return params_; }
  /// Case-insensitive, as guc.c finds custom parameters; null if none.
  const ExtensionParameter* Find(std::string_view name) const;
  /// By library name (case-sensitive, as file names are); null if none.
  const ExtensionModule* FindModule(std::string_view name) const;
  /// The module that owns `prefix` (case-insensitive); null if none.
  const ExtensionModule* ModuleForPrefix(std::string_view prefix, const ExtensionPrefix** which = nullptr) const;

 protected:
  int major_;
  std::span<const ExtensionModule> modules_;
  std::span<const ExtensionParameter> params_;
};

/// A user catalog read from a TOML file, owning its strings.
class UserExtensionCatalog : public ExtensionCatalog {
 public:
  /// Reads `path` through `fs` for `major`; null with *error ("FILE:LINE:
  /// cause") when the file cannot be read or is malformed.
  static std::unique_ptr<UserExtensionCatalog> Load(const FileSystem& fs, const std::string& path, int major,
                                                     std::string* error);
  /// The same from text already read (`path` names it in errors).
  static std::unique_ptr<UserExtensionCatalog> Parse(std::string_view text, const std::string& path, int major,
                                                      std::string* error);

 private:
  friend struct UserCatalogBuilder;
  UserExtensionCatalog() : ExtensionCatalog(0, {}, {}) {}
  const char* Keep(std::string s);
  std::deque<std::string> strings_;
  std::deque<std::vector<const char*>> string_lists_;
  std::deque<std::vector<ExtensionPrefix>> prefix_lists_;
  std::vector<ExtensionModule> module_store_;
  std::vector<ExtensionParameter> param_store_;
};

/// The catalogs one lint consults: the user's first (they may describe a
/// module anew), then the built-in one. Neither is owned.
struct ExtensionSet {
  const ExtensionCatalog* builtin = nullptr;
  std::vector<const ExtensionCatalog*> user;

  const ExtensionParameter* Find(std::string_view name, const ExtensionCatalog** from = nullptr) const;
  const ExtensionModule* FindModule(std::string_view name) const;
  const ExtensionModule* ModuleForPrefix(std::string_view prefix, const ExtensionPrefix** which = nullptr) const;
  /// Every known module name (for "did you mean").
  std::vector<std::string> ModuleNames() const;
  /// The module `p` belongs to (in the catalog that holds it).
  const ExtensionModule& ModuleOf(const ExtensionParameter& p) const;
};

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_KNOWLEDGE_EXTENSION_CATALOG_H_
