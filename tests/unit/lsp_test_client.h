// The editor server in process, without threads, driven as a client drives
// it: requests and their responses, notifications, answers to the server's
// own requests, and everything the server sent kept in order. The session
// and live-server tests build their clients on it.
#ifndef PGCONFLINT_TESTS_UNIT_LSP_TEST_CLIENT_H_
#define PGCONFLINT_TESTS_UNIT_LSP_TEST_CLIENT_H_

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "lsp/server.h"

namespace pgconflint::lsp {

class InProcessClient {
 public:
  InProcessClient() = default;
  InProcessClient(const InProcessClient&) = delete;
  InProcessClient& operator=(const InProcessClient&) = delete;
  ~InProcessClient() {
    if (server_) server_->Finish();
  }

  /// The response to request `method` (null if the server sent none).
  json Request(const std::string& method, json params) {
    int id = ++next_id_;
    server_->Receive(Dump({{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}}));
    json response;
    for (const json& m : Drain())
      if (m.contains("id") && m["id"] == id && !m.contains("method")) response = m;
    return response;
  }
  void Notify(const std::string& method, json params) {
    server_->Receive(Dump({{"jsonrpc", "2.0"}, {"method", method}, {"params", std::move(params)}}));
    Drain();
  }
  /// Answers the server's request `id` with `result`.
  void Answer(const json& id, json result) {
    server_->Receive(Dump({{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}}));
    Drain();
  }
  /// Sends `body` as it is (malformed messages included).
  void Send(const std::string& body) {
    server_->Receive(body);
    Drain();
  }
  void Skip(const ReaderEvent& event) {
    server_->Skipped(event);
    Drain();
  }
  void Open(const std::string& path, const std::string& text, int version = 1) {
    Notify("textDocument/didOpen",
           {{"textDocument", {{"uri", PathToUri(path)}, {"languageId", "pgconf"}, {"version", version}, {"text", text}}}});
  }
  /// The server's requests and notifications of `method`, in order.
  std::vector<json> Sent(const std::string& method) const {
    std::vector<json> out;
    for (const json& m : received)
      if (m.value("method", "") == method) out.push_back(m);
    return out;
  }
  /// The params of the last diagnostics published for `path` (null if none).
  json Published(const std::string& path) const {
    json last;
    for (const json& m : Sent("textDocument/publishDiagnostics"))
      if (m["params"]["uri"] == PathToUri(path)) last = m["params"];
    return last;
  }
  static json At(const std::string& path, int line, int character) {
    return {{"textDocument", {{"uri", PathToUri(path)}}}, {"position", {{"line", line}, {"character", character}}}};
  }
  int Finish() {
    server_->Finish();
    return server_->exit_code();
  }

  std::vector<json> received;

 protected:
  void Start(const ServerOptions& options) { server_ = std::make_unique<Server>(options, &out_); }

 private:
  std::vector<json> Drain() {
    std::vector<json> batch;
    for (const std::string& body : out_.Take()) batch.push_back(json::parse(body));
    received.insert(received.end(), batch.begin(), batch.end());
    return batch;
  }
  MemoryOutput out_;
  std::unique_ptr<Server> server_;
  int next_id_ = 0;
};

}  // namespace pgconflint::lsp

#endif  // PGCONFLINT_TESTS_UNIT_LSP_TEST_CLIENT_H_
