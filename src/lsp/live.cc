// A running server in the editor (initializationOptions live.conninfo):
// its snapshot (core/server/snapshot.h) is read on a thread of its own, by
// the LiveClient the command line gives (src/live: a child process per
// request), when the server is configured, a document is opened or saved,
// and on the command pgconflint.live.refresh; never on a keystroke. Hover,
// inlay hints, completion and the server's complaints read that snapshot
// and cost no round trip. With live.allowWrites, code actions offer ALTER
// SYSTEM for the line at the cursor and a reload, each showing its exact
// statement in its title and again in a window/showMessageRequest that
// must be answered "Run" before the statement is sent. Without it only
// the snapshot's read-only transaction reaches the server. The connection
// string is never shown: messages name the server as it names itself
// (user@host:port/dbname), or the connection string masked; a statement's
// value is shown with its passwords masked (primary_conninfo's).
#include <exception>
#include <new>
#include <ostream>

#include "core/model/secrets.h"
#include "core/server/server_state.h"
#include "core/sql/sql_quote.h"
#include "core/base/escape.h"
#include "lsp/cursor.h"
#include "lsp/session.h"

namespace pgconflint::lsp {
namespace {

constexpr const char* kRefresh = "pgconflint.live.refresh";
constexpr const char* kAlterSystem = "pgconflint.live.alterSystem";
constexpr const char* kReload = "pgconflint.live.reload";
constexpr const char* kReloadStatement = "SELECT pg_reload_conf()";
constexpr const char* kRun = "Run";

// A client that throws (a bug, memory running out) answers as a server that
// could not be read: its thread never ends the editor's server, and the
// next open or save asks again.
LiveReply AskGuarded(const LiveClient& live, const LiveRequest& request, const std::atomic<bool>& cancel) {
  LiveReply reply;
  try {
    return live.Ask(request, cancel);
  } catch (const std::bad_alloc&) {
    reply.error = "out of memory";
  } catch (const std::exception& e) {
    reply.error = e.what();
  }
  reply.label = request.conninfo;  // masked with every label
  return reply;
}

}  // namespace

void Session::SetPoster(std::function<void(std::function<void()>)> post) { post_ = std::move(post); }

void Session::StopLive() {
  live_.cancel = true;
  if (live_.thread.joinable()) live_.thread.join();
  live_.busy = false;
}

void Session::ConfigureLive(const json& settings, std::vector<std::string>* problems) {
  std::string conninfo;
  bool allow_writes = false;
  if (const json* live = Find(settings, "live"); live && !live->is_object()) {
    problems->push_back("live: expected an object with conninfo and allowWrites");
  } else if (live) {
    if (const json* v = Find(*live, "conninfo"); v && v->is_string()) conninfo = v->get<std::string>();
    else if (v) problems->push_back("live.conninfo: expected a connection string");
    if (const json* v = Find(*live, "allowWrites"); v && v->is_boolean()) allow_writes = v->get<bool>();
    else if (v) problems->push_back("live.allowWrites: expected true or false");
  }
  if (!conninfo.empty() && !options_.live) {
    problems->push_back("live.conninfo: this pgconflint cannot connect to servers");
    conninfo.clear();
  }
  if (conninfo == live_.conninfo && allow_writes == live_.allow_writes) return;
  // Another server, or none: what is under way or queued was for the old one.
  StopLive();
  live_.cancel = false;
  ++live_.epoch;
  live_.conninfo = conninfo;
  live_.allow_writes = allow_writes;
  live_.have = false;
  live_.snapshot = Snapshot();
  live_.label = MaskSecrets(conninfo);
  live_.error.clear();
  live_.refresh = false;
  live_.writes.clear();
  RefreshLive();
}

void Session::RefreshLive() {
  if (live_.conninfo.empty()) return;
  live_.refresh = true;
  NextLiveRequest();
}

void Session::NextLiveRequest() {
  if (live_.busy || live_.conninfo.empty() || (live_.writes.empty() && !live_.refresh)) return;
  LiveWrite write;
  if (!live_.writes.empty()) {
    write = live_.writes.front();
    live_.writes.pop_front();
  }
  write.request.conninfo = live_.conninfo;
  live_.refresh = false;  // every answer carries a snapshot
  live_.busy = true;
  if (live_.thread.joinable()) live_.thread.join();  // it has posted its answer: it is ending
  const uint64_t epoch = live_.epoch;
  if (!post_) {
    LiveAnswered(epoch, write, AskGuarded(*options_.live, write.request, live_.cancel));
    return;
  }
  live_.thread = std::thread([this, epoch, write] {
    LiveReply reply = AskGuarded(*options_.live, write.request, live_.cancel);
    post_([this, epoch, write, reply] { LiveAnswered(epoch, write, reply); });
  });
}

void Session::LiveAnswered(uint64_t epoch, const LiveWrite& write, const LiveReply& reply) {
  if (epoch != live_.epoch) return;  // configured anew meanwhile: ConfigureLive stopped it
  live_.busy = false;
  // The LiveClient keeps secrets out of its answers; nothing from it reaches
  // the client without being scrubbed once more.
  LiveReply scrubbed = reply;
  scrubbed.label = MaskSecrets(ScrubSecrets(reply.label, SecretsIn(live_.conninfo)));
  scrubbed.error = ScrubSecrets(reply.error, SecretsIn(live_.conninfo));
  scrubbed.statement_error = ScrubSecrets(reply.statement_error, SecretsIn(live_.conninfo));
  if (!write.request.statement.empty()) AfterWrite(write, scrubbed);
  Snapshot snapshot;
  std::string error = scrubbed.error;
  if (error.empty() && !ReadSnapshot(reply.snapshot, &snapshot, &error)) error = "its snapshot: " + error;
  live_.label = scrubbed.label;
  const bool had = live_.have;
  if (!error.empty()) {
    // Once per failure: a server that stays down is not announced at every save.
    if (error != live_.error)
      Show(kMessageError, "pgconflint: live server " + live_.label + ": " + error +
                              " (hover and hints show no running values until it answers; the files are still "
                              "checked)");
    live_.error = error;
    live_.have = false;
    live_.snapshot = Snapshot();
  } else {
    live_.error.clear();
    live_.have = true;
    live_.snapshot = std::move(snapshot);
    Log(kMessageLog, "pgconflint: live server " + live_.label + " (PostgreSQL " + live_.snapshot.server_version +
                         "): read " + std::to_string(live_.snapshot.settings.size()) + " parameters");
  }
  if ((had || live_.have) && !documents_.empty()) {
    // Every root again: the server's complaints are findings of its files.
    for (auto& [uri, doc] : documents_) {
      stale_roots_.insert(doc.roots.begin(), doc.roots.end());
      Schedule(&doc, Clock::duration::zero());
    }
    const json* ws = Find(client_capabilities_, "workspace");
    if (ws && ClientSupports(*ws, {"inlayHint", "refreshSupport"})) Request("workspace/inlayHint/refresh", nullptr);
    if (pull_ && ws && ClientSupports(*ws, {"diagnostics", "refreshSupport"}))
      Request("workspace/diagnostic/refresh", nullptr);
  }
  NextLiveRequest();
}

void Session::AfterWrite(const LiveWrite& write, const LiveReply& reply) {
  // A value may hold a password (primary_conninfo): shown masked, as the editor shows any.
  const std::string statement = MaskSecrets(write.request.statement);
  if (!reply.executed) {
    Show(kMessageError, "pgconflint: " + statement + " failed on " + reply.label + ": " +
                            ScrubSecrets(reply.statement_error, SecretsIn(write.request.statement)));
    return;
  }
  std::string what = write.meaning;
  Snapshot after;
  std::string error;
  if (ReadSnapshot(reply.snapshot, &after, &error)) {
    std::string pending;
    for (const SnapshotSetting& r : after.settings)
      if (r.pending_restart) pending += (pending.empty() ? "" : ", ") + r.name;
    if (!pending.empty()) what += "; waiting for a restart (pending_restart): " + pending;
  }
  Show(kMessageInfo, "pgconflint: ran " + statement + " on " + reply.label + ": " + what);
}

void Session::LiveActions(const FileView& view, Range range, const json* only, json* actions) {
  if (!live_.allow_writes || !live_.have || !ActionKindWanted(only, "")  /* these actions have no kind */) return;
  const std::string on = " on " + live_.label;
  if (view.loaded().kind == FileKind::kConf) {
    for (const Setting& s : view.analysis->settings) {
      if (s.file != view.file || s.name_range.end < range.begin || s.name_range.begin > range.end) continue;
      if (!s.param || !s.applied || s.param->context == Context::kInternal) continue;
      const std::string statement = MaskSecrets(AlterSystemStatement(*s.param, s.text));
      actions->push_back({{"title", "Apply with ALTER SYSTEM" + on + ": " + statement},
                          {"command",
                           {{"title", statement},
                            {"command", kAlterSystem},
                            {"arguments", {{{"parameter", s.param->name}, {"value", s.text}}}}}}});
    }
  }
  actions->push_back({{"title", std::string("Reload configuration") + on + ": " + kReloadStatement},
                      {"command", {{"title", kReloadStatement}, {"command", kReload}, {"arguments", json::array()}}}});
}

json Session::LiveCommand(const std::string& command, const json& args) {
  if (live_.conninfo.empty()) throw RpcError(kRequestFailed, "no live server: set live.conninfo");
  if (command == kRefresh) {
    RefreshLive();
    return nullptr;
  }
  if (command != kAlterSystem && command != kReload) throw RpcError(kInvalidParams, "unknown command " + command);
  if (!live_.allow_writes) throw RpcError(kRequestFailed, "writes to the live server are off: set live.allowWrites");
  std::string statement = kReloadStatement;
  std::string meaning = "the server read its configuration files again";
  if (command == kAlterSystem) {
    // The statement is made here from a parameter the server's major knows
    // and a quoted value: a command's arguments never carry SQL.
    const json* arg = args.is_array() && !args.empty() ? &args[0] : nullptr;
    const Catalog* catalog = live_.have ? Catalog::ForMajor(live_.snapshot.major()) : nullptr;
    const Parameter* p = arg && catalog ? catalog->FindAnyName(StringOr(*arg, "parameter", "")) : nullptr;
    const json* value = arg ? Find(*arg, "value") : nullptr;
    if (!p || p->context == Context::kInternal || !value || !value->is_string())
      throw RpcError(kInvalidParams, "arguments: expected {parameter, value} of a parameter the server can change");
    statement = AlterSystemStatement(*p, value->get<std::string>());
    meaning = p->context == Context::kPostmaster
                  ? std::string("postgresql.auto.conf has it; ") + p->name +
                        " needs a restart: after a reload the server shows it as pending_restart until it restarts"
                  : "postgresql.auto.conf has it; the server applies it at the next reload (Reload configuration)";
  }
  const uint64_t epoch = live_.epoch;
  LiveWrite write{LiveRequest(), meaning};
  write.request.statement = statement;
  Request("window/showMessageRequest",
          {{"type", kMessageWarning},
           {"message", "Run on " + live_.label + "?\n\n" + MaskSecrets(statement)},
           {"actions", {{{"title", kRun}}, {{"title", "Cancel"}}}}},
          [this, epoch, write](const json& answer) {
            // Only an explicit "Run" for the same server sends it; no answer, an
            // error or Cancel sends nothing.
            if (epoch != live_.epoch || !answer.is_object() || StringOr(answer, "title", "") != kRun) {
              Log(kMessageLog, "pgconflint: not run: " + MaskSecrets(write.request.statement));
              return;
            }
            live_.writes.push_back(write);
            NextLiveRequest();
          });
  return nullptr;
}

void Session::LiveHover(const Parameter& p, std::ostream& o) const {
  if (!live_.have) return;
  const Catalog* catalog = Catalog::ForMajor(live_.snapshot.major());
  std::optional<RunningValue> v = catalog ? RunningValueOf(live_.snapshot, *catalog, p.name) : std::nullopt;
  o << "\n**Running** on " << MarkdownCode(live_.label) << ": ";
  if (!v) {
    o << "not in its pg_settings (not a parameter of that server, or its module is not loaded)\n";
    return;
  }
  o << MarkdownCode(MaskSecrets(v->value)) << " (" << v->source;
  if (!v->where.empty()) o << ", " << v->where;
  o << ")\n";
  if (!v->pending_restart) return;
  o << "\n**Pending restart**: ";
  if (!v->pending_value.empty())
    o << "the server's files say " << MarkdownCode(MaskSecrets(v->pending_value)) << " (" << v->pending_where << "); ";
  o << "it keeps running with " << MarkdownCode(MaskSecrets(v->value)) << " until it restarts (context " << v->context
    << ")\n";
}

std::optional<std::pair<std::string, std::string>> Session::LiveHint(const Setting& s, const Catalog& catalog) const {
  if (!live_.have || !s.param || !s.value) return std::nullopt;
  const SnapshotSetting* r = live_.snapshot.Setting(s.param->name);
  if (!r || (r->setting == *s.value && !r->pending_restart)) return std::nullopt;
  const std::string running = MaskSecrets(RunningText(catalog, *r));
  std::string label = "server: " + running + (r->pending_restart ? ", restart pending" : "");
  std::string tooltip = live_.label + " runs " + r->name + " = " + running + " (" + r->source + ")" +
                        (r->pending_restart ? "; a changed value waits for a restart" : "");
  return std::make_pair(std::move(label), std::move(tooltip));
}

}  // namespace pgconflint::lsp
