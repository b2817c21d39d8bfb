// Temp file + fsync + rename, in the target's directory (rename is atomic
// only within one file system).
#include "core/base/atomic_write.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>

namespace pgconflint {
namespace {

// The file a write to `path` must replace: the target of a symbolic link, so
// that the link itself survives (as editors do).
std::string ResolveTarget(const std::string& path) {
  struct stat st;
  if (lstat(path.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return path;
  char buf[PATH_MAX];
  if (!realpath(path.c_str(), buf)) return path;  // dangling: replace the link
  return buf;
}

bool WriteAll(int fd, const std::string& content) {
  size_t done = 0;
  while (done < content.size()) {
    ssize_t n = write(fd, content.data() + done, content.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    done += static_cast<size_t>(n);
  }
  return true;
}

}  // namespace

bool WriteFileAtomically(const std::string& path, const std::string& content, std::string* error) {
  const std::string target = ResolveTarget(path);
  // What the file is must survive its new bytes: its owner, group and mode
  // (`sudo pgconflint check --fix` must not hand postgres's 0600 file to
  // root), its hard links (a rename would split them) and its being read-only.
  struct stat st;
  const bool exists = stat(target.c_str(), &st) == 0;
  if (exists && st.st_nlink > 1) {
    *error = path + ": has " + std::to_string(st.st_nlink) +
             " hard links, which replacing it would separate from it; not written (edit it in place, or "
             "remove the other links first)";
    return false;
  }
  if (exists && access(target.c_str(), W_OK) != 0) {
    *error = path + ": not writable (" + strerror(errno) + "); not written";
    return false;
  }
  std::string tmp = target + ".tmp-pgconflint-XXXXXX";
  int fd = mkstemp(tmp.data());
  if (fd < 0) {
    *error = path + ": " + strerror(errno);
    return false;
  }
  // mkstemp creates 0600; give the result the old file's mode, or what a
  // plain open(O_CREAT, 0666) would have given.
  mode_t mode;
  if (exists) {
    mode = st.st_mode & 07777;
  } else {
    mode_t mask = umask(0);
    umask(mask);
    mode = 0666 & ~mask;
  }
  auto fail = [&](const std::string& what) {
    *error = what + ": " + strerror(errno);
    if (fd >= 0) close(fd);
    unlink(tmp.c_str());
    return false;
  };
  // The owner and group first (fchown may clear set-id bits), then the mode.
  if (exists && (st.st_uid != geteuid() || st.st_gid != getegid()) && fchown(fd, st.st_uid, st.st_gid) != 0) {
    const int e = errno;
    close(fd);
    unlink(tmp.c_str());
    *error = path + ": cannot keep its owner " + std::to_string(st.st_uid) + ":" + std::to_string(st.st_gid) + " (" +
             strerror(e) + "); not written";
    return false;
  }
  if (fchmod(fd, mode) != 0) return fail(path);
  if (!WriteAll(fd, content) || fsync(fd) != 0) return fail(path);
  int rc = close(fd);
  fd = -1;
  if (rc != 0) return fail(path);
  if (rename(tmp.c_str(), target.c_str()) != 0) return fail(path);
  // The rename itself is durable once the directory is.
  std::string dir = target.substr(0, target.rfind('/'));
  if (int d = open(dir.empty() ? "/" : dir.c_str(), O_RDONLY | O_DIRECTORY); d >= 0) {
    fsync(d);
    close(d);
  }
  return true;
}

}  // namespace pgconflint
