// libFuzzer harness over the editor server: the message reader (framing) and
// the dispatcher with every handler behind it, in-process and single-threaded,
// over an empty in-memory disk (the fuzzer never reads or writes host files).
//
// An input that starts with "Content-Length" is a raw byte stream. Any other
// input is a session: the harness sends `initialize` and `initialized`, then
// each line of the input as one message body. Every message the server sends
// must be valid JSON; a crash, a sanitizer report or a timeout is a finding.
//
// Built with clang-14 when PGCONFLINT_FUZZ is on (tests/fuzz/CMakeLists.txt,
// which also runs it briefly in the test suite: fuzz.lsp).
#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/file_system.h"
#include "core/base/host.h"
#include "lsp/server.h"

namespace {

using namespace pgconflint;

constexpr std::string_view kInitialize =
    R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"rootUri":"file:///fuzz","capabilities":{)"
    R"("general":{"positionEncodings":["utf-16"]},"textDocument":{"publishDiagnostics":{"relatedInformation":true}},)"
    R"("workspace":{"didChangeWatchedFiles":{"dynamicRegistration":true}}}}})";
constexpr std::string_view kInitialized = R"({"jsonrpc":"2.0","method":"initialized","params":{}})";

void Deliver(lsp::Server* server, std::vector<lsp::ReaderEvent>* events) {
  for (lsp::ReaderEvent& e : *events) {
    if (server->exit_received()) break;
    if (e.kind == lsp::ReaderEvent::Kind::kMessage) server->Receive(std::move(e.body));
    else server->Skipped(e);
  }
  events->clear();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const OverlayFileSystem disk(nullptr, "/fuzz");
  static const UnknownHost host;
  lsp::ServerOptions options;
  options.disk = &disk;
  options.threaded = false;
  options.workspace.host = &host;
  lsp::MemoryOutput out;
  {
    lsp::Server server(options, &out);
    // A small body limit, so that the skipping path is reached too.
    lsp::MessageReader reader(1 << 16);
    std::vector<lsp::ReaderEvent> events;
    std::string_view input(reinterpret_cast<const char*>(data), size);
    if (input.substr(0, 14) == "Content-Length") {
      reader.Feed(input, &events);
    } else {
      reader.Feed(lsp::Frame(kInitialize) + lsp::Frame(kInitialized), &events);
      while (!input.empty()) {
        size_t eol = input.find('\n');
        reader.Feed(lsp::Frame(input.substr(0, eol)), &events);
        input.remove_prefix(eol == std::string_view::npos ? input.size() : eol + 1);
      }
    }
    Deliver(&server, &events);
    server.Finish();
  }
  for (const std::string& body : out.Take())
    if (!nlohmann::json::accept(body)) abort();
  return 0;
}
