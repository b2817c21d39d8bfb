// git through posix_spawn and pipes.
#include "cli/git.h"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <sstream>

extern char** environ;

namespace pgconflint::cli {
namespace {

// Writes `input` to `in_fd` and reads `out_fd` and `err_fd` to their ends,
// without blocking on one while the other fills.
void Pump(int in_fd, int out_fd, int err_fd, const std::string& input, std::string* out, std::string* err) {
  size_t written = 0;
  if (input.empty()) {
    close(in_fd);
    in_fd = -1;
  }
  char buf[1 << 16];
  while (out_fd >= 0 || err_fd >= 0) {
    pollfd fds[3] = {{out_fd, POLLIN, 0}, {err_fd, POLLIN, 0}, {in_fd, POLLOUT, 0}};
    if (poll(fds, 3, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (int i = 0; i < 2; ++i) {
      if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      ssize_t n = read(fds[i].fd, buf, sizeof buf);
      if (n > 0) {
        (i == 0 ? out : err)->append(buf, static_cast<size_t>(n));
      } else if (n == 0 || errno != EINTR) {
        close(fds[i].fd);
        (i == 0 ? out_fd : err_fd) = -1;
      }
    }
    if (in_fd >= 0 && (fds[2].revents & (POLLOUT | POLLERR | POLLHUP))) {
      ssize_t n = write(in_fd, input.data() + written, input.size() - written);
      if (n > 0) written += static_cast<size_t>(n);
      if (n < 0 && errno != EINTR) written = input.size();
      if (written == input.size()) {
        close(in_fd);
        in_fd = -1;
      }
    }
  }
  if (in_fd >= 0) close(in_fd);
}

std::string Trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

}  // namespace

bool RunGit(const std::string& dir, const std::vector<std::string>& args, const std::string& input, std::string* out,
            std::string* error) {
  std::vector<std::string> argv = {"git", "-c", "core.quotePath=false", "-C", dir};
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<char*> cargv;
  for (std::string& a : argv) cargv.push_back(a.data());
  cargv.push_back(nullptr);
  int in[2], o[2], e[2];
  if (pipe2(in, O_CLOEXEC) || pipe2(o, O_CLOEXEC) || pipe2(e, O_CLOEXEC)) {
    *error = std::string("pipe: ") + strerror(errno);
    return false;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in[0], 0);
  posix_spawn_file_actions_adddup2(&actions, o[1], 1);
  posix_spawn_file_actions_adddup2(&actions, e[1], 2);
  pid_t pid;
  int rc = posix_spawnp(&pid, "git", &actions, nullptr, cargv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(in[0]);
  close(o[1]);
  close(e[1]);
  if (rc != 0) {
    close(in[1]);
    close(o[0]);
    close(e[0]);
    *error = std::string("cannot run git: ") + strerror(rc);
    return false;
  }
  std::string err;
  out->clear();
  Pump(in[1], o[0], e[0], input, out, &err);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    *error = "git " + (args.empty() ? std::string() : args[0]) + ": " + Trimmed(err.empty() ? "failed" : err);
    return false;
  }
  return true;
}

std::string GitTopLevel(const std::string& dir) {
  std::string out, error;
  if (!RunGit(dir, {"rev-parse", "--show-toplevel"}, "", &out, &error)) return "";
  return Trimmed(out);
}

bool LoadRevision(const std::string& top, const std::string& rev, const std::vector<std::string>& under,
                  OverlayFileSystem* fs, std::string* error) {
  std::string commit;
  if (!RunGit(top, {"rev-parse", "--verify", "--quiet", rev + "^{commit}"}, "", &commit, error)) {
    *error = "unknown revision \"" + rev + "\"";
    return false;
  }
  std::vector<std::string> args = {"ls-tree", "-r", "-z", "--long", "--full-tree", Trimmed(commit), "--"};
  args.insert(args.end(), under.begin(), under.end());
  std::string listing;
  if (!RunGit(top, args, "", &listing, error)) return false;
  // "<mode> blob <sha> <size>\t<path>\0": keep regular files that are small enough.
  std::vector<std::string> paths;
  std::string request;
  for (size_t at = 0; at < listing.size();) {
    size_t end = listing.find('\0', at);
    if (end == std::string::npos) end = listing.size();
    std::string entry = listing.substr(at, end - at);
    at = end + 1;
    size_t tab = entry.find('\t');
    if (tab == std::string::npos || entry.compare(0, 3, "100") != 0) continue;
    std::istringstream fields(entry.substr(0, tab));
    std::string mode, type, object;
    unsigned long long size = 0;
    if (!(fields >> mode >> type >> object >> size) || type != "blob" || size > kMaxFileSize) continue;
    paths.push_back(entry.substr(tab + 1));
    request += object + "\n";
  }
  std::string blobs;
  if (!paths.empty() && !RunGit(top, {"cat-file", "--batch"}, request, &blobs, error)) return false;
  // "<sha> blob <size>\n<content>\n" per request line.
  size_t at = 0;
  for (const std::string& p : paths) {
    size_t nl = blobs.find('\n', at);
    if (nl == std::string::npos) break;
    size_t size = strtoull(blobs.c_str() + blobs.rfind(' ', nl) + 1, nullptr, 10);
    fs->Set(top + "/" + p, blobs.substr(nl + 1, size));
    at = nl + 1 + size + 1;
  }
  return true;
}

bool GitChangedFiles(const std::string& top, const std::string& from, const std::string& to,
                     std::vector<std::string>* out, std::string* error) {
  std::vector<std::string> args = {"diff", "--no-renames", "--name-only", "-z", "--no-ext-diff", from};
  if (!to.empty()) args.push_back(to);
  std::string names;
  if (!RunGit(top, args, "", &names, error)) return false;
  for (size_t at = 0; at < names.size();) {
    size_t end = names.find('\0', at);
    if (end == std::string::npos) end = names.size();
    if (end > at) out->push_back(names.substr(at, end - at));
    at = end + 1;
  }
  return true;
}

bool GitChangedLines(const std::string& top, const std::string& rev, std::map<std::string, std::set<uint32_t>>* out,
                     std::string* error) {
  std::string patch;
  if (!RunGit(top, {"diff", "--no-renames", "-U0", "--no-color", "--no-ext-diff", "--src-prefix=a/",
                    "--dst-prefix=b/", rev},
              "", &patch, error))
    return false;
  // "N" or "N,M" at `at` (M defaults to 1), as a hunk header writes a range.
  auto range = [](std::string_view text, size_t at, unsigned long* start, unsigned long* count) {
    char* rest = nullptr;
    *start = strtoul(text.data() + at, &rest, 10);
    *count = *rest == ',' ? strtoul(rest + 1, nullptr, 10) : 1;
  };
  std::string file;
  unsigned long body = 0;  // lines of the current hunk still to come
  for (size_t at = 0; at < patch.size();) {
    size_t end = patch.find('\n', at);
    if (end == std::string::npos) end = patch.size();
    std::string_view line(patch.data() + at, end - at);
    at = end + 1;
    // A hunk's lines are content: an added "++ x" reads "+++ x".
    if (body > 0) {
      if (line.empty() || line[0] != '\\') --body;  // "\ No newline at end of file" is not a line
      continue;
    }
    if (line.rfind("+++ ", 0) == 0) {
      file = line.size() > 6 && line.substr(4, 2) == "b/" ? std::string(line.substr(6)) : "";  // or /dev/null
    } else if (line.rfind("@@ -", 0) == 0) {
      // "@@ -a,b +c,d @@": b removed lines, then d added ones, lines c .. c+d-1 of the new file.
      unsigned long old_start, old_count, start, count;
      range(line, 4, &old_start, &old_count);
      size_t plus = line.find(" +", 4);
      if (plus == std::string_view::npos) continue;
      range(line, plus + 2, &start, &count);
      body = old_count + count;
      if (file.empty()) continue;
      for (unsigned long l = start; l < start + count; ++l) (*out)[file].insert(static_cast<uint32_t>(l));
      if (count == 0) (*out)[file];  // a deletion: the file changed, no line of it
    }
  }
  return true;
}

}  // namespace pgconflint::cli
