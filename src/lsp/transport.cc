// Framing of JSON-RPC messages.
#include "lsp/transport.h"

#include <errno.h>
#include <unistd.h>

#include <algorithm>

#include "core/knowledge/catalog.h"  // AsciiLower

namespace pgconflint::lsp {
namespace {

// A header block longer than this without its terminating empty line is not
// a header block.
constexpr size_t kMaxHeaderBlock = 8192;

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

// The end of the header block in `s` (the index after its empty line), or npos.
size_t HeaderEnd(std::string_view s) {
  for (size_t i = s.find('\n'); i != std::string_view::npos; i = s.find('\n', i + 1)) {
    size_t next = i + 1;
    if (next < s.size() && s[next] == '\n') return next + 1;
    if (next + 1 < s.size() && s[next] == '\r' && s[next + 1] == '\n') return next + 2;
  }
  return std::string_view::npos;
}

// Where the last "Content-Length" header name (ASCII case ignored, then
// blanks and ':') starts in `block`, or npos.
size_t LastContentLength(std::string_view block) {
  static constexpr std::string_view kName = "content-length";
  for (size_t i = block.size(); i-- > 0;) {
    if (i + kName.size() > block.size() || (block[i] | 0x20) != 'c') continue;
    bool match = true;
    for (size_t k = 0; k < kName.size() && match; ++k) {
      char c = block[i + k];
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
      match = c == kName[k];
    }
    if (!match) continue;
    size_t j = i + kName.size();
    while (j < block.size() && (block[j] == ' ' || block[j] == '\t')) ++j;
    if (j < block.size() && block[j] == ':') return i;
  }
  return std::string_view::npos;
}

// How much of an overlong header buffer is kept when it is dropped: enough
// for the start of the next header line, which may have been glued to it.
constexpr size_t kKeptHeaderTail = 64;

}  // namespace

bool MessageReader::ParseHeaders(std::string_view block, size_t* length, std::string* error) const {
  // After a malformed header block, the body it announced (whose length is
  // unknown) is read as the start of the next block: the block is taken to
  // start at its last Content-Length, so that the stream is in step again
  // at the next message whatever came before.
  if (size_t at = LastContentLength(block); at != std::string_view::npos) block.remove_prefix(at);
  bool have_length = false;
  while (!block.empty()) {
    size_t eol = block.find('\n');
    std::string_view line = Trim(block.substr(0, eol));
    block.remove_prefix(eol == std::string_view::npos ? block.size() : eol + 1);
    if (line.empty()) continue;
    size_t colon = line.find(':');
    if (colon == std::string_view::npos) {
      *error = "malformed header line (no ':')";
      return false;
    }
    std::string_view name = Trim(line.substr(0, colon)), value = Trim(line.substr(colon + 1));
    if (AsciiLower(name) != "content-length") continue;
    if (value.empty() || value.size() > 18 || !std::all_of(value.begin(), value.end(), [](char c) {
          return c >= '0' && c <= '9';
        })) {
      *error = "Content-Length is not a number";
      return false;
    }
    *length = std::stoull(std::string(value));
    have_length = true;
  }
  if (!have_length) *error = "header block without Content-Length";
  return have_length;
}

void MessageReader::Fail(std::string error, std::vector<ReaderEvent>* out) {
  // One report until a message is read again: the bytes of one bad message
  // may fail as many header blocks as they hold.
  if (in_step_) out->push_back({ReaderEvent::Kind::kError, "", std::move(error)});
  in_step_ = false;
}

void MessageReader::FeedHeader(std::string_view* bytes, std::vector<ReaderEvent>* out) {
  // Blank lines between messages are tolerated.
  if (buffer_.empty())
    while (!bytes->empty() && (bytes->front() == '\r' || bytes->front() == '\n')) bytes->remove_prefix(1);
  size_t old = buffer_.size();
  size_t take = std::min(bytes->size(), kMaxHeaderBlock + 4 - std::min(old, kMaxHeaderBlock + 4));
  buffer_.append(bytes->substr(0, take));
  size_t end = HeaderEnd(buffer_);
  if (end == std::string::npos) {
    bytes->remove_prefix(take);
    if (buffer_.size() > kMaxHeaderBlock) {
      Fail("header block longer than 8192 bytes; skipped", out);
      buffer_.erase(0, buffer_.size() - kKeptHeaderTail);
    }
    return;
  }
  // Only the bytes up to the block's end belong to it; the rest is the body.
  bytes->remove_prefix(end - old);
  std::string error;
  size_t length = 0;
  bool ok = ParseHeaders(std::string_view(buffer_).substr(0, end), &length, &error);
  buffer_.clear();
  if (!ok) {
    Fail(error + "; header block skipped", out);
    return;
  }
  length_ = length;
  if (length > max_body_) {
    state_ = State::kSkip;
    skipped_length_ = length;
    skip_error_ = "message of " + std::to_string(length) + " bytes is over the limit of " +
                  std::to_string(max_body_) + " bytes; skipped";
  } else {
    state_ = State::kBody;
    buffer_.reserve(length);
  }
}

void MessageReader::Feed(std::string_view bytes, std::vector<ReaderEvent>* out) {
  for (;;) {
    if (state_ == State::kHeader) {
      if (bytes.empty()) return;
      FeedHeader(&bytes, out);
      if (state_ == State::kHeader) continue;
    }
    if (state_ == State::kBody) {
      size_t take = std::min(bytes.size(), length_ - buffer_.size());
      buffer_.append(bytes.substr(0, take));
      bytes.remove_prefix(take);
      if (buffer_.size() < length_) return;
      out->push_back({ReaderEvent::Kind::kMessage, std::move(buffer_), ""});
      in_step_ = true;
      buffer_ = std::string();
      state_ = State::kHeader;
      continue;
    }
    // kSkip: keep the start of the body (to name it), drop the rest.
    size_t take = std::min(bytes.size(), length_);
    if (buffer_.size() < kSkippedPrefixSize)
      buffer_.append(bytes.substr(0, std::min(take, kSkippedPrefixSize - buffer_.size())));
    bytes.remove_prefix(take);
    length_ -= take;
    if (length_ > 0) return;
    out->push_back({ReaderEvent::Kind::kError, std::move(buffer_), std::move(skip_error_), skipped_length_});
    buffer_ = std::string();
    state_ = State::kHeader;
  }
}

std::string Frame(std::string_view body) {
  std::string out = "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n";
  out.append(body);
  return out;
}

bool FdOutput::Send(const std::string& body) {
  std::string framed = Frame(body);
  std::lock_guard<std::mutex> lock(mu_);
  if (failed_) return false;
  size_t done = 0;
  while (done < framed.size()) {
    ssize_t n = write(fd_, framed.data() + done, framed.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      failed_ = true;
      return false;
    }
    done += static_cast<size_t>(n);
  }
  return true;
}

bool MemoryOutput::Send(const std::string& body) {
  std::lock_guard<std::mutex> lock(mu_);
  bodies_.push_back(body);
  return true;
}

std::vector<std::string> MemoryOutput::Take() {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<std::string> out;
  out.swap(bodies_);
  return out;
}

}  // namespace pgconflint::lsp
