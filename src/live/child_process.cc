// Starting the helper, feeding it the request, and waiting for its answer
// with a deadline.
#include "live/child_process.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/model/secrets.h"
#include "live/helper.h"

extern char** environ;

namespace pgconflint::live {
namespace {

// How often a wait looks at the cancel flag.
constexpr int kTickMs = 50;
// An answer is a snapshot: a few hundred kilobytes, a few megabytes with
// thousands of pg_hba.conf lines. Past this the child is not believed.
constexpr size_t kMaxAnswer = size_t{256} << 20;

class Fd {
 public:
  Fd() = default;
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() { Close(); }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }
  void Close() {
    if (fd_ >= 0) close(fd_);
    fd_ = -1;
  }

 private:
  int fd_ = -1;
};

}  // namespace

std::chrono::milliseconds RequestDeadline(const LiveRequest& r) {
  return std::chrono::milliseconds(2000LL * r.connect_timeout_s + 4LL * (r.statement_timeout_ms + 2000));
}

ChildProcessLiveClient::ChildProcessLiveClient(std::vector<std::string> argv) : argv_(std::move(argv)) {
  if (argv_.empty()) argv_ = {"/proc/self/exe", std::string(kLiveHelperCommand)};
}

LiveReply ChildProcessLiveClient::Ask(const LiveRequest& request, const std::atomic<bool>& cancel) const {
  LiveReply reply;
  reply.label = MaskSecrets(request.conninfo);
  // The request goes through a socket, not a pipe: send() with MSG_NOSIGNAL
  // to a helper that died early is an error, not a SIGPIPE for the caller.
  int in[2], out[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, in) != 0) {
    reply.error = std::string("cannot start the live helper: ") + strerror(errno);
    return reply;
  }
  Fd to_child(in[0]), child_in(in[1]);
  if (pipe2(out, O_CLOEXEC) != 0) {
    reply.error = std::string("cannot start the live helper: ") + strerror(errno);
    return reply;
  }
  Fd from_child(out[0]), child_out(out[1]);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, child_in.get(), STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&actions, child_out.get(), STDOUT_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  // The editor server ignores SIGPIPE; the helper gets the default back.
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t defaults;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGPIPE);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF);
  std::vector<char*> argv;
  for (const std::string& a : argv_) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, argv[0], &actions, &attr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  child_in.Close();
  child_out.Close();
  if (spawned != 0) {
    reply.error = std::string("cannot start the live helper: ") + strerror(spawned);
    return reply;
  }
  // The request is small and the helper reads it whole before anything
  // else: a blocking write cannot wait on the helper's output.
  const std::string text = EncodeRequest(request);
  for (size_t done = 0; done < text.size();) {
    ssize_t n = send(to_child.get(), text.data() + done, text.size() - done, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;  // the helper died: its exit status says so below
    done += static_cast<size_t>(n);
  }
  to_child.Close();
  const auto deadline = std::chrono::steady_clock::now() + RequestDeadline(request);
  std::string answer;
  std::string stopped;  // why the helper was killed
  char buffer[65536];
  for (;;) {
    if (cancel.load()) {
      stopped = "cancelled";
      break;
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      stopped = "no answer within " + std::to_string(RequestDeadline(request).count() / 1000) +
                " s: the server, the network or the name lookup stopped responding";
      break;
    }
    pollfd p{from_child.get(), POLLIN, 0};
    int n = poll(&p, 1, kTickMs);
    if (n < 0 && errno != EINTR) break;
    if (n <= 0) continue;
    ssize_t got = read(from_child.get(), buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    answer.append(buffer, static_cast<size_t>(got));
    if (answer.size() > kMaxAnswer) {
      stopped = "the live helper's answer is over " + std::to_string(kMaxAnswer >> 20) + " MiB";
      break;
    }
  }
  if (!stopped.empty()) kill(pid, SIGKILL);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!stopped.empty()) {
    reply.error = stopped;
    return reply;
  }
  std::string error;
  if (!DecodeReply(answer, &reply, &error)) {
    reply.error = error + (WIFSIGNALED(status)   ? " (it ended on signal " + std::to_string(WTERMSIG(status)) + ")"
                           : WIFEXITED(status) ? " (it exited with status " + std::to_string(WEXITSTATUS(status)) + ")"
                                               : "");
    return reply;
  }
  // The helper scrubs its errors; once more here, as nothing else stands
  // between its output and the editor.
  reply.error = ScrubSecrets(reply.error, SecretsIn(request.conninfo));
  reply.statement_error = ScrubSecrets(reply.statement_error, SecretsIn(request.conninfo));
  reply.label = MaskSecrets(reply.label);
  return reply;
}

}  // namespace pgconflint::live
