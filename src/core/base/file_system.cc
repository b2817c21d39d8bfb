// The real file system and the overlay.
#include "core/base/file_system.h"
#include "core/base/strings.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <set>

namespace pgconflint {
namespace {

std::string TooLargeMessage() {
  return "file is larger than " + std::to_string(kMaxFileSize >> 20) + " MiB (pgconflint's limit)";
}

// What a file that is not a regular one is, for messages ("not a regular
// file (a FIFO)"); conf_tree.cc says what PostgreSQL would do with each.
std::string NotRegularMessage(mode_t mode) {
  const char* kind = S_ISFIFO(mode)   ? "a FIFO"
                     : S_ISCHR(mode)  ? "a character device"
                     : S_ISBLK(mode)  ? "a block device"
                     : S_ISSOCK(mode) ? "a socket"
                                      : "a special file";
  return std::string("not a regular file (") + kind + ")";
}

}  // namespace

std::string CanonicalizePath(const std::string& path) {
  bool absolute = !path.empty() && path[0] == '/';
  std::vector<std::string> parts;
  size_t i = 0;
  while (i <= path.size()) {
    size_t j = path.find('/', i);
    if (j == std::string::npos) j = path.size();
    std::string part = path.substr(i, j - i);
    if (part.empty() || part == ".") {
    } else if (part == "..") {
      if (!parts.empty() && parts.back() != "..") parts.pop_back();
      else if (!absolute) parts.push_back(part);
    } else {
      parts.push_back(part);
    }
    i = j + 1;
  }
  std::string out = absolute ? "/" : "";
  for (size_t k = 0; k < parts.size(); ++k) out += (k ? "/" : "") + parts[k];
  if (out.empty()) out = ".";
  return out;
}

std::string ParentDirectory(const std::string& path) {
  size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

std::string ChildPath(const std::string& dir, const std::string& name) {
  return (!dir.empty() && dir.back() == '/' ? dir : dir + "/") + name;
}

std::string AbsolutePath(const FileSystem& fs, const std::string& path) {
  if (!path.empty() && path[0] == '/') return CanonicalizePath(path);
  return CanonicalizePath(fs.CurrentDirectory() + "/" + path);
}

// --- RealFileSystem -----------------------------------------------------------

ReadStatus RealFileSystem::Read(const std::string& path, std::string* text, std::string* error) const {
  // Open without blocking (a FIFO would wait for a writer), then look at what
  // was opened: only regular files are read, and their size is checked first.
  int fd = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) {
    int err = errno;
    *error = strerror(err);
    if (err == ENOENT || err == ENOTDIR) return ReadStatus::kNotFound;
    if (err == EISDIR) return ReadStatus::kIsDirectory;
    return ReadStatus::kNotReadable;
  }
  struct stat st;
  if (fstat(fd, &st) != 0) {
    *error = strerror(errno);
    close(fd);
    return ReadStatus::kNotReadable;
  }
  if (S_ISDIR(st.st_mode)) {
    close(fd);
    *error = "is a directory";
    return ReadStatus::kIsDirectory;
  }
  if (!S_ISREG(st.st_mode)) {
    close(fd);
    *error = NotRegularMessage(st.st_mode);
    return ReadStatus::kNotRegular;
  }
  if (static_cast<uint64_t>(st.st_size) > kMaxFileSize) {
    close(fd);
    *error = TooLargeMessage();
    return ReadStatus::kTooLarge;
  }
  text->clear();
  text->reserve(static_cast<size_t>(st.st_size));
  char buf[1 << 16];
  for (;;) {
    ssize_t n = read(fd, buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      *error = strerror(errno);
      close(fd);
      return ReadStatus::kNotReadable;
    }
    if (n == 0) break;
    text->append(buf, static_cast<size_t>(n));
    if (text->size() > kMaxFileSize) {  // grew while we read it
      close(fd);
      *error = TooLargeMessage();
      return ReadStatus::kTooLarge;
    }
  }
  close(fd);
  return ReadStatus::kOk;
}

FileInfo RealFileSystem::Stat(const std::string& path) const {
  FileInfo info;
  struct stat st;
  if (stat(path.c_str(), &st) != 0) {
    info.error = strerror(errno);
    info.type = errno == ENOENT || errno == ENOTDIR ? FileInfo::Type::kMissing : FileInfo::Type::kError;
    return info;
  }
  info.size = static_cast<uint64_t>(st.st_size);
  info.type = S_ISREG(st.st_mode)   ? FileInfo::Type::kRegular
              : S_ISDIR(st.st_mode) ? FileInfo::Type::kDirectory
                                    : FileInfo::Type::kOther;
  return info;
}

bool RealFileSystem::List(const std::string& dir, std::vector<DirEntry>* out, std::string* error) const {
  DIR* d = opendir(dir.c_str());
  if (!d) {
    *error = strerror(errno);
    return false;
  }
  while (dirent* e = readdir(d)) {
    std::string n = e->d_name;
    if (n == "." || n == "..") continue;
    out->push_back({std::move(n)});
  }
  closedir(d);
  return true;
}

std::string RealFileSystem::CurrentDirectory() const {
  char buf[4096];
  return getcwd(buf, sizeof buf) ? std::string(buf) : std::string("/");
}

std::string RealFileSystem::RealPath(const std::string& path) const {
  // realpath(3) needs every component to exist: resolve the longest prefix
  // that does and keep the rest as written. A dangling link or a link loop
  // stays unresolved; opening it fails later without reading anything.
  std::string prefix = CanonicalizePath(path);
  std::string rest;
  for (;;) {
    if (char* r = realpath(prefix.c_str(), nullptr)) {
      std::string out(r);
      free(r);
      return rest.empty() ? out : CanonicalizePath(out + "/" + rest);
    }
    if (prefix == "/" || prefix.find('/') == std::string::npos) return CanonicalizePath(path);
    std::string last = prefix.substr(prefix.rfind('/') + 1);
    rest = rest.empty() ? last : last + "/" + rest;
    prefix = ParentDirectory(prefix);
  }
}

ReadStatus FileSystem::ReadShared(const std::string& path, SharedText* text, std::string* error) const {
  std::string read;
  ReadStatus status = Read(path, &read, error);
  if (status == ReadStatus::kOk) *text = std::make_shared<const std::string>(std::move(read));
  return status;
}

// --- OverlayFileSystem ----------------------------------------------------------

OverlayFileSystem::OverlayFileSystem(const FileSystem* base, std::string cwd)
    : base_(base), cwd_(base && cwd == "/" ? base->CurrentDirectory() : std::move(cwd)) {}

std::string OverlayFileSystem::Absolute(const std::string& path) const {
  if (!path.empty() && path[0] == '/') return CanonicalizePath(path);
  return CanonicalizePath(cwd_ + "/" + path);
}

void OverlayFileSystem::Set(const std::string& path, std::string text) {
  Set(path, std::make_shared<const std::string>(std::move(text)));
}

void OverlayFileSystem::Set(const std::string& path, SharedText text) { files_[Absolute(path)] = std::move(text); }

SharedText OverlayFileSystem::Get(const std::string& path) const {
  auto it = files_.find(Absolute(path));
  return it == files_.end() ? nullptr : it->second;
}

void OverlayFileSystem::Remove(const std::string& path) { files_.erase(Absolute(path)); }

bool OverlayFileSystem::Has(const std::string& path) const { return files_.count(Absolute(path)) > 0; }

bool OverlayFileSystem::IsOverlayDirectory(const std::string& dir) const {
  std::string prefix = dir == "/" ? "/" : dir + "/";
  auto it = files_.lower_bound(prefix);
  return it != files_.end() && it->first.compare(0, prefix.size(), prefix) == 0;
}

std::optional<ReadStatus> OverlayFileSystem::Overlaid(const std::string& abs, SharedText* text,
                                                     std::string* error) const {
  auto it = files_.find(abs);
  if (it != files_.end()) {
    if (it->second->size() > kMaxFileSize) {
      *error = TooLargeMessage();
      return ReadStatus::kTooLarge;
    }
    *text = it->second;
    return ReadStatus::kOk;
  }
  if (IsOverlayDirectory(abs)) {
    *error = "is a directory";
    return ReadStatus::kIsDirectory;
  }
  if (base_) return std::nullopt;
  *error = strerror(ENOENT);
  return ReadStatus::kNotFound;
}

ReadStatus OverlayFileSystem::Read(const std::string& path, std::string* text, std::string* error) const {
  const std::string abs = Absolute(path);
  SharedText shared;
  std::optional<ReadStatus> status = Overlaid(abs, &shared, error);
  if (!status) return base_->Read(abs, text, error);
  if (*status == ReadStatus::kOk) *text = *shared;
  return *status;
}

ReadStatus OverlayFileSystem::ReadShared(const std::string& path, SharedText* text, std::string* error) const {
  const std::string abs = Absolute(path);
  std::optional<ReadStatus> status = Overlaid(abs, text, error);
  return status ? *status : base_->ReadShared(abs, text, error);
}

FileInfo OverlayFileSystem::Stat(const std::string& path) const {
  std::string abs = Absolute(path);
  auto it = files_.find(abs);
  if (it != files_.end()) return {FileInfo::Type::kRegular, it->second->size(), ""};
  if (IsOverlayDirectory(abs)) return {FileInfo::Type::kDirectory, 0, ""};
  if (base_) return base_->Stat(abs);
  return {FileInfo::Type::kMissing, 0, strerror(ENOENT)};
}

bool OverlayFileSystem::List(const std::string& dir, std::vector<DirEntry>* out, std::string* error) const {
  std::string abs = Absolute(dir);
  std::set<std::string> names;
  bool listed = false;
  if (base_) {
    std::vector<DirEntry> base_entries;
    std::string base_error;
    if (base_->List(abs, &base_entries, &base_error)) {
      listed = true;
      for (DirEntry& e : base_entries) names.insert(std::move(e.name));
    } else {
      *error = base_error;
    }
  }
  std::string prefix = abs == "/" ? "/" : abs + "/";
  for (auto it = files_.lower_bound(prefix); it != files_.end() && it->first.compare(0, prefix.size(), prefix) == 0;
       ++it) {
    std::string rest = it->first.substr(prefix.size());
    names.insert(rest.substr(0, rest.find('/')));
    listed = true;
  }
  if (!listed) {
    if (!base_) *error = strerror(ENOENT);
    return false;
  }
  for (const std::string& n : names) out->push_back({n});
  return true;
}

std::string OverlayFileSystem::CurrentDirectory() const { return cwd_; }

std::string OverlayFileSystem::RealPath(const std::string& path) const {
  std::string abs = Absolute(path);
  return base_ ? base_->RealPath(abs) : abs;
}

ReadStatus ReadDataFile(const FileSystem& fs, const std::string& path, std::string* text, std::string* error) {
  const std::string too_large =
      "file is larger than " + std::to_string(kMaxDataFileSize >> 20) + " MiB (pgconflint's limit for TOML and JSON)";
  FileInfo info = fs.Stat(path);
  if (info.type == FileInfo::Type::kRegular && info.size > kMaxDataFileSize) {
    *error = too_large;
    return ReadStatus::kTooLarge;
  }
  ReadStatus status = fs.Read(path, text, error);
  if (status == ReadStatus::kOk && text->size() > kMaxDataFileSize) {  // grew since
    text->clear();
    *error = too_large;
    return ReadStatus::kTooLarge;
  }
  return status;
}

// --- Confinement ------------------------------------------------------------------

bool InsideTrees(const FileSystem& fs, const std::string& path, const std::vector<std::string>& trees,
                 std::string* resolved) {
  std::string real = fs.RealPath(path);
  if (resolved) *resolved = real;
  for (const std::string& t : trees)
    if (real == t || (real.size() > t.size() && real.compare(0, t.size(), t) == 0 &&
                      (t.back() == '/' || real[t.size()] == '/')))
      return true;
  return false;
}

ConfinedFileSystem::ConfinedFileSystem(const FileSystem& base, std::vector<std::string> trees, std::string why)
    : base_(base), trees_(std::move(trees)), why_(std::move(why)) {}

bool ConfinedFileSystem::Refuse(const std::string& path, std::string* error) const {
  std::string real;
  if (InsideTrees(base_, path, trees_, &real)) return false;
  *error = (real == path ? "" : "resolves to " + real + ", ") + "outside " + CommaList(trees_) + ": not read " + why_;
  return true;
}

ReadStatus ConfinedFileSystem::Read(const std::string& path, std::string* text, std::string* error) const {
  if (Refuse(path, error)) return ReadStatus::kNotReadable;
  return base_.Read(path, text, error);
}

bool ConfinedFileSystem::List(const std::string& dir, std::vector<DirEntry>* out, std::string* error) const {
  if (Refuse(dir, error)) return false;
  return base_.List(dir, out, error);
}

}  // namespace pgconflint
