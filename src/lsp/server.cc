// The reader and the worker.
#include "lsp/server.h"

#include <errno.h>
#include <malloc.h>
#include <signal.h>
#include <unistd.h>

#include "core/base/json_read.h"

namespace pgconflint::lsp {
namespace {

// Ids of cancelled requests that were never seen again are forgotten past this.
constexpr size_t kMaxCancelled = 1024;
// Free heap memory the idle server keeps before it returns it to the system.
constexpr size_t kTrimAbove = size_t{4} << 20;
// How long nothing must arrive before the server does its idle work.
constexpr auto kIdleAfter = std::chrono::milliseconds(100);

// The document a text-synchronisation notification is about, or "".
std::string ChangedDocument(const json& message) {
  const std::string method = StringOr(message, "method", "");
  if (method != "textDocument/didOpen" && method != "textDocument/didChange" && method != "textDocument/didClose")
    return "";
  const json* params = Find(message, "params");
  const json* doc = params ? Find(*params, "textDocument") : nullptr;
  return doc ? StringOr(*doc, "uri", "") : "";
}

}  // namespace

Server::Server(const ServerOptions& options, Output* out)
    : out_(out), session_(std::make_unique<Session>(options, out)), threaded_(options.threaded) {
  if (!threaded_) return;
  session_->SetStaleCheck([this](const std::string& uri, uint64_t generation) { return Stale(uri, generation); });
  session_->SetCancelCheck([this](const json& id) { return Cancelled(id); });
  session_->SetPoster([this](std::function<void()> task) {
    Queued item;
    item.task = std::move(task);
    Push(std::move(item));
  });
  worker_ = std::thread([this] { WorkerLoop(); });
}

Server::~Server() { Finish(); }

void Server::Receive(std::string body) {
  json message;
  try {
    message = ParseJson(body);
  } catch (const json::exception& e) {
    out_->Send(Dump({{"jsonrpc", "2.0"}, {"id", nullptr}, {"error", {{"code", kParseError}, {"message", e.what()}}}}));
    return;
  }
  const std::string method = StringOr(message, "method", "");
  if (method == "exit") exit_received_ = true;
  Queued item;
  if (method == "$/cancelRequest") {
    const json* params = Find(message, "params");
    const json* id = params ? Find(*params, "id") : nullptr;
    if (!id || !threaded_) return;
    std::lock_guard<std::mutex> lock(mu_);
    if (cancelled_.size() >= kMaxCancelled) cancelled_.clear();
    cancelled_.insert(id->dump());
    return;
  }
  if (std::string uri = ChangedDocument(message); !uri.empty()) {
    std::lock_guard<std::mutex> lock(mu_);
    item.generation = generations_[uri] = ++next_generation_;
  }
  item.message = std::move(message);
  Push(std::move(item));
}

void Server::Skipped(const ReaderEvent& event) {
  Queued item;
  item.skipped = true;
  item.event = event;
  Push(std::move(item));
}

void Server::Push(Queued item) {
  if (!threaded_) {
    if (session_->done()) return;
    if (item.skipped) session_->Guard("answering an over-long message", [&] { session_->Skipped(item.event); });
    else session_->Handle(item.message, item.generation);
    session_->Guard("linting", [&] { session_->RunDue(Clock::now(), true); });
    if (!session_->done()) Idle();
    return;
  }
  std::lock_guard<std::mutex> lock(mu_);
  if (closing_) return;
  queue_.push_back(std::move(item));
  wake_.notify_one();
}

void Server::WorkerLoop() {
  for (;;) {
    Queued item;
    bool have = false, more = false;
    {
      std::unique_lock<std::mutex> lock(mu_);
      for (;;) {
        if (!queue_.empty()) {
          item = std::move(queue_.front());
          queue_.pop_front();
          have = true;
          more = !queue_.empty();
          break;
        }
        if (closing_) return;
        std::optional<Clock::time_point> deadline = session_->Deadline();
        if (deadline && Clock::now() >= *deadline) break;
        if (!deadline && idle_at_ && Clock::now() >= *idle_at_) break;
        if (deadline) wake_.wait_until(lock, *deadline);
        else if (idle_at_) wake_.wait_until(lock, *idle_at_);
        else wake_.wait(lock);
      }
    }
    if (have) {
      if (item.task) session_->Guard("a live server's answer", item.task);
      else if (item.skipped) session_->Guard("answering an over-long message", [&] { session_->Skipped(item.event); });
      else session_->Handle(item.message, item.generation);
      if (session_->done()) return;
    }
    // What is queued is handled first: a burst of changes (or of opened
    // documents) is linted once, after its last message.
    if (more) continue;
    const bool due = session_->Deadline().has_value();
    session_->Guard("linting", [&] { session_->RunDue(Clock::now(), false); });
    // After work, once nothing has come for a moment: the idle work, never on
    // the way of an answer or of a change's diagnostics.
    if (have || due) {
      idle_at_ = Clock::now() + kIdleAfter;
    } else if (idle_at_ && Clock::now() >= *idle_at_) {
      idle_at_.reset();
      Idle();
    }
  }
}

void Server::Idle() {
  session_->Guard("dropping unused analyses", [&] { session_->Idle(); });
  // The freed memory of a burst (message texts, dropped analyses) goes back
  // to the system once it is worth a call: glibc keeps it otherwise.
  if (mallinfo2().fordblks > kTrimAbove) malloc_trim(0);
}

bool Server::Stale(const std::string& uri, uint64_t generation) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = generations_.find(uri);
  return it != generations_.end() && it->second != generation;
}

bool Server::Cancelled(const json& id) {
  std::lock_guard<std::mutex> lock(mu_);
  return cancelled_.erase(id.dump()) > 0;
}

void Server::Finish() {
  if (threaded_) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      closing_ = true;
      wake_.notify_one();
    }
    if (worker_.joinable()) worker_.join();
  }
  session_->StopLive();  // what it would post is dropped: the queue is closed
  exit_code_ = session_->exit_code();
}

int RunServer(const ServerOptions& options, int in_fd, int out_fd) {
  // A client that goes away must not kill the server with SIGPIPE mid-write:
  // the write fails and the session ends at the end of its input.
  signal(SIGPIPE, SIG_IGN);
  // Memory that stays small with many documents open: the reader's and the
  // worker's allocations share one arena (a second one kept the pages of the
  // reader's small allocations, scattered among freed message texts). 50
  // roots of 5,000 lines: 30.1 MB resident with two arenas, 26.3 MB with one,
  // and the same server CPU per edit (docs/benchmarks.md). A fixed mmap
  // threshold, tried too, made each edit's text copies page faults: 3.4
  // times the CPU per edit.
  mallopt(M_ARENA_MAX, 1);
  FdOutput out(out_fd);
  Server server(options, &out);
  MessageReader reader;
  std::vector<ReaderEvent> events;
  char buffer[1 << 16];
  while (!server.exit_received()) {
    ssize_t n = read(in_fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    reader.Feed(std::string_view(buffer, static_cast<size_t>(n)), &events);
    for (ReaderEvent& e : events) {
      if (e.kind == ReaderEvent::Kind::kMessage) server.Receive(std::move(e.body));
      else server.Skipped(e);
      if (server.exit_received()) break;
    }
    events.clear();
  }
  server.Finish();
  return server.exit_code();
}

}  // namespace pgconflint::lsp
