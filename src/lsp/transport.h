// The base protocol of the Language Server Protocol: JSON-RPC messages framed
// by a "Content-Length: N" header block. MessageReader splits a byte stream
// into message bodies and never gives up on it: a malformed header block is
// reported and skipped, and a body over the size limit is skipped as it
// streams past, without being held. Output writes framed messages.
#ifndef PGCONFLINT_LSP_TRANSPORT_H_
#define PGCONFLINT_LSP_TRANSPORT_H_

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/file_system.h"

namespace pgconflint::lsp {

/// The largest message body read (bytes): a document of the file size limit
/// with 1 MiB for its JSON around it. A larger body is skipped.
inline constexpr size_t kMaxMessageSize = kMaxFileSize + (1u << 20);

/// How much of a skipped body is kept, so that the server can say which
/// request or document it was.
inline constexpr size_t kSkippedPrefixSize = 4096;

/// What the reader found in the stream.
struct ReaderEvent {
  enum class Kind { kMessage, kError } kind = Kind::kMessage;
  std::string body;   // kMessage: the body; kError: the start of a skipped body, if any
  std::string error;  // kError: what was wrong ("message of 300000000 bytes is over the limit")
  uint64_t length = 0;  // kError for a skipped body: its length
};

/// Splits bytes into message bodies. Headers are ASCII lines ending in
/// "\r\n" (a bare "\n" is accepted too) and end with an empty line; names are
/// case-insensitive; Content-Length is required, Content-Type is ignored.
/// Not thread-safe.
class MessageReader {
 public:
  explicit MessageReader(size_t max_body = kMaxMessageSize) : max_body_(max_body) {}
  /// Consumes `bytes` and appends what they complete to *out.
  void Feed(std::string_view bytes, std::vector<ReaderEvent>* out);
  /// True while part of a message has been read (at the end of the stream:
  /// a truncated message).
  bool pending() const { return state_ != State::kHeader || !buffer_.empty(); }

 private:
  enum class State { kHeader, kBody, kSkip };
  // Parses the header block buffer_[0, end); false with *error.
  bool ParseHeaders(std::string_view block, size_t* length, std::string* error) const;
  void FeedHeader(std::string_view* bytes, std::vector<ReaderEvent>* out);
  // Reports a malformed header block, once until the next message.
  void Fail(std::string error, std::vector<ReaderEvent>* out);

  size_t max_body_;
  State state_ = State::kHeader;
  std::string buffer_;     // header bytes, or the body so far
  size_t length_ = 0;      // kBody: the body's length; kSkip: bytes still to skip
  std::string skip_error_;  // kSkip: the error to report once the body has passed
  uint64_t skipped_length_ = 0;  // kSkip: the body's whole length
  bool in_step_ = true;          // false from a malformed header block to the next message
};

/// "Content-Length: N\r\n\r\n" followed by `body`.
std::string Frame(std::string_view body);

/// Where the server's messages go. Thread-safe: the reader thread and the
/// worker both send.
class Output {
 public:
  virtual ~Output() = default;
  /// Sends one message body; false once the peer is gone.
  virtual bool Send(const std::string& body) = 0;
};

/// Writes framed messages to a file descriptor (stdout).
class FdOutput : public Output {
 public:
  explicit FdOutput(int fd) : fd_(fd) {}
  bool Send(const std::string& body) override;

 private:
  std::mutex mu_;
  int fd_;
  bool failed_ = false;
};

/// Keeps every message body sent (tests, the fuzzer, benchmarks).
class MemoryOutput : public Output {
 public:
  bool Send(const std::string& body) override;
  /// The bodies sent so far, and forgets them.
  std::vector<std::string> Take();

 private:
  std::mutex mu_;
  std::vector<std::string> bodies_;
};

}  // namespace pgconflint::lsp

#endif  // PGCONFLINT_LSP_TRANSPORT_H_
