// The file-system seam. Every read the analysis makes goes through a
// FileSystem: the real disk, or an overlay of unsaved editor buffers (or test
// files) over another file system. Paths are absolute and canonical
// (CanonicalizePath) when they reach it.
#ifndef PGCONFLINT_CORE_BASE_FILE_SYSTEM_H_
#define PGCONFLINT_CORE_BASE_FILE_SYSTEM_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/base/limits.h"

namespace pgconflint {

/// Outcome of reading a file.
enum class ReadStatus {
  kOk,
  kNotFound,     // no such file (or a path component is not a directory)
  kNotReadable,  // permission denied, I/O error
  kIsDirectory,
  kNotRegular,   // a FIFO, socket or device: never read (it could block or never end)
  kTooLarge,     // larger than kMaxFileSize (core/base/limits.h)
};

/// What a path is, without reading it.
struct FileInfo {
  enum class Type { kMissing, kRegular, kDirectory, kOther, kError } type = Type::kMissing;
  uint64_t size = 0;
  std::string error;  // strerror text for kMissing/kError
};

/// A file's text, immutable and shared by its holders (an editor's buffer,
/// the file cache, the source files of analyses) instead of copied.
using SharedText = std::shared_ptr<const std::string>;

struct DirEntry {
  std::string name;  // no directory part; never "." or ".."
};

/// Thread-compatible; implementations are cheap to query repeatedly.
class FileSystem {
 public:
  virtual ~FileSystem() = default;
  /// Reads a regular file of at most kMaxFileSize bytes. On failure returns
  /// the status and sets *error to the cause ("No such file or directory").
  virtual ReadStatus Read(const std::string& path, std::string* text, std::string* error) const = 0;
  /// Read, giving the text as a SharedText: a file system that holds the
  /// text already (the overlay) shares it instead of copying it. A subclass
  /// that overrides Read of such a file system overrides this too.
  virtual ReadStatus ReadShared(const std::string& path, SharedText* text, std::string* error) const;
  /// Follows symbolic links, as stat(2).
  virtual FileInfo Stat(const std::string& path) const = 0;
  /// The entries of a directory, in no particular order. False with *error
  /// when it cannot be opened.
  virtual bool List(const std::string& dir, std::vector<DirEntry>* out, std::string* error) const = 0;
  /// The directory relative paths start from (absolute).
  virtual std::string CurrentDirectory() const = 0;
  /// `path` (absolute, canonical) with its symbolic links resolved, as
  /// realpath(3) would; components that do not exist are kept as written.
  /// Defaults to the path itself (a file system without links).
  virtual std::string RealPath(const std::string& path) const { return path; }
};

/// The disk of this machine.
class RealFileSystem : public FileSystem {
 public:
  ReadStatus Read(const std::string& path, std::string* text, std::string* error) const override;
  FileInfo Stat(const std::string& path) const override;
  bool List(const std::string& dir, std::vector<DirEntry>* out, std::string* error) const override;
  std::string CurrentDirectory() const override;
  std::string RealPath(const std::string& path) const override;
};

/// Files held in memory over a base file system (null base: an empty disk
/// whose current directory is "/"). An overlaid file hides the base's file of
/// the same path and appears in its directory's listing; its directories
/// exist. Used for unsaved editor buffers and for tests.
class OverlayFileSystem : public FileSystem {
 public:
  explicit OverlayFileSystem(const FileSystem* base = nullptr, std::string cwd = "/");
  /// Adds or replaces the file at `path` (absolute or relative to the cwd).
  void Set(const std::string& path, std::string text);
  /// The same, sharing `text`. REQUIRES: `text` is not null.
  void Set(const std::string& path, SharedText text);
  /// The text overlaid at `path`; null when none is.
  SharedText Get(const std::string& path) const;
  /// Forgets an overlaid file (the base's file shows again).
  void Remove(const std::string& path);
  bool Has(const std::string& path) const;

  ReadStatus Read(const std::string& path, std::string* text, std::string* error) const override;
  ReadStatus ReadShared(const std::string& path, SharedText* text, std::string* error) const override;
  FileInfo Stat(const std::string& path) const override;
  bool List(const std::string& dir, std::vector<DirEntry>* out, std::string* error) const override;
  std::string CurrentDirectory() const override;
  /// The base's resolution (an overlaid file is where it is overlaid).
  std::string RealPath(const std::string& path) const override;

 private:
  std::string Absolute(const std::string& path) const;
  bool IsOverlayDirectory(const std::string& dir) const;
  /// What the overlay answers for `abs`: its file, or a directory it holds
  /// files in; nullopt when the base answers.
  std::optional<ReadStatus> Overlaid(const std::string& abs, SharedText* text, std::string* error) const;
  const FileSystem* base_;
  std::string cwd_;
  std::map<std::string, SharedText> files_;  // absolute path -> text (never null)
};

/// Reads only files inside some directories ("trees"): a file whose real path
/// (symbolic links resolved) lies elsewhere is refused as kNotReadable with
/// *error saying why, and its directories cannot be listed. Used for files a
/// repository names (rule files in .pgconflint.toml), so that it cannot make
/// pgconflint read and echo a host file such as /etc/shadow.
class ConfinedFileSystem : public FileSystem {
 public:
  /// `trees`: absolute directories with their links resolved (RealPath).
  /// `why`: the end of the refusal, e.g. "(allow-outside-includes reads it)".
  /// REQUIRES: `base` outlives this object.
  ConfinedFileSystem(const FileSystem& base, std::vector<std::string> trees, std::string why);
  ReadStatus Read(const std::string& path, std::string* text, std::string* error) const override;
  FileInfo Stat(const std::string& path) const override { return base_.Stat(path); }
  bool List(const std::string& dir, std::vector<DirEntry>* out, std::string* error) const override;
  std::string CurrentDirectory() const override { return base_.CurrentDirectory(); }
  std::string RealPath(const std::string& path) const override { return base_.RealPath(path); }

 private:
  bool Refuse(const std::string& path, std::string* error) const;
  const FileSystem& base_;
  std::vector<std::string> trees_;
  std::string why_;
};

/// Whether `path` (absolute), its links resolved through `fs`, lies in one of
/// `trees` (absolute directories, links resolved) or is one of them. Sets
/// *resolved (optional) to the resolved path.
bool InsideTrees(const FileSystem& fs, const std::string& path, const std::vector<std::string>& trees,
                 std::string* resolved = nullptr);

/// Reads a TOML or JSON file (rule files, .pgconflint.toml, --running): as
/// fs.Read, but a file over kMaxDataFileSize bytes is kTooLarge, refused
/// before it is read.
ReadStatus ReadDataFile(const FileSystem& fs, const std::string& path, std::string* text, std::string* error);

/// `path` made absolute against `fs`'s current directory and canonicalized.
std::string AbsolutePath(const FileSystem& fs, const std::string& path);

/// PostgreSQL's canonicalize_path, lexically: collapses "//", "/./" and
/// "dir/..", and drops a trailing slash.
std::string CanonicalizePath(const std::string& path);

/// The directory part of a path ("." when it has none, "/" for a root file).
std::string ParentDirectory(const std::string& path);
/// `name` in directory `dir`: "/x" in "/" ("//x" would be another path to every comparison).
std::string ChildPath(const std::string& dir, const std::string& name);

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_BASE_FILE_SYSTEM_H_
