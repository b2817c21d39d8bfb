// Messages, the lifecycle (initialize, shutdown, exit) and configuration.
#include "lsp/session.h"

#include <exception>
#include <new>

#include "core/base/strings.h"
#include "core/knowledge/catalog.h"
#include "core/base/json_read.h"
#include "core/rules/profile.h"

namespace pgconflint::lsp {
namespace {

constexpr int kMaxDebounceMs = 60000;

// The method tables. Requests answer; notifications do not.
struct RequestEntry {
  const char* method;
  json (Session::*handler)(const json&);
};
// A request whose result is written as JSON text (diagnostics are serialised
// once, for publication and pulls alike).
struct TextRequestEntry {
  const char* method;
  std::string (Session::*handler)(const json&);
};

// A profile fact from a JSON value: strings as written, numbers as JSON
// prints them, booleans as yes/no (--io-uring yes).
std::string FactText(const json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_boolean()) return v.get<bool>() ? "yes" : "no";
  if (v.is_number()) return v.dump();
  return "";
}

}  // namespace

Session::Session(const ServerOptions& options, Output* out)
    : options_(options), out_(out), debounce_ms_(options.debounce_ms) {
  static const RealFileSystem disk;
  disk_ = options_.disk ? options_.disk : &disk;
  overlay_ = std::make_unique<OverlayFileSystem>(disk_, disk_->CurrentDirectory());
  stale_ = [](const std::string&, uint64_t) { return false; };
  cancelled_ = [](const json&) { return false; };
}

Session::~Session() { StopLive(); }

void Session::SetStaleCheck(std::function<bool(const std::string&, uint64_t)> check) { stale_ = std::move(check); }
void Session::SetCancelCheck(std::function<bool(const json&)> check) { cancelled_ = std::move(check); }

void Session::Handle(const json& message, uint64_t generation) {
  if (!message.is_object()) {
    ReplyError(nullptr, kInvalidRequest, "a message is a JSON object");
    return;
  }
  auto id_it = message.find("id");
  const bool has_id = id_it != message.end();
  const json id = has_id ? *id_it : json(nullptr);
  if (has_id && !id.is_string() && !id.is_number_integer() && !id.is_null()) {
    ReplyError(nullptr, kInvalidRequest, "id: expected an integer or a string");
    return;
  }
  auto method_it = message.find("method");
  if (method_it == message.end()) {
    // A response to one of our requests (registerCapability, showDocument):
    // nothing waits for it; an error is logged.
    const bool answer = has_id && (message.contains("error") || message.contains("result"));
    auto waiting = answer && id.is_string() ? answers_.find(id.get<std::string>()) : answers_.end();
    if (waiting != answers_.end()) {
      std::function<void(const json&)> answered = std::move(waiting->second);
      answers_.erase(waiting);
      answered(message.contains("result") ? message["result"] : json(nullptr));
    }
    if (has_id && message.contains("error")) Log(kMessageLog, "the client answered with an error: " + Dump(message["error"]));
    else if (!answer) ReplyError(id, kInvalidRequest, "a message without a method");
    return;
  }
  if (!method_it->is_string()) {
    if (has_id) ReplyError(id, kInvalidRequest, "method: expected a string");
    return;
  }
  pending_generation_ = generation;
  try {
    Dispatch(message, id, has_id);
  } catch (const RpcError& e) {
    if (has_id) ReplyError(id, e.code, e.what());
    else Log(kMessageError, method_it->get<std::string>() + ": " + e.what());
  } catch (const json::exception& e) {
    if (has_id) ReplyError(id, kInvalidParams, e.what());
    else Log(kMessageError, method_it->get<std::string>() + ": " + e.what());
  } catch (const std::bad_alloc&) {
    if (has_id) ReplyError(id, kInternalError, "out of memory");
  } catch (const std::exception& e) {
    if (has_id) ReplyError(id, kInternalError, e.what());
    else Log(kMessageError, method_it->get<std::string>() + ": " + e.what());
  }
}

void Session::Guard(const char* what, const std::function<void()>& work) {
  std::string why;
  try {
    work();
    return;
  } catch (const std::bad_alloc&) {
    why = "out of memory";
  } catch (const std::exception& e) {
    why = e.what();
  }
  try {
    const std::string message = std::string("pgconflint: ") + what + " failed: " + why;
    if (message == last_failure_) {
      Log(kMessageError, message);
      return;
    }
    last_failure_ = message;
    Show(kMessageError, message + " (the server goes on)");
  } catch (const std::exception&) {
    // Saying it failed too (no memory left): the next work says it.
  }
}

void Session::Dispatch(const json& message, const json& id, bool is_request) {
  static const RequestEntry kRequests[] = {
      {"initialize", &Session::Initialize},
      {"shutdown", &Session::Shutdown},
      {"textDocument/hover", &Session::Hover},
      {"textDocument/completion", &Session::Completion},
      {"textDocument/codeAction", &Session::CodeAction},
      {"textDocument/inlayHint", &Session::InlayHint},
      {"textDocument/documentLink", &Session::DocumentLink},
      {"textDocument/definition", &Session::Definition},
      {"textDocument/documentSymbol", &Session::DocumentSymbol},
      {"textDocument/references", &Session::References},
      {"textDocument/rename", &Session::Rename},
      {"textDocument/prepareRename", &Session::PrepareRename},
      {"textDocument/formatting", &Session::Formatting},
      {"workspace/executeCommand", &Session::ExecuteCommand},
  };
  static const TextRequestEntry kTextRequests[] = {
      {"textDocument/diagnostic", &Session::DocumentDiagnostic},
  };
  static const std::map<std::string, void (Session::*)(const json&)> kNotifications = {
      {"initialized", &Session::Initialized},
      {"exit", &Session::Exit},
      {"textDocument/didOpen", &Session::DidOpen},
      {"textDocument/didChange", &Session::DidChange},
      {"textDocument/didClose", &Session::DidClose},
      {"textDocument/didSave", &Session::DidSave},
      {"workspace/didChangeWatchedFiles", &Session::DidChangeWatchedFiles},
      {"workspace/didChangeConfiguration", &Session::DidChangeConfiguration},
  };
  const std::string method = message["method"].get<std::string>();
  static const json kNoParams = json::object();
  auto params_it = message.find("params");
  // A method without parameters: "params" absent or, as some clients send it, null.
  const json& params = params_it == message.end() || params_it->is_null() ? kNoParams : *params_it;
  if (!params.is_object() && !params.is_array()) throw RpcError(kInvalidParams, "params: expected an object");
  if (method == "exit") return Exit(params);
  if (!initialized_ && method != "initialize") {
    if (is_request) ReplyError(id, kServerNotInitialized, "initialize first");
    return;
  }
  if (shutdown_) {
    if (is_request) ReplyError(id, kInvalidRequest, "the server is shutting down");
    return;
  }
  if (!is_request) {
    auto it = kNotifications.find(method);
    if (it != kNotifications.end()) (this->*(it->second))(params);
    return;  // unknown notifications ($/setTrace, $/progress...) are ignored
  }
  if (cancelled_(id)) {
    ReplyError(id, kRequestCancelled, "cancelled");
    return;
  }
  for (const RequestEntry& r : kRequests)
    if (method == r.method) {
      json result = (this->*(r.handler))(params);
      if (!exited_) Reply(id, std::move(result));
      return;
    }
  for (const TextRequestEntry& r : kTextRequests)
    if (method == r.method) {
      std::string result = (this->*(r.handler))(params);
      if (!exited_) ReplyText(id, result);
      return;
    }
  ReplyError(id, kMethodNotFound, "unknown method " + method);
}

json Session::Initialize(const json& params) {
  if (initialized_) throw RpcError(kInvalidRequest, "initialize was already called");
  if (const json* caps = Find(params, "capabilities"); caps && caps->is_object()) client_capabilities_ = *caps;
  unit_ = NegotiateEncoding(client_capabilities_);
  const json* text_caps = Find(client_capabilities_, "textDocument");
  pull_ = text_caps && Find(*text_caps, "diagnostic");
  std::string uri = StringOr(params, "rootUri", "");
  if (const json* folders = Find(params, "workspaceFolders"); folders && folders->is_array() && !folders->empty())
    uri = StringOr((*folders)[0], "uri", uri);
  std::string path;
  if (!uri.empty() && UriToPath(uri, &path)) root_folder_ = path;
  initialized_ = true;
  const json* init = Find(params, "initializationOptions");
  Configure(init && init->is_object() ? *init : json::object());

  json capabilities = {
      {"positionEncoding", EncodingName(unit_)},
      {"textDocumentSync", {{"openClose", true}, {"change", 2}, {"save", {{"includeText", false}}}}},
      {"hoverProvider", true},
      {"completionProvider", {{"triggerCharacters", {"=", " ", "'", ",", "/"}}, {"resolveProvider", false}}},
      {"codeActionProvider",
       {{"codeActionKinds", {"quickfix", "source.fixAll.pgconflint"}}, {"resolveProvider", false}}},
      {"executeCommandProvider",
       {{"commands",
         {"pgconflint.showDocumentation", "pgconflint.live.refresh", "pgconflint.live.alterSystem",
          "pgconflint.live.reload"}}}},
      {"inlayHintProvider", true},
      {"documentLinkProvider", {{"resolveProvider", false}}},
      {"definitionProvider", true},
      {"documentSymbolProvider", true},
      {"referencesProvider", true},
      {"documentFormattingProvider", true},
  };
  // RenameOptions only for a client that says it sends prepareRename.
  const json* rename_caps = text_caps ? Find(*text_caps, "rename") : nullptr;
  const bool prepare = rename_caps && rename_caps->is_object() && rename_caps->value("prepareSupport", false);
  capabilities["renameProvider"] = prepare ? json{{"prepareProvider", true}} : json(true);
  if (pull_) capabilities["diagnosticProvider"] = {{"interFileDependencies", true}, {"workspaceDiagnostics", false}};
  json result = {{"capabilities", std::move(capabilities)},
                 {"serverInfo", {{"name", "pgconflint"}, {"version", options_.version}}}};
  // clangd's extension, which Neovim before 0.10 reads.
  if (!Find(client_capabilities_, "general")) result["offsetEncoding"] = EncodingName(unit_);
  return result;
}

void Session::Initialized(const json&) {
  const json* ws = Find(client_capabilities_, "workspace");
  const json* watched = ws ? Find(*ws, "didChangeWatchedFiles") : nullptr;
  const json* dynamic = watched ? Find(*watched, "dynamicRegistration") : nullptr;
  if (!dynamic || !dynamic->is_boolean() || !dynamic->get<bool>()) return;
  // Rule files and .pgconflint.toml are TOML; included files are usually
  // *.conf, sometimes *.inc.
  json watchers = json::array();
  for (const char* glob : {"**/*.conf", "**/*.toml", "**/*.inc"}) watchers.push_back({{"globPattern", glob}});
  Request("client/registerCapability",
          {{"registrations",
            {{{"id", "pgconflint-watched-files"},
              {"method", "workspace/didChangeWatchedFiles"},
              {"registerOptions", {{"watchers", std::move(watchers)}}}}}}});
}

json Session::Shutdown(const json&) {
  shutdown_ = true;
  return nullptr;
}

void Session::Exit(const json&) { exited_ = true; }

void Session::DidChangeConfiguration(const json& params) {
  const json* settings = Find(params, "settings");
  const json* mine = settings ? Find(*settings, "pgconflint") : nullptr;
  if (mine && mine->is_object()) Configure(*mine);
}

void Session::Configure(const json& settings) {
  WorkspaceOptions o = options_.workspace;
  o.fs = overlay_.get();
  if (!root_folder_.empty()) o.display_base = root_folder_;
  std::vector<std::string> problems;
  if (const json* v = Find(settings, "pg-version")) {
    std::optional<int> major = JsonInt(*v);  // 4294967314 is no 18
    if (major && (*major == 0 || Catalog::ForMajor(*major)))
      o.pg_version = *major;
    else
      problems.push_back("pg-version: expected one of " + CommaList(Catalog::SupportedMajors()));
  }
  if (const json* v = Find(settings, "profile"); v && !v->is_object()) {
    problems.push_back("profile: expected an object of facts");
  } else if (v) {
    for (const auto& [key, value] : v->items()) {
      // Checked here, so that one bad fact does not stop every lint.
      Profile scratch;
      std::string text = FactText(value);
      std::string error = "expected a string, number or boolean";
      if (!text.empty() && SetProfileFact(&scratch, key, text, &error)) o.profile_facts.emplace_back(key, text);
      else problems.push_back("profile." + key + ": " + error);
    }
  }
  if (const json* v = Find(settings, "run")) {
    if (v->is_string() && (*v == "onType" || *v == "onSave")) on_save_ = *v == "onSave";
    else problems.push_back("run: expected \"onType\" or \"onSave\"");
  }
  if (const json* v = Find(settings, "extra-rules")) {
    bool ok = v->is_array();
    for (const json& p : ok ? *v : json::array()) {
      if (!p.is_string() || p.get<std::string>().empty()) ok = false;
      else o.rule_paths.push_back(p.get<std::string>()[0] == '/' || root_folder_.empty()
                                      ? p.get<std::string>()
                                      : root_folder_ + "/" + p.get<std::string>());
    }
    if (!ok) problems.push_back("extra-rules: expected an array of paths");
  }
  if (const json* v = Find(settings, "debounce-ms")) {
    if (v->is_number_integer() && v->get<int64_t>() >= 0 && v->get<int64_t>() <= kMaxDebounceMs)
      debounce_ms_ = v->get<int>();
    else
      problems.push_back("debounce-ms: expected 0 to " + std::to_string(kMaxDebounceMs));
  }
  ConfigureLive(settings, &problems);
  o.server = live_.conninfo.empty() ? nullptr : &live_.snapshot;
  std::string list;
  for (const std::string& p : problems) list += (list.empty() ? "" : "; ") + p;
  if (!list.empty()) Show(kMessageWarning, "pgconflint: ignored settings: " + list);
  settings_ = settings;
  workspace_ = std::make_unique<Workspace>(o);
  roots_.clear();
  pages_written_.clear();
  pages_pending_.clear();
  last_error_.clear();
  structure_changed_ = true;  // another workspace: every root is looked up and linted again
  for (auto& [uri, doc] : documents_) Schedule(&doc, Clock::duration::zero());
}

void Session::Reply(const json& id, json result) {
  out_->Send(Dump({{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}}));
}

void Session::ReplyText(const json& id, const std::string& result) {
  out_->Send(R"({"id":)" + Dump(id) + R"(,"jsonrpc":"2.0","result":)" + result + "}");
}

void Session::ReplyError(const json& id, int code, const std::string& message) {
  out_->Send(Dump({{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", code}, {"message", message}}}}));
}

void Session::Notify(const std::string& method, json params) {
  out_->Send(Dump({{"jsonrpc", "2.0"}, {"method", method}, {"params", std::move(params)}}));
}

void Session::Request(const std::string& method, json params, std::function<void(const json&)> answered) {
  const std::string id = "pgconflint-" + std::to_string(++next_request_);
  if (answered) answers_[id] = std::move(answered);
  out_->Send(Dump({{"jsonrpc", "2.0"},
                   {"id", id},
                   {"method", method},
                   {"params", std::move(params)}}));
}

void Session::Log(int type, const std::string& message) {
  Notify("window/logMessage", {{"type", type}, {"message", message}});
}

void Session::Show(int type, const std::string& message) {
  Notify("window/showMessage", {{"type", type}, {"message", message}});
}

}  // namespace pgconflint::lsp
