// `pgconflint server`: a Language Server Protocol 3.17 server over stdio.
//
// Two threads. The reader parses each message, records $/cancelRequest and
// counts the changes of every document (its generation), and queues the
// rest in order. One worker owns the Session (documents, workspace, lints):
// it handles what is queued, then lints what changed: a change alone at
// once, a burst of changes once no change has arrived for the debounce
// interval; before publishing it checks that no newer change of the
// document is queued, so only the latest version is ever published. Idle,
// it drops the analyses beyond the retained ones and returns free memory. A
// third kind of thread, the live server's (lsp/live.cc), hands its answers to
// the worker through the same queue. With `threaded` false everything runs in the caller's
// thread, message by message (tests, the fuzzer).
#ifndef PGCONFLINT_LSP_SERVER_H_
#define PGCONFLINT_LSP_SERVER_H_

#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>

#include "lsp/session.h"
#include "lsp/transport.h"

namespace pgconflint::lsp {

class Server {
 public:
  /// REQUIRES: `out` outlives the server.
  Server(const ServerOptions& options, Output* out);
  /// Stops the worker (Finish()).
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  /// One message body from the reader. Malformed JSON is answered with a
  /// parse error; everything else is handled in order.
  void Receive(std::string body);
  /// A frame the reader skipped or could not read.
  void Skipped(const ReaderEvent& event);
  /// End of input: handles what is queued, then stops the worker. Idempotent.
  void Finish();
  /// True once an `exit` notification was received: stop reading.
  bool exit_received() const { return exit_received_; }
  /// The process exit code, valid after Finish(): 0 after shutdown, else 1.
  int exit_code() const { return exit_code_; }

 private:
  struct Queued {
    json message;
    uint64_t generation = 0;
    bool skipped = false;  // `event` holds a skipped frame
    ReaderEvent event;
    std::function<void()> task;  // work another thread handed back to the session (a live server's answer)
  };
  void Push(Queued item);
  void WorkerLoop();
  void Idle();  // nothing queued nor due: the session's Idle, then free memory goes back
  bool Stale(const std::string& uri, uint64_t generation);
  bool Cancelled(const json& id);

  Output* out_;
  std::unique_ptr<Session> session_;
  const bool threaded_;
  bool exit_received_ = false;
  int exit_code_ = 1;

  std::mutex mu_;  // guards everything below
  std::condition_variable wake_;
  std::deque<Queued> queue_;
  std::map<std::string, uint64_t> generations_;  // by document URI: changes received
  std::set<std::string> cancelled_;              // request ids (dumped) cancelled before they were handled
  uint64_t next_generation_ = 0;
  bool closing_ = false;
  std::thread worker_;
  std::optional<Clock::time_point> idle_at_;  // when the idle work is due (the worker's own)
};

/// Serves one client over `in_fd` and `out_fd` until `exit` or the end of
/// input; returns the process exit code.
int RunServer(const ServerOptions& options, int in_fd, int out_fd);

}  // namespace pgconflint::lsp

#endif  // PGCONFLINT_LSP_SERVER_H_
