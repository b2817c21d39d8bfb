// Temp file + fsync + rename, in the target's directory (rename is atomic
// only within one file system).
#include "core/atomic_write.h"

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
  std::string tmp = target + ".tmp-pgconflint-XXXXXX";
  int fd = mkstemp(tmp.data());
  if (fd < 0) {
    *error = path + ": " + strerror(errno);
    return false;
  }
  // mkstemp creates 0600; give the result the old file's mode, or what a
  // plain open(O_CREAT, 0666) would have given.
  struct stat st;
  mode_t mode;
  if (stat(target.c_str(), &st) == 0) {
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
  if (fchmod(fd, mode) != 0) return fail(path);
  if (!WriteAll(fd, content) || fsync(fd) != 0) return fail(path);
  int rc = close(fd);
  fd = -1;
  if (rc != 0) return fail(path);
  if (rename(tmp.c_str(), target.c_str()) != 0) return fail(path);
  return true;
}

}  // namespace pgconflint
