// Text synchronisation and linting: documents live in the overlay file
// system over the disk; a change forgets the file in the workspace and
// schedules a lint of every root the document belongs to. A root is linted
// only when a text it reads changed (opening a document whose text is the
// disk's costs no lint when its root is already linted), every root only
// when the tree's shape may have changed. Only the latest version of a
// document is published; a document that did not change is published only
// when its diagnostics did.
#include <algorithm>
#include <limits>
#include <regex>

#include "lsp/session.h"

namespace pgconflint::lsp {
namespace {

bool Intersects(const std::vector<std::string>& roots, const std::set<std::string>& set) {
  return std::any_of(roots.begin(), roots.end(), [&](const std::string& r) { return set.count(r) > 0; });
}

// The include directive lines of a text: while they stay the same, an edit
// cannot change which roots include which file.
std::string IncludeLines(std::string_view text) {
  std::string out;
  for (size_t at = 0; at < text.size();) {
    size_t eol = std::min(text.find('\n', at), text.size());
    std::string_view line = text.substr(at, eol - at);
    size_t first = line.find_first_not_of(" \t");
    if (first != std::string_view::npos && line.size() - first >= 7 &&
        AsciiLower(line.substr(first, 7)) == "include") {
      out.append(line);
      out += '\n';
    }
    at = eol + 1;
  }
  return out;
}

// A JSON string member named `key` in the start of a message that was not
// read whole (best effort: the body is cut anywhere).
std::optional<json> Sniff(const std::string& prefix, const char* key, const char* value_pattern) {
  std::smatch m;
  std::regex re(std::string("\"") + key + "\"\\s*:\\s*(" + value_pattern + ")");
  if (!std::regex_search(prefix, m, re)) return std::nullopt;
  try {
    return json::parse(m[1].str());
  } catch (const json::exception&) {
    return std::nullopt;
  }
}

}  // namespace

Session::Document* Session::DocumentOf(const json& params) {
  std::string uri = String(Object(params, "textDocument"), "uri");
  auto it = documents_.find(uri);
  if (it == documents_.end())
    throw RpcError(kInvalidParams, refused_.count(uri) ? uri + " is over the size limit and is not checked"
                                                       : uri + " is not open");
  return &it->second;
}

std::string Session::TextOf(const Document& doc) const {
  std::string text, error;
  overlay_->Read(doc.path, &text, &error);
  return text;
}

bool Session::Refuse(const std::string& uri, const std::string& path, uint64_t size, bool message) {
  if (!message && size <= kMaxFileSize) {
    refused_.erase(uri);
    return false;
  }
  Show(kMessageError, "pgconflint: " + path +
                          (message ? "'s message is " + std::to_string(size) + " bytes, over the limit of " +
                                         std::to_string(kMaxMessageSize)
                                   : " is " + std::to_string(size) + " bytes, over the limit of " +
                                         std::to_string(kMaxFileSize)) +
                          " bytes: it is not checked");
  refused_.insert(uri);
  if (documents_.erase(uri)) {
    overlay_->Remove(path);
    workspace_->Forget(path);
    if (!pull_) Notify("textDocument/publishDiagnostics", {{"uri", uri}, {"diagnostics", json::array()}});
  }
  return true;
}

void Session::DidOpen(const json& params) {
  const json& td = Object(params, "textDocument");
  std::string uri = String(td, "uri"), text = String(td, "text"), path;
  if (!UriToPath(uri, &path)) {
    Log(kMessageLog, uri + " is not a local file: it is not checked");
    return;
  }
  if (Refuse(uri, path, text.size())) return;
  Document& doc = documents_[uri];
  doc = Document();
  doc.uri = uri;
  doc.path = path;
  doc.version = Find(td, "version") ? Integer(td, "version") : 0;
  doc.generation = pending_generation_;
  doc.includes = IncludeLines(text);
  // A text the workspace already read changes nothing in the analyses of its
  // roots, nor does the disk's text of a file nothing read: then no root is
  // linted again, and the tree indexes (which Forget drops) stay. A file the
  // disk does not have, or has otherwise, may change what the roots read.
  std::string on_disk, error;
  const bool as_on_disk = disk_->Read(path, &on_disk, &error) == ReadStatus::kOk && on_disk == text;
  const Workspace::LastRead read = workspace_->Compare(path, text);
  doc.text_changed = read == Workspace::LastRead::kOther || (read == Workspace::LastRead::kNotRead && !as_on_disk);
  if (!as_on_disk && IncludeLines(on_disk) != doc.includes) structure_changed_ = true;
  // The text the workspace holds already is held once, by both.
  if (read == Workspace::LastRead::kSame) overlay_->Set(path, workspace_->LastText(path));
  else overlay_->Set(path, std::move(text));
  if (doc.text_changed) workspace_->Forget(path);
  Schedule(&doc, Clock::duration::zero());
  RefreshLive();
}

void Session::DidChange(const json& params) {
  const json& td = Object(params, "textDocument");
  std::string uri = String(td, "uri");
  const json& changes = Array(params, "contentChanges");
  auto it = documents_.find(uri);
  std::string text, path;
  size_t first = 0;
  if (it != documents_.end()) {
    path = it->second.path;
    text = TextOf(it->second);
  } else {
    // A document refused for its size comes back with a whole new text.
    while (first < changes.size() && Find(changes[first], "range")) ++first;
    if (!refused_.count(uri) || first == changes.size() || !UriToPath(uri, &path)) {
      Log(kMessageLog, "a change to " + uri + ", which is not open, was ignored");
      return;
    }
  }
  for (size_t i = first; i < changes.size(); ++i) {
    std::string replacement = String(changes[i], "text");
    if (const json* range = Find(changes[i], "range")) {
      Range r = RangeOf(SourceFile(path, text), *range, unit_);
      text.replace(r.begin, r.end - r.begin, replacement);
    } else {
      text = std::move(replacement);
    }
  }
  if (Refuse(uri, path, text.size())) return;
  Document& doc = documents_[uri];
  doc.uri = uri;
  doc.path = path;
  doc.version = Find(td, "version")                                ? Integer(td, "version")
                : doc.version < std::numeric_limits<int64_t>::max() ? doc.version + 1
                                                                     : doc.version;  // no wrap past the largest
  doc.generation = pending_generation_;
  doc.text_changed = true;
  doc.acknowledge = true;
  if (std::string includes = IncludeLines(text); includes != doc.includes) {
    doc.includes = std::move(includes);
    doc.roots_known = false;
    structure_changed_ = true;
  }
  // A file no root reads is what its lines say: a change may make it PostgreSQL configuration.
  if (doc.roots.empty()) doc.roots_known = false;
  overlay_->Set(path, std::move(text));
  workspace_->Forget(path);
  // Debounced only in a burst: when a lint is due already, not yet run.
  if (on_save_) doc.dirty = true;
  else Schedule(&doc, deadline_ ? std::chrono::milliseconds(debounce_ms_) : Clock::duration::zero());
}

void Session::DidClose(const json& params) {
  std::string uri = String(Object(params, "textDocument"), "uri");
  refused_.erase(uri);
  auto it = documents_.find(uri);
  if (it == documents_.end()) return;
  Document doc = std::move(it->second);
  documents_.erase(it);
  // The roots it was part of read the file from the disk again: only when
  // the disk's text (or its absence) is not what they read does that change
  // their analyses, and the tree only when its include lines differ.
  overlay_->Remove(doc.path);
  std::string on_disk, error;
  const bool exists = disk_->Read(doc.path, &on_disk, &error) == ReadStatus::kOk;
  const Workspace::LastRead read = workspace_->Compare(doc.path, on_disk);
  if (!pull_) Notify("textDocument/publishDiagnostics", {{"uri", uri}, {"diagnostics", json::array()}});
  if (!exists || read == Workspace::LastRead::kOther) {
    workspace_->Forget(doc.path);
    if (!exists || IncludeLines(on_disk) != doc.includes) structure_changed_ = true;
    for (auto& [u, other] : documents_) {
      bool shares = false;
      for (const std::string& r : other.roots)
        if (std::find(doc.roots.begin(), doc.roots.end(), r) != doc.roots.end()) {
          stale_roots_.insert(r);
          shares = true;
        }
      if (structure_changed_ || shares) Schedule(&other, std::chrono::milliseconds(debounce_ms_));
    }
  }
  DropUnusedRoots();
}

void Session::DidSave(const json& params) {
  Document* doc = DocumentOf(params);
  if (on_save_) Schedule(doc, Clock::duration::zero());
  RefreshLive();  // the server may read the saved file at its next reload: its view is worth reading again
}

void Session::DidChangeWatchedFiles(const json& params) {
  bool any = false, toml = false;
  for (const json& change : Array(params, "changes")) {
    std::string path;
    if (!UriToPath(String(change, "uri"), &path)) continue;
    // An open document's text is the editor's, not the disk's.
    bool open = std::any_of(documents_.begin(), documents_.end(), [&](const auto& d) { return d.second.path == path; });
    if (!open) workspace_->Forget(path);
    toml = toml || path.ends_with(".toml");
    any = any || !open;
  }
  if (!any) return;
  if (toml) {
    // The workspace reloads projects and rules: analyses that point into the
    // old rules must go first.
    roots_.clear();
    pages_written_.clear();
    pages_pending_.clear();
  }
  structure_changed_ = true;  // a file may have appeared or gone
  for (auto& [uri, doc] : documents_) Schedule(&doc, Clock::duration::zero());
  const json* ws = Find(client_capabilities_, "workspace");
  const json* diagnostics = ws ? Find(*ws, "diagnostics") : nullptr;
  if (pull_ && diagnostics && Find(*diagnostics, "refreshSupport")) Request("workspace/diagnostic/refresh", nullptr);
}

void Session::Schedule(Document* doc, Clock::duration delay) {
  doc->dirty = true;
  deadline_ = Clock::now() + delay;
}

void Session::RunDue(Clock::time_point now, bool force) {
  if (!deadline_ || (!force && now < *deadline_)) return;
  deadline_.reset();
  // A client that pulls asks when it wants them.
  if (!pull_) Refresh(true, true);
}

void Session::Refresh(bool publish, bool may_abort) {
  // The roots to lint: those of every document whose text changed, roots
  // never linted, roots that read a closed document's text, and after a
  // change of the tree's shape (an include directive, a file that appeared
  // or went, another configuration) every root, looked up again for every
  // document. Other documents of a linted root are published only when
  // their diagnostics changed: a keystroke in a value costs one lint per root.
  std::set<std::string> touched = stale_roots_;
  std::set<const Document*> unrooted;  // no root holds it: it has no diagnostics
  const bool reshaped = structure_changed_;
  auto update = [&](Document& doc) {
    // The classifier's roots, as `check` finds them: none for a file that is
    // not PostgreSQL configuration (it gets no diagnostics).
    doc.roots = workspace_->RootsIncluding(doc.path);
    doc.roots_known = true;
    if (doc.roots.empty()) {
      unrooted.insert(&doc);
      if (!doc.said_not_postgres) Log(kMessageLog, doc.uri + " is not PostgreSQL configuration: it is not checked");
    }
    doc.said_not_postgres = doc.roots.empty();
  };
  for (auto& [uri, doc] : documents_) {
    if (reshaped) {
      touched.insert(doc.roots.begin(), doc.roots.end());  // it may have left them
      update(doc);
      touched.insert(doc.roots.begin(), doc.roots.end());
      continue;
    }
    if (!doc.dirty) continue;
    if (!doc.roots_known) update(doc);
    for (const std::string& root : doc.roots)
      if (doc.text_changed || !roots_.count(root)) touched.insert(root);
  }
  // A document to publish is published with the findings of all its roots:
  // those whose analyses were dropped (Idle) are linted again too.
  for (bool grew = true; grew;) {
    grew = false;
    for (const auto& [uri, doc] : documents_)
      if (doc.dirty || Intersects(doc.roots, touched))
        for (const std::string& root : doc.roots)
          if (!roots_.count(root) && touched.insert(root).second) grew = true;
  }
  for (const std::string& root : touched) {
    if (may_abort && std::any_of(documents_.begin(), documents_.end(), [&](const auto& d) {
          return d.second.dirty && stale_(d.first, d.second.generation);
        }))
      return;  // a newer change is queued: its refresh does this work
    Root& r = roots_[root];
    r.used = ++use_clock_;
    r.error.clear();
    try {
      if (!workspace_->Lint(root, &r.analysis, &r.error)) r.analysis = Analysis();
    } catch (...) {
      roots_.erase(root);  // never linted, for the next refresh; the failure is the caller's (Guard)
      throw;
    }
    if (!r.error.empty() && r.error != last_error_) Show(kMessageError, "pgconflint: " + r.error);
    last_error_ = r.error;
  }
  structure_changed_ = false;
  stale_roots_.clear();
  std::vector<Document*> due;
  for (auto& [uri, doc] : documents_) {
    if (doc.dirty || Intersects(doc.roots, touched) || unrooted.count(&doc)) due.push_back(&doc);
    doc.dirty = false;
    doc.text_changed = false;
  }
  DropUnusedRoots();
  if (publish)
    for (Document* doc : due) {
      Publish(*doc, doc->acknowledge);
      doc->acknowledge = false;
    }
  WritePendingPages();
}

void Session::DropUnusedRoots() {
  std::set<std::string_view> used;
  for (const auto& [uri, doc] : documents_) used.insert(doc.roots.begin(), doc.roots.end());
  std::erase_if(roots_, [&](const auto& r) { return !used.count(r.first); });
}

void Session::Idle() {
  if (roots_.size() <= options_.retained_analyses) return;
  std::vector<std::pair<uint64_t, std::string>> by_use;
  for (const auto& [path, root] : roots_) by_use.push_back({root.used, path});
  std::sort(by_use.begin(), by_use.end());
  for (size_t i = 0; i + options_.retained_analyses < by_use.size(); ++i) roots_.erase(by_use[i].second);
}

void Session::Fresh(Document& doc) {
  bool missing = (doc.roots.empty() && !doc.roots_known) ||
                 std::any_of(doc.roots.begin(), doc.roots.end(), [&](const std::string& r) { return !roots_.count(r); });
  if (doc.dirty || missing) {
    doc.dirty = true;
    Refresh(!pull_ && !on_save_, false);
  }
  for (const std::string& r : doc.roots)
    if (auto it = roots_.find(r); it != roots_.end()) it->second.used = ++use_clock_;
}

void Session::Publish(Document& doc, bool always) {
  if (stale_(doc.uri, doc.generation)) return;
  // Serialised once: for the comparison and for the message.
  std::string diagnostics = DiagnosticsText(doc);
  size_t hash = std::hash<std::string>()(diagnostics);
  if (!always && doc.published == hash) return;
  doc.published = hash;
  out_->Send(R"({"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{"diagnostics":)" + diagnostics +
             R"(,"uri":)" + Dump(doc.uri) + R"(,"version":)" + std::to_string(doc.version) + "}}");
}

std::vector<Session::Finding> Session::Findings(const Document& doc) const {
  std::vector<Finding> out;
  std::set<std::tuple<std::string, uint32_t, uint32_t, std::string>> seen;
  for (const std::string& root : doc.roots) {
    auto it = roots_.find(root);
    if (it == roots_.end()) continue;
    const Analysis& a = it->second.analysis;
    for (const Diagnostic& d : a.diagnostics) {
      // Findings of the root as a whole go to its first file.
      int file = d.file >= 0 ? d.file : (a.files.empty() ? -1 : 0);
      if (file < 0 || a.files[file].abs_path != doc.path) continue;
      // A fragment included by two roots has its own findings twice.
      if (seen.insert({d.rule->code, d.range.begin, d.range.end, d.message}).second) out.push_back({&a, &d});
    }
  }
  return out;
}

std::string Session::DiagnosticsText(const Document& doc) {
  JsonWriter w;
  w.BeginArray();
  for (const std::string& root : doc.roots) {
    auto it = roots_.find(root);
    if (it == roots_.end()) continue;
    const Analysis& a = it->second.analysis;
    std::string problem = !it->second.error.empty() ? it->second.error
                          : a.failure != Analysis::Failure::kNone ? a.failure_message : "";
    if (problem.empty()) continue;
    w.BeginObject().Key("message").String("pgconflint cannot check this file: " + problem).Key("range");
    w.Raw(R"({"end":{"character":0,"line":0},"start":{"character":0,"line":0}})");
    w.Key("severity").Int(1).Key("source").String("pgconflint").EndObject();
  }
  for (const Finding& f : Findings(doc)) w.Raw(DiagnosticText(*f.analysis, *f.diagnostic));
  w.EndArray();
  return w.Take();
}

bool Session::View(const Document& doc, FileView* out) const {
  for (const std::string& root : doc.roots) {
    auto it = roots_.find(root);
    if (it == roots_.end() || !it->second.error.empty()) continue;
    const Analysis& a = it->second.analysis;
    for (size_t i = 0; i < a.files.size(); ++i)
      if (a.files[i].abs_path == doc.path) {
        *out = {&a, static_cast<int>(i)};
        return true;
      }
  }
  return false;
}

Session::Document* Session::FreshView(const json& params, FileView* view) {
  Document* doc = DocumentOf(params);
  Fresh(*doc);
  return View(*doc, view) ? doc : nullptr;
}

void Session::Skipped(const ReaderEvent& event) {
  std::optional<json> id = Sniff(event.body, "id", "-?[0-9]+|\"(?:[^\"\\\\]|\\\\.)*\"");
  std::optional<json> method = Sniff(event.body, "method", "\"(?:[^\"\\\\]|\\\\.)*\"");
  std::optional<json> uri = Sniff(event.body, "uri", "\"(?:[^\"\\\\]|\\\\.)*\"");
  if (id && method && initialized_ && !shutdown_) ReplyError(*id, kRequestFailed, event.error);
  // A document's text: one message that names the document and its size.
  std::string path;
  if (initialized_ && method && uri && uri->is_string() &&
      (*method == "textDocument/didOpen" || *method == "textDocument/didChange") &&
      UriToPath(uri->get<std::string>(), &path)) {
    Refuse(uri->get<std::string>(), path, event.length, true);
    return;
  }
  Show(kMessageError, "pgconflint: " + event.error);
}

}  // namespace pgconflint::lsp
