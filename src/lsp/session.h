// The worker side of the language server: the open documents, overlaid on the
// disk, the Workspace that lints them, and one handler per LSP method. Every
// answer comes from the core (Workspace, Analysis, EffectiveConfig, the
// catalog, the rules); this class only translates. Not thread-safe: the
// server's worker thread owns it.
#ifndef PGCONFLINT_LSP_SESSION_H_
#define PGCONFLINT_LSP_SESSION_H_

#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <iosfwd>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "core/model/analysis.h"
#include "core/base/file_system.h"
#include "core/server/snapshot.h"
#include "core/workspace/workspace.h"
#include "lsp/protocol.h"
#include "lsp/transport.h"

namespace pgconflint::lsp {

using Clock = std::chrono::steady_clock;

/// The types of window/showMessage and window/logMessage (MessageType).
enum MessageType : int { kMessageError = 1, kMessageWarning = 2, kMessageInfo = 3, kMessageLog = 4 };

/// How the server is run; the client's initializationOptions add to it.
struct ServerOptions {
  /// The command line's configuration (profile, rules, major...). Its `fs` is
  /// ignored: the server overlays its documents on `disk`.
  WorkspaceOptions workspace;
  const FileSystem* disk = nullptr;  // under the open documents; null = the real disk
  bool threaded = true;              // false: each message is handled when it arrives (tests, fuzzing)
  /// A change that arrives while a lint is already due (a burst: changes
  /// faster than they are linted) waits this long after the last one before
  /// linting; a change alone is linted at once (initializationOptions "debounce-ms").
  int debounce_ms = 20;
  /// The analyses kept once the server is idle, the most recently used first;
  /// a document whose root's analysis was dropped has it computed again when
  /// a request or a change needs it. Bounds memory with many roots open.
  size_t retained_analyses = 8;
  std::string docs_dir;              // rule pages are written here for codeDescription.href; "" = none
  std::string version = "0.0.0";    // serverInfo.version
  /// Talks to a running server when the client sets live.conninfo (src/live:
  /// a child process per request); null: live mode is not available.
  /// REQUIRES: outlives the session.
  const LiveClient* live = nullptr;
};

class Session {
 public:
  /// REQUIRES: `out` outlives the session.
  Session(const ServerOptions& options, Output* out);
  ~Session();

  /// Answers whether a queued change of `uri` is newer than `generation`
  /// (then the work for `generation` is stale), and whether request `id` was
  /// cancelled. Both default to "no".
  void SetStaleCheck(std::function<bool(const std::string& uri, uint64_t generation)> check);
  void SetCancelCheck(std::function<bool(const json& id)> check);
  /// How work done on another thread (a live server's answer) is handed
  /// back to the thread that owns the session: `post(task)` runs `task`
  /// there later. Unset: that work runs in the caller's thread at once
  /// (the unthreaded server of tests and the fuzzer).
  void SetPoster(std::function<void(std::function<void()>)> post);
  /// Cancels the request to a live server under way, if any, and waits for
  /// its thread; what it would have posted is dropped. Idempotent.
  void StopLive();

  /// Handles one message: a request, a notification or a response.
  /// `generation` numbers the document changes (didOpen/didChange/didClose).
  void Handle(const json& message, uint64_t generation);
  /// When the next debounced lint is due, if one is pending.
  std::optional<Clock::time_point> Deadline() const { return deadline_; }
  /// Lints and publishes what is due at `now` (everything pending if `force`).
  void RunDue(Clock::time_point now, bool force);
  /// Nothing is queued nor due: drops the analyses beyond the retained ones,
  /// the least recently used first.
  void Idle();
  /// A message the reader skipped (over the size limit): answers it when the
  /// start of its body names a request, and stops checking the document it
  /// carried.
  void Skipped(const ReaderEvent& event);
  /// Runs `work` (a due lint, the idle work, a skipped message, a live
  /// server's answer): a failure in it (a bug, memory running out) is
  /// shown to the user, once while it repeats, and the session goes on,
  /// as Handle does for a message. `what` names the work in that message.
  void Guard(const char* what, const std::function<void()>& work);

  bool done() const { return exited_; }
  /// 0 after shutdown then exit, 1 otherwise (LSP's exit codes).
  int exit_code() const { return shutdown_ ? 0 : 1; }

 private:
  struct Document {
    std::string uri, path;  // the text is the overlay's file at `path`
    int64_t version = 0;
    uint64_t generation = 0;
    bool dirty = true;               // to be looked at by the next refresh
    bool text_changed = true;        // its text differs from what its roots' analyses read
    bool acknowledge = true;         // opened or edited: its next diagnostics are published even if the same
    std::vector<std::string> roots;  // the roots it was last linted in
    bool roots_known = false;        // `roots` still hold: no include directive or file changed since
    std::string includes;            // its include directive lines, to tell when they change
    bool said_not_postgres = false;  // the log says it is not PostgreSQL configuration
    std::optional<size_t> published;  // a hash of the diagnostics last published
  };
  struct Root {
    Analysis analysis;
    std::string error;   // a configuration error (bad .pgconflint.toml, rule file): no analysis
    uint64_t used = 0;   // use_clock_ when last linted or read by a request
  };
  /// A diagnostic of a root's analysis that belongs to a document.
  struct Finding {
    const Analysis* analysis;
    const Diagnostic* diagnostic;
  };
  /// One file of a root's analysis (a document, or a file it includes).
  struct FileView {
    const Analysis* analysis = nullptr;
    int file = -1;
    const LoadedFile& loaded() const { return analysis->files[file]; }
    const SourceFile& source() const { return loaded().source; }
  };
  using Handler = json (Session::*)(const json& params);
  using NotificationHandler = void (Session::*)(const json& params);

  // session.cc: messages, lifecycle, configuration.
  void Dispatch(const json& message, const json& id, bool is_request);
  json Initialize(const json& params);
  json Shutdown(const json& params);
  void Initialized(const json& params);
  void Exit(const json& params);
  void DidChangeConfiguration(const json& params);
  void Configure(const json& settings);
  void Reply(const json& id, json result);
  void ReplyText(const json& id, const std::string& result);  // `result` is JSON text
  void ReplyError(const json& id, int code, const std::string& message);
  void Notify(const std::string& method, json params);
  /// Sends a request to the client; `answered` (optional) receives its
  /// result, or null for an error answer.
  void Request(const std::string& method, json params, std::function<void(const json& result)> answered = {});
  void Log(int type, const std::string& message);
  void Show(int type, const std::string& message);

  // documents.cc: text synchronisation, linting, publishing.
  void DidOpen(const json& params);
  void DidChange(const json& params);
  void DidClose(const json& params);
  void DidSave(const json& params);
  void DidChangeWatchedFiles(const json& params);
  Document* DocumentOf(const json& params);  // params.textDocument.uri: RpcError when not open
  /// `message`: `size` is that of the message that carried the text (skipped
  /// by the reader, over kMaxMessageSize), not of the text.
  bool Refuse(const std::string& uri, const std::string& path, uint64_t size, bool message = false);
  void Schedule(Document* doc, Clock::duration delay);
  void Refresh(bool publish, bool may_abort);
  /// Publishes the document's diagnostics; unless `always`, only when they
  /// differ from those last published.
  void Publish(Document& doc, bool always);
  void Fresh(Document& doc);  // a request needs the document's analysis up to date
  void DropUnusedRoots();     // the analyses of roots no open document is in
  std::string TextOf(const Document& doc) const;
  std::vector<Finding> Findings(const Document& doc) const;
  /// The document's diagnostics as JSON text: what is published, and what a
  /// pull request answers.
  std::string DiagnosticsText(const Document& doc);
  bool View(const Document& doc, FileView* out) const;
  /// The open document of params.textDocument.uri (RpcError when not open),
  /// brought up to date, and its view; null when it has none.
  Document* FreshView(const json& params, FileView* view);

  // diagnostics.cc: diagnostics, code actions, commands, rule pages.
  /// One diagnostic as LSP has it, written as JSON text (DiagnosticText) or
  /// read back as a value; one shape for both.
  std::string DiagnosticText(const Analysis& a, const Diagnostic& d);
  json DiagnosticJson(const Analysis& a, const Diagnostic& d);
  const std::string& FileUri(const std::string& abs_path);  // PathToUri, kept per path
  std::string DocumentDiagnostic(const json& params);  // JSON text
  json CodeAction(const json& params);
  json ExecuteCommand(const json& params);
  json EditJson(const Analysis& a, const std::vector<const Edit*>& edits);
  std::string RulePage(const RuleInfo& rule, bool write_now);  // its file:// URI; "" without docs_dir
  void WritePage(const RuleInfo& rule);
  void WritePendingPages();

  // hover.cc, completion.cc, navigation.cc: the other features.
  json Hover(const json& params);
  json Completion(const json& params);
  json PathCompletion(const Document& doc, const SourceFile& src, std::string_view value, uint32_t value_at,
                      uint32_t offset, bool directories_only);
  json Definition(const json& params);
  json DocumentLink(const json& params);
  json DocumentSymbol(const json& params);
  json InlayHint(const json& params);
  // references.cc: user name maps across pg_hba.conf and pg_ident.conf.
  json References(const json& params);
  json Rename(const json& params);
  json PrepareRename(const json& params);
  // formatting.cc: the layout of `pgconflint format`.
  json Formatting(const json& params);
  // live.cc: a running server (live.conninfo): its snapshot, read on open,
  // save and command in a thread of its own, and the writes it allows.
  void ConfigureLive(const json& settings, std::vector<std::string>* problems);
  void RefreshLive();  // asks for a new snapshot (one at a time; requests meanwhile make one more)
  void NextLiveRequest();
  /// A statement the user confirmed, and what its success means (shown with the answer).
  struct LiveWrite {
    LiveRequest request;
    std::string meaning;
  };
  void LiveAnswered(uint64_t epoch, const LiveWrite& write, const LiveReply& reply);
  const Snapshot* LiveSnapshot() const { return live_.have ? &live_.snapshot : nullptr; }
  void LiveActions(const FileView& view, Range range, const json* only, json* actions);
  json LiveCommand(const std::string& command, const json& args);
  void AfterWrite(const LiveWrite& write, const LiveReply& reply);
  void LiveHover(const Parameter& p, std::ostream& markdown) const;  // the running value, if live
  std::optional<std::pair<std::string, std::string>> LiveHint(const Setting& s, const Catalog& catalog) const;

  ServerOptions options_;
  Output* out_;
  std::function<bool(const std::string&, uint64_t)> stale_;
  std::function<bool(const json&)> cancelled_;

  std::unique_ptr<OverlayFileSystem> overlay_;
  std::unique_ptr<Workspace> workspace_;
  std::map<std::string, Document> documents_;  // by URI
  std::map<std::string, Root> roots_;          // by root path
  uint64_t use_clock_ = 0;                     // counts the uses of roots_
  std::set<std::string> refused_;              // URIs of documents over the size limit
  std::optional<Clock::time_point> deadline_;
  const FileSystem* disk_ = nullptr;  // under the overlay
  // Work for the next refresh besides the dirty documents' own: the tree may
  // have changed shape (an include line, a file appeared or went), and roots
  // whose analyses read a text that is no longer there (a closed document's).
  bool structure_changed_ = false;
  std::set<std::string> stale_roots_;

  // Negotiated at initialize.
  ColumnUnit unit_ = ColumnUnit::kUtf16;
  json client_capabilities_ = json::object();
  bool pull_ = false;       // the client pulls diagnostics: nothing is pushed
  bool on_save_ = false;    // run = onSave: publish on open and save only
  int debounce_ms_ = 20;
  std::string root_folder_;  // the client's root, for relative rule paths and display
  json settings_ = json::object();  // initializationOptions, then didChangeConfiguration

  bool initialized_ = false;
  bool shutdown_ = false;
  bool exited_ = false;
  int next_request_ = 0;
  uint64_t pending_generation_ = 0;     // of the message being handled
  std::string last_error_;               // the last configuration error shown
  std::string last_failure_;             // the last failure Guard showed
  std::set<std::string> pages_written_;  // rule pages written to docs_dir, by rule name
  std::map<std::string, std::string> uris_;   // FileUri's: absolute path -> file:// URI
  std::set<std::string> pages_pending_;  // linked to, written after publishing
  std::map<std::string, std::function<void(const json&)>> answers_;  // our requests' ids -> who waits

  // A running server (live.cc).
  struct Live {
    std::string conninfo;         // "": off
    bool allow_writes = false;
    uint64_t epoch = 0;           // changes with the configuration: older answers are dropped
    bool have = false;            // `snapshot` is the server's last answer
    Snapshot snapshot;            // WorkspaceOptions::server points here
    std::string label;            // the server, without secrets
    std::string error;            // the last failure, shown once
    bool busy = false;            // a request is under way
    bool refresh = false;         // a snapshot was asked for meanwhile
    std::deque<LiveWrite> writes;  // statements confirmed by the user, in order
    std::thread thread;
    std::atomic<bool> cancel{false};
  } live_;
  std::function<void(std::function<void()>)> post_;
};

}  // namespace pgconflint::lsp

#endif  // PGCONFLINT_LSP_SESSION_H_
