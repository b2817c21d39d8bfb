// Analysing one root (a configuration file, or a data directory): loading it
// with its includes as PostgreSQL does, resolving duplicates, validating every
// value, and collecting diagnostics.
#ifndef PGCONFLINT_CORE_ANALYSIS_H_
#define PGCONFLINT_CORE_ANALYSIS_H_

#include <optional>
#include <unordered_map>
#include <string>
#include <vector>

#include "core/catalog.h"
#include "core/diagnostic.h"
#include "core/file_system.h"
#include "core/host.h"
#include "core/rules.h"
#include "core/source_file.h"
#include "core/syntax.h"

namespace pgconflint {

/// Where a file was included from.
struct IncludeSite {
  int file = -1;      // index into Analysis::files; -1 for a root file
  uint32_t line = 0;  // 1-based line of the include directive
  uint32_t offset = 0;  // byte offset of the directive in that file
};

/// One file that was read.
struct LoadedFile {
  std::string abs_path;  // as PostgreSQL computes it (AbsoluteConfigLocation)
  SourceFile source;     // source.path() is the display path
  ParsedFile parsed;
  IncludeSite included_from;
  int depth = 0;
  bool auto_conf = false;  // postgresql.auto.conf (written by ALTER SYSTEM)
};

/// One `name = value` line, after PostgreSQL's processing.
struct Setting {
  std::string name;         // as written
  const Parameter* param;   // null for unknown names and custom (dotted) placeholders
  std::string raw;          // the value as written (quotes removed, escapes kept)
  std::string text;         // the value PostgreSQL reads (unescaped)
  std::optional<std::string> value;  // what `postgres -C` prints; nullopt when invalid or unknown
  int file;
  uint32_t line;
  Range name_range;
  Range value_range;
  bool ignored = false;     // a later line with the same name wins (PGC303)
  bool applied = false;     // not ignored and valid
  double number = 0;        // integer/real value in the base unit when applied
};

/// Everything known about one root.
struct Analysis {
  std::string root;  // the PATH as given
  const Catalog* catalog = nullptr;
  std::vector<LoadedFile> files;
  std::vector<Setting> settings;  // in PostgreSQL's reading order
  std::vector<Diagnostic> diagnostics;  // sorted by file, position, code

  /// Set when the root itself cannot be analysed (missing, unreadable, binary).
  enum class Failure { kNone, kUsage, kIo } failure = Failure::kNone;
  std::string failure_message;

  /// True when PostgreSQL would refuse to start with this configuration
  /// (whatever suppressions and rule selection hid from the report).
  bool fatal() const;
  /// Set by the linter before it filters diagnostics.
  std::optional<bool> fatal_before_filters;

  /// The include chain of `file`, outermost first (empty for a root file).
  std::vector<IncludeSite> IncludeChain(int file) const;
  /// The applied setting that decides `name` (last one wins), or null.
  const Setting* Effective(std::string_view name) const;
  /// A key that orders positions as PostgreSQL reads them (includes expanded
  /// where they stand): the offsets along the include chain, then `offset`.
  std::vector<uint32_t> ReadingOrder(int file, uint32_t offset) const;
  /// Sorts diagnostics in reading order, then by code (stable).
  void SortDiagnostics();

 private:
  // Effective()'s index: lower-cased resolved name -> the deciding setting.
  mutable std::unordered_map<std::string, size_t> effective_index_;  // indices: safe to copy
  mutable bool effective_indexed_ = false;
};

struct AnalyzeOptions {
  const Catalog* catalog = nullptr;  // REQUIRES: non-null
  const FileSystem* fs = nullptr;    // null: the real disk
  const HostFacts* host = nullptr;   // null: this machine, taken to be the server's host
  /// Directory paths are shown relative to (an absolute path); "" = absolute paths.
  std::string display_base;
};

/// Analyses `root` (a file or a data directory). Never throws.
Analysis Analyze(const std::string& root, const AnalyzeOptions& options);

/// Analyses configuration text as if it were the file `name` (for tests, examples and editors).
Analysis AnalyzeText(const std::string& name, const std::string& text, const AnalyzeOptions& options);

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_ANALYSIS_H_
