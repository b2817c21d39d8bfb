// Where settings come from. A SettingsSource reads one kind of input (a
// postgresql.conf tree today; SQL scripts and running servers plug in beside
// it) and appends its files, settings (in the order the server applies them)
// and reading diagnostics to an Analysis. Files are read through a FileCache:
// once per cache lifetime, through the injected FileSystem.
#ifndef PGCONFLINT_CORE_MODEL_SETTINGS_SOURCE_H_
#define PGCONFLINT_CORE_MODEL_SETTINGS_SOURCE_H_

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/model/analysis.h"
#include "core/base/file_system.h"
#include "core/base/host.h"
#include "core/base/limits.h"
#include "core/model/syntax.h"

namespace pgconflint {

/// Reads and parses files through a FileSystem, each at most once until it is
/// forgotten. Not thread-safe.
class FileCache {
 public:
  struct Entry {
    explicit Entry(SourceFile s) : source(std::move(s)), text(source.text()) {}
    Entry(const Entry&) = delete;
    Entry& operator=(const Entry&) = delete;
    SourceFile source;        // named by its absolute path; copies share the text
    const std::string& text;  // source.text()
    ParsedFile parsed;
  };
  /// REQUIRES: `fs` outlives the cache.
  explicit FileCache(const FileSystem& fs) : fs_(fs) {}
  /// The text and parse of `abs_path` (absolute, canonical); null with
  /// *status and *error when it cannot be read.
  std::shared_ptr<const Entry> Get(const std::string& abs_path, ReadStatus* status, std::string* error);
  /// The text of `abs_path` without parsing it (the classifier looks at the
  /// lines of files it may never lint); read once, shared with Get. Null
  /// when it cannot be read.
  SharedText Text(const std::string& abs_path);
  /// The text held for `abs_path`, as last read; null when it was not read
  /// (or was forgotten since).
  SharedText Held(const std::string& abs_path) const;
  /// Drops one file (it changed) or every file. The entry of the file last
  /// dropped is kept aside: its next parse starts from it (Reparse), which
  /// parses only the lines that changed, as in an editor's keystroke.
  void Forget(const std::string& abs_path);
  void Clear() {
    entries_.clear();
    texts_.clear();
    forgotten_.reset();
  }
  const FileSystem& fs() const { return fs_; }

 private:
  const FileSystem& fs_;
  std::map<std::string, std::shared_ptr<const Entry>> entries_;
  std::map<std::string, SharedText> texts_;  // read by Text, not parsed yet
  std::shared_ptr<const Entry> forgotten_;  // the entry Forget dropped last; null when none
};

struct CollectContext {
  // `{&cache, display_base}` reads as before; the other fields default.
  CollectContext(FileCache* cache = nullptr, std::string base = "") : files(cache), display_base(std::move(base)) {}
  FileCache* files = nullptr;  // REQUIRES: non-null
  /// Paths below this directory (absolute) are shown relative to it; "" = as given.
  std::string display_base;
  /// Where files may be read from besides the root's own tree (the directory
  /// of the root file, or the data directory): absolute directories, their
  /// symbolic links resolved (FileSystem::RealPath), e.g. the directory of
  /// the project's .pgconflint.toml. A file whose real path lies outside is
  /// never read: an include of it is PGC305, a root resolving there an error.
  std::vector<std::string> trees;
  bool allow_outside = false;  // read files wherever they are (--allow-outside-includes)
  /// The root read from standard input (--stdin-filename), absolute; "":
  /// none. Its name does not choose its tree: see AddRootTrees.
  std::string stdin_file;
  RootLimits limits;           // what one root may read and hold (core/base/limits.h)
  /// The server's host, for values that depend on it (SQL statements are
  /// checked when collected); null: nothing is known about it.
  const HostFacts* host = nullptr;
};

/// Adds the tree of root `abs` (a file, or a data directory when `is_dir`)
/// to *trees: its directory (a data directory: itself), links resolved. The
/// root read from standard input (ctx.stdin_file) is named by the caller,
/// not found on disk, so its directory is its tree only inside the current
/// directory; elsewhere (--stdin-filename /etc/x.conf) the tree is the
/// current directory, and the root itself.
void AddRootTrees(const CollectContext& ctx, const FileSystem& fs, const std::string& abs, bool is_dir,
                  std::vector<std::string>* trees);

/// `abs` relative to `base` when it lies below it, else `abs`.
std::string DisplayPath(const std::string& abs, const std::string& base);

/// The Setting of one parsed `name = value` line of analysis file `file`.
Setting SettingFromLine(const SourceFile& source, const SettingLine& line, int file);

class SettingsSource {
 public:
  virtual ~SettingsSource() = default;
  /// Appends what it reads to `out`. When the input itself cannot be read,
  /// sets out->failure and out->failure_message instead.
  virtual void Collect(const CollectContext& context, Analysis* out) const = 0;
};

/// A configuration file with its includes, or a data directory (its
/// postgresql.conf, then postgresql.auto.conf), read as the server reads them.
class ConfTreeSource : public SettingsSource {
 public:
  explicit ConfTreeSource(std::string root) : root_(std::move(root)) {}
  void Collect(const CollectContext& context, Analysis* out) const override;

 private:
  std::string root_;
};

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_MODEL_SETTINGS_SOURCE_H_
