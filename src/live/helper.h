// The live helper: `pgconflint live-helper`, the child process the editor
// server starts for each request to a running server (child_process.h).
// libpq then runs on the main thread of a process of its own: the static
// release binary's libpq runs on a second C library that only the main
// thread may use (libpq.h), and a server, network or name lookup that hangs
// is abandoned by killing the child, never by waiting in the editor. The
// request (a LiveRequest) comes as JSON on standard input, so that a
// password never appears in the process list; the answer is one line of
// JSON (executed, statement_error, label, error) followed by the snapshot's
// JSON with its passwords masked.
#ifndef PGCONFLINT_LIVE_HELPER_H_
#define PGCONFLINT_LIVE_HELPER_H_

#include <string>
#include <string_view>

#include "core/server/snapshot.h"

namespace pgconflint::live {

/// The subcommand main() hands to RunLiveHelper; not a user's command, and
/// not listed by --help, the manual page or the completions.
inline constexpr std::string_view kLiveHelperCommand = "live-helper";

std::string EncodeRequest(const LiveRequest& request);
/// False with *error when `text` is not a request.
bool DecodeRequest(std::string_view text, LiveRequest* out, std::string* error);
std::string EncodeReply(const LiveReply& reply);
/// False with *error when `text` is not a reply.
bool DecodeReply(std::string_view text, LiveReply* out, std::string* error);

/// The helper: reads one request from `in_fd` to its end, runs the
/// statement if any, takes the snapshot (whether the statement ran or not), and
/// writes the reply to `out_fd`. Returns the process exit code: 0 when it
/// replied (a server that cannot be reached is a reply), 3 when it could not.
int RunLiveHelper(int in_fd, int out_fd);

}  // namespace pgconflint::live

#endif  // PGCONFLINT_LIVE_HELPER_H_
