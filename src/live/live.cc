// One snapshot: connect, run the queries of queries.cc in a read-only
// transaction, assemble their JSON values into the snapshot document.
#include "live/live.h"

#include <nlohmann/json.hpp>

#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <memory>

#include "core/model/secrets.h"
#include "live/libpq.h"
#include "live/queries.h"
#include "core/base/json_read.h"

namespace pgconflint::live {
namespace {

// A JSON string literal of `s` (invalid UTF-8 replaced).
std::string JsonString(const std::string& s) {
  return nlohmann::json(s).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// Every string of `v` with its passwords masked.
void MaskStrings(nlohmann::ordered_json* v) {
  if (v->is_string()) {
    std::string masked = MaskSecrets(v->get_ref<const std::string&>());
    if (masked != v->get_ref<const std::string&>()) *v = masked;
  } else if (v->is_structured()) {
    for (auto& e : *v) MaskStrings(&e);
  }
}

// libpq messages end with a newline.
std::string Trimmed(const char* message) {
  std::string s = message ? message : "";
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

// How long pgconflint waits for a query's answer beyond the server's own
// statement_timeout: a server (or a proxy) that stops answering must not
// hold a job forever, and the server's timeout should normally end it first.
constexpr int kAnswerMarginMs = 2000;

class Connection {
 public:
  Connection(const Libpq& pq, PGconn* conn, int answer_ms) : pq_(pq), conn_(conn), answer_ms_(answer_ms) {}
  ~Connection() { pq_.finish(conn_); }
  bool Connected(std::string* error) const {
    if (conn_ && pq_.status(conn_) == CONNECTION_OK) return true;
    *error = conn_ ? Trimmed(pq_.error_message(conn_)) : "out of memory";
    return false;
  }
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  // Runs `sql` (one or more statements); the first value of the first row
  // of its last result, or false with *error: the first error, or no answer
  // before the deadline (the statement timeout plus a margin; the
  // connection is then of no further use).
  bool Value(const char* sql, std::string* value, bool* null, std::string* error) {
    if (!pq_.send_query(conn_, sql)) {
      *error = Trimmed(pq_.error_message(conn_));
      return false;
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(answer_ms_);
    bool ok = true;
    for (;;) {
      while (pq_.is_busy(conn_)) {
        if (!Wait(deadline)) {
          *error = "no answer within " + std::to_string(answer_ms_) +
                   " ms (the statement timeout and a margin): the server or the network stopped responding";
          return false;
        }
        if (!pq_.consume_input(conn_)) {
          *error = Trimmed(pq_.error_message(conn_));
          return false;
        }
      }
      PGresult* r = pq_.get_result(conn_);
      if (!r) break;
      ExecStatusType st = pq_.result_status(r);
      if (ok && st != PGRES_TUPLES_OK && st != PGRES_COMMAND_OK) {
        ok = false;
        *error = Trimmed(pq_.result_error_message(r));
      }
      if (ok && st == PGRES_TUPLES_OK && pq_.ntuples(r) > 0) {
        *null = pq_.getisnull(r, 0, 0);
        *value = *null ? "" : pq_.getvalue(r, 0, 0);
      }
      pq_.clear(r);
    }
    return ok;
  }
  bool Run(const char* sql, std::string* error) {
    std::string v;
    bool null = false;
    return Value(sql, &v, &null, error);
  }
  // Waits until the socket has something to read or the deadline passes.
  bool Wait(std::chrono::steady_clock::time_point deadline) const {
    const int fd = pq_.socket(conn_);
    if (fd < 0) return false;
    for (;;) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) return false;
      pollfd p{fd, POLLIN, 0};
      int n = poll(&p, 1, static_cast<int>(std::min<long long>(left.count(), 1000 * 60)));
      if (n > 0) return true;
      if (n < 0 && errno != EINTR) return false;
    }
  }

  std::string Label() const {
    std::string user = pq_.user(conn_), host = pq_.host(conn_), port = pq_.port(conn_), db = pq_.db(conn_);
    return user + "@" + host + ":" + port + "/" + db;
  }

 private:
  const Libpq& pq_;
  PGconn* conn_;
  int answer_ms_;
};

// A connection with pgconflint's timeouts: the connection string may set
// connect_timeout (later keywords win), but application_name is always
// pgconflint's. Null with *error (the label, then libpq's reason).
std::unique_ptr<Connection> Connect(const std::string& conninfo, const LiveOptions& options, std::string* label,
                                    std::string* error) {
  *label = MaskSecrets(conninfo);
  const Libpq* pq = LoadLibpq(error);
  if (!pq) return nullptr;
  const std::string timeout = std::to_string(options.connect_timeout_s);
  const char* keys[] = {"connect_timeout", "dbname", "application_name", nullptr};
  const char* values[] = {timeout.c_str(), conninfo.c_str(), "pgconflint", nullptr};
  auto c = std::make_unique<Connection>(*pq, pq->connectdb_params(keys, values, 1),
                                        options.statement_timeout_ms + kAnswerMarginMs);
  std::string message;
  if (!c->Connected(&message)) {
    *error = "cannot connect to " + *label + ": " + message;
    return nullptr;
  }
  *label = c->Label();
  return c;
}

}  // namespace

bool LibpqSnapshotTaker::ThreadSafe() const { return !LibpqOnSecondCLibrary(); }

bool LibpqSnapshotTaker::Take(const std::string& conninfo, std::string* json, std::string* label,
                              std::string* error) const {
  if (TakeUnscrubbed(conninfo, json, label, error)) return true;
  // libpq echoes parts of a connection string it cannot parse (`invalid
  // percent-encoded token: "hunter2%zz"`, a malformed URI whole).
  *error = ScrubSecrets(*error, SecretsIn(conninfo));
  return false;
}

bool LibpqSnapshotTaker::TakeUnscrubbed(const std::string& conninfo, std::string* json, std::string* label,
                                        std::string* error) const {
  std::unique_ptr<Connection> c = Connect(conninfo, options_, label, error);
  if (!c) return false;
  std::string message;
  const std::string begin = "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; SET LOCAL statement_timeout = " +
                            std::to_string(options_.statement_timeout_ms) +
                            "; SET LOCAL default_transaction_read_only = on";
  if (!c->Run(begin.c_str(), &message)) {
    *error = *label + ": " + message;
    return false;
  }
  std::string doc = "{\"pgconflint_snapshot\": 1, \"server\": " + JsonString(*label);
  for (const SnapshotQuery& q : SnapshotQueries()) {
    std::string value, visible = "t";
    bool null = false;
    if ((q.visibility && !c->Value(q.visibility, &visible, &null, &message)) ||
        (visible == "t" && !c->Value(q.sql, &value, &null, &message))) {
      *error = *label + ": " + q.key + ": " + message;
      return false;
    }
    doc += std::string(", \"") + q.key + "\": " + (visible == "t" && !null ? value : "null");
  }
  c->Run("COMMIT", &message);
  *json = doc + "}";
  return true;
}

bool MaskSnapshotSecrets(std::string* json, int indent, std::string* error) {
  try {
    nlohmann::ordered_json doc = ParseJson<nlohmann::ordered_json>(*json);
    MaskStrings(&doc);
    *json = doc.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
  } catch (const std::exception& e) {
    *error = std::string("the server's answer is not valid JSON: ") + e.what();
    return false;
  }
  return true;
}

bool ExecuteStatement(const std::string& conninfo, const std::string& statement, const LiveOptions& options,
                      std::string* label, std::string* error) {
  std::unique_ptr<Connection> c = Connect(conninfo, options, label, error);
  std::string message, before, now;
  bool null = false;
  // ALTER SYSTEM refuses to run in a transaction block: the statement runs
  // alone, after the session's statement_timeout.
  const std::string timeout = "SET statement_timeout = " + std::to_string(options.statement_timeout_ms);
  const bool reload = statement.find("pg_reload_conf()") != std::string::npos;
  bool ok = c && c->Run(timeout.c_str(), &message) &&
            (!reload || c->Value("SELECT pg_conf_load_time()", &before, &null, &message)) &&
            c->Run(statement.c_str(), &message);
  // pg_reload_conf() only signals the postmaster. It signals every backend,
  // this one too, once it has read the files again, and this backend then
  // rereads them itself before its next statement: a new load time here
  // means a connection made now sees the new configuration. Two seconds at
  // most (a file the server cannot parse keeps the old time).
  for (int i = 0; ok && reload && i < 100; ++i) {
    ok = c->Value("SELECT pg_conf_load_time()", &now, &null, &message);
    if (!ok || now != before) break;
    usleep(20 * 1000);
  }
  if (c && !ok) *error = message;
  if (!ok) *error = ScrubSecrets(*error, SecretsIn(conninfo));
  return ok;
}

}  // namespace pgconflint::live
