// The helper's side of a request, and the encoding both sides share.
#include "live/helper.h"

#include <nlohmann/json.hpp>

#include <errno.h>
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "core/base/json_read.h"
#include "core/model/secrets.h"
#include "live/live.h"

namespace pgconflint::live {
namespace {

using nlohmann::json;

// A request is a connection string and a statement: far below this.
constexpr size_t kMaxRequest = 1 << 20;

std::string Dumped(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

bool ReadAll(int fd, std::string* out) {
  char buffer[8192];
  for (;;) {
    ssize_t n = read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return false;
    if (n == 0) return true;
    out->append(buffer, static_cast<size_t>(n));
    if (out->size() > kMaxRequest) return false;
  }
}

bool WriteAll(int fd, const std::string& text) {
  size_t done = 0;
  while (done < text.size()) {
    ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

}  // namespace

std::string EncodeRequest(const LiveRequest& r) {
  return Dumped({{"conninfo", r.conninfo},
                 {"statement", r.statement},
                 {"connect_timeout", r.connect_timeout_s},
                 {"statement_timeout", r.statement_timeout_ms}});
}

bool DecodeRequest(std::string_view text, LiveRequest* out, std::string* error) {
  try {
    json j = ParseJson(text);
    const auto connect = JsonInt(j.at("connect_timeout")), statement = JsonInt(j.at("statement_timeout"));
    if (!j.at("conninfo").is_string() || !j.at("statement").is_string() || !connect || !statement) {
      *error = "a request has a conninfo, a statement and two timeouts";
      return false;
    }
    out->conninfo = j["conninfo"].get<std::string>();
    out->statement = j["statement"].get<std::string>();
    out->connect_timeout_s = *connect;
    out->statement_timeout_ms = *statement;
  } catch (const json::exception& e) {
    *error = std::string("not a request: ") + e.what();
    return false;
  }
  return true;
}

std::string EncodeReply(const LiveReply& r) {
  return Dumped({{"executed", r.executed}, {"statement_error", r.statement_error}, {"label", r.label}, {"error", r.error}}) +
         "\n" + r.snapshot;
}

bool DecodeReply(std::string_view text, LiveReply* out, std::string* error) {
  const size_t eol = text.find('\n');
  if (eol == std::string_view::npos) {
    *error = "the live helper's answer ended early";
    return false;
  }
  try {
    json j = ParseJson(text.substr(0, eol));
    if (!j.at("executed").is_boolean() || !j.at("statement_error").is_string() || !j.at("label").is_string() ||
        !j.at("error").is_string()) {
      *error = "the live helper's answer is not a reply";
      return false;
    }
    out->executed = j["executed"].get<bool>();
    out->statement_error = j["statement_error"].get<std::string>();
    out->label = j["label"].get<std::string>();
    out->error = j["error"].get<std::string>();
  } catch (const json::exception& e) {
    *error = std::string("the live helper's answer is not a reply: ") + e.what();
    return false;
  }
  out->snapshot = std::string(text.substr(eol + 1));
  return true;
}

int RunLiveHelper(int in_fd, int out_fd) {
  // An editor server that is killed takes its helper with it: no orphan
  // goes on talking to the server. (The signal follows the thread that
  // started the helper, which waits for it to end.)
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() == 1) return 3;  // the parent died before the line above
  std::string text, error;
  LiveRequest request;
  if (!ReadAll(in_fd, &text) || !DecodeRequest(text, &request, &error)) return 3;
  LiveOptions options;
  options.connect_timeout_s = request.connect_timeout_s;
  options.statement_timeout_ms = request.statement_timeout_ms;
  LiveReply reply;
  if (!request.statement.empty())
    reply.executed =
        ExecuteStatement(request.conninfo, request.statement, options, &reply.label, &reply.statement_error);
  std::string label;
  if (!LibpqSnapshotTaker(options).Take(request.conninfo, &reply.snapshot, &label, &reply.error) ||
      !MaskSnapshotSecrets(&reply.snapshot, -1, &reply.error))
    reply.snapshot.clear();
  reply.label = label;
  return WriteAll(out_fd, EncodeReply(reply)) ? 0 : 3;
}

}  // namespace pgconflint::live
