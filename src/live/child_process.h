// The editor server's LiveClient: each request runs in a child process, the
// live helper (helper.h), which this binary starts again as itself. The
// caller's thread waits on the child's output with a deadline of its own and
// kills the child at the deadline or when the request is cancelled: a server
// that stops answering, a network that drops packets or a name lookup that
// hangs (libpq's connect_timeout does not bound the lookup) costs the editor
// nothing but a message.
#ifndef PGCONFLINT_LIVE_CHILD_PROCESS_H_
#define PGCONFLINT_LIVE_CHILD_PROCESS_H_

#include <chrono>
#include <string>
#include <vector>

#include "core/server/snapshot.h"

namespace pgconflint::live {

/// How long one request may take in all before its child is killed: the
/// connection twice (a statement, then the snapshot's own) and four times a
/// statement with its 2 s margin, which covers the dozen quick catalog reads
/// of a snapshot and one slow one.
std::chrono::milliseconds RequestDeadline(const LiveRequest& request);

class ChildProcessLiveClient : public LiveClient {
 public:
  /// `argv`: the helper's command line; empty: this binary (/proc/self/exe)
  /// with the live-helper subcommand. Tests give another program.
  explicit ChildProcessLiveClient(std::vector<std::string> argv = {});
  /// The child inherits the environment (PG* variables, ~/.pgpass) and
  /// reads the request on its standard input; its standard error is
  /// discarded (libpq prints the server's notices there). Thread-safe.
  LiveReply Ask(const LiveRequest& request, const std::atomic<bool>& cancel) const override;

 private:
  std::vector<std::string> argv_;
};

}  // namespace pgconflint::live

#endif  // PGCONFLINT_LIVE_CHILD_PROCESS_H_
