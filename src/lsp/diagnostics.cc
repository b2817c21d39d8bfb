// Diagnostics as LSP sees them (notes -> relatedInformation, tags, the rule's
// page as codeDescription), code actions from their fixes and suppressions
// (and a live server's, live.cc), and the "show documentation" command.
#include <filesystem>

#include "core/base/atomic_write.h"
#include "core/workspace/suppressions.h"
#include "lsp/session.h"
#include "report/docs.h"
#include "report/text.h"

namespace pgconflint::lsp {
namespace {

constexpr const char* kShowDocumentation = "pgconflint.showDocumentation";
constexpr const char* kFixAll = "source.fixAll.pgconflint";

int SeverityNumber(Severity s) {
  switch (s) {
    case Severity::kError: return 1;
    case Severity::kWarning: return 2;
    default: return 3;
  }
}

std::string Capitalized(std::string s) {
  if (!s.empty() && s[0] >= 'a' && s[0] <= 'z') s[0] = static_cast<char>(s[0] - 'a' + 'A');
  return s;
}

}  // namespace

std::string Session::RulePage(const RuleInfo& rule, bool write_now) {
  if (options_.docs_dir.empty()) return "";
  if (!pages_written_.count(rule.name)) {
    if (write_now) WritePage(rule);
    else pages_pending_.insert(rule.name);
  }
  return FileUri(options_.docs_dir + "/" + rule.name + ".md");
}

void Session::WritePage(const RuleInfo& rule) {
  pages_written_.insert(rule.name);
  pages_pending_.erase(rule.name);
  std::error_code ec;
  std::filesystem::create_directories(options_.docs_dir, ec);
  std::string error;
  if (ec || !WriteFileAtomically(options_.docs_dir + "/" + rule.name + ".md", RuleDocMarkdown(rule, workspace_->rules()),
                                 &error))
    Log(kMessageLog, "cannot write the page of " + std::string(rule.code) + ": " + (ec ? ec.message() : error));
}

void Session::WritePendingPages() {
  std::set<std::string> pending;
  pending.swap(pages_pending_);
  for (const std::string& name : pending)
    if (const RuleInfo* rule = workspace_->rules().Find(name)) WritePage(*rule);
}

const std::string& Session::FileUri(const std::string& abs_path) {
  auto it = uris_.find(abs_path);
  if (it == uris_.end()) it = uris_.emplace(abs_path, PathToUri(abs_path)).first;
  return it->second;
}

// Keys in name order, as a json object dumps them.
std::string Session::DiagnosticText(const Analysis& a, const Diagnostic& d) {
  const int file = d.file >= 0 ? d.file : 0;
  const Range range = d.file >= 0 ? d.range : Range{0, 0};
  const bool related_supported =
      ClientSupports(client_capabilities_, {"textDocument", "publishDiagnostics", "relatedInformation"});
  std::string message = d.message;
  if (!d.help.empty()) message += "\nhelp: " + d.help;
  JsonWriter related;
  related.BeginArray();
  bool any_related = false;
  auto relate = [&](int f, Range r, const std::string& text) {
    if (f < 0 || !related_supported) {
      message += "\nnote: " + text + (f < 0 ? "" : " (" + a.Describe({f, r}) + ")");
      return;
    }
    any_related = true;
    related.BeginObject().Key("location").BeginObject().Key("range");
    related.Range(a.files[f].source, r, unit_).Key("uri").String(FileUri(a.files[f].abs_path)).EndObject();
    related.Key("message").String(text).EndObject();
  };
  for (const Note& n : d.notes) relate(n.where.file, n.where.range, n.message);
  std::vector<IncludeSite> chain = a.IncludeChain(d.file);
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    const SourceFile& from = a.files[it->file].source;
    uint32_t end = from.LineStart(it->line) + static_cast<uint32_t>(from.LineText(it->line).size());
    relate(it->file, {it->offset, end}, "included from here");
  }
  related.EndArray();
  for (const Also& also : d.also) message += "\nnote: " + AlsoText(also);
  if (std::string note = OutcomeNote(d); !note.empty()) message += "\nnote: " + note;
  JsonWriter w;
  w.BeginObject();
  w.Key("code").String(d.rule->code);
  if (const std::string href = RulePage(*d.rule, false); !href.empty())
    w.Key("codeDescription").BeginObject().Key("href").String(href).EndObject();
  w.Key("data").BeginObject().Key("begin").Int(range.begin).Key("end").Int(range.end).Key("rule").String(d.rule->code);
  w.EndObject().Key("message").String(message).Key("range").Range(a.files[file].source, range, unit_);
  if (any_related) w.Key("relatedInformation").Raw(related.Take());
  w.Key("severity").Int(SeverityNumber(d.severity())).Key("source").String("pgconflint");
  if (d.tags & (kTagUnnecessary | kTagDeprecated)) {
    w.Key("tags").BeginArray();
    if (d.tags & kTagUnnecessary) w.Int(1);
    if (d.tags & kTagDeprecated) w.Int(2);
    w.EndArray();
  }
  return w.EndObject().Take();
}

json Session::DiagnosticJson(const Analysis& a, const Diagnostic& d) { return json::parse(DiagnosticText(a, d)); }

std::string Session::DocumentDiagnostic(const json& params) {
  Document* doc = DocumentOf(params);
  Fresh(*doc);
  std::string items = DiagnosticsText(*doc);
  WritePendingPages();
  return R"({"items":)" + items + R"(,"kind":"full"})";
}

json Session::EditJson(const Analysis& a, const std::vector<const Edit*>& edits) {
  json changes = json::object();
  for (const Edit* e : edits) {
    if (e->where.file < 0) continue;
    const LoadedFile& f = a.files[e->where.file];
    changes[PathToUri(f.abs_path)].push_back({{"range", RangeJson(f.source, e->where.range, unit_)}, {"newText", e->text}});
  }
  return {{"changes", std::move(changes)}};
}

json Session::CodeAction(const json& params) {
  FileView view;
  Document* doc = FreshView(params, &view);
  if (!doc) return json::array();
  // The lines of the range: a cursor anywhere on a finding's line offers its actions.
  const SourceFile& src = view.source();
  const Range asked = RangeOf(src, Object(params, "range"), unit_);
  const uint32_t last = src.LineOf(asked.end);
  const Range range{src.LineStart(src.LineOf(asked.begin)),
                    src.LineStart(last) + static_cast<uint32_t>(src.LineText(last).size())};
  const json* context = Find(params, "context");
  const json* only = context ? Find(*context, "only") : nullptr;
  // The diagnostics the client names (by their data), besides those in the range.
  std::set<std::tuple<std::string, int64_t, int64_t>> named;
  if (const json* list = context ? Find(*context, "diagnostics") : nullptr; list && list->is_array())
    for (const json& diag : *list)
      if (const json* data = Find(diag, "data"); data && data->is_object())
        named.insert({StringOr(*data, "rule", ""), data->value("begin", int64_t{-1}), data->value("end", int64_t{-1})});
  json actions = json::array();
  auto quickfix = [&](const std::string& title, const json& diag, bool preferred) {
    json action = {{"title", Capitalized(title)}, {"kind", "quickfix"}, {"diagnostics", {diag}}};
    if (preferred) action["isPreferred"] = true;
    return action;
  };
  for (const Finding& f : Findings(*doc)) {
    const Analysis& a = *f.analysis;
    const Diagnostic& d = *f.diagnostic;
    const Range r = d.file >= 0 ? d.range : Range{0, 0};
    bool in_range = r.begin <= range.end && range.begin <= r.end;
    if (!ActionKindWanted(only, "quickfix") || (!in_range && !named.count({d.rule->code, r.begin, r.end}))) continue;
    const json diag = DiagnosticJson(a, d);
    for (const Fix& fix : d.fixes) {
      std::vector<const Edit*> edits;
      for (const Edit& e : fix.edits) edits.push_back(&e);
      actions.push_back(quickfix(fix.title, diag, fix.safety == FixSafety::kSafe));
      actions.back()["edit"] = EditJson(a, edits);
    }
    Fix line, whole;
    for (const Fix* s : {SuppressionFix(a, d, &line) && line.title.ends_with("line") ? &line : nullptr,
                         SuppressionFileFix(a, d, &whole) ? &whole : nullptr})
      if (s) {
        actions.push_back(quickfix(s->title, diag, false));
        actions.back()["edit"] = EditJson(a, {&s->edits[0]});
      }
    std::string title = std::string("Show documentation for ") + d.rule->code + " (" + d.rule->name + ")";
    actions.push_back(quickfix(title, diag, false));
    actions.back()["command"] = {{"title", title}, {"command", kShowDocumentation}, {"arguments", {d.rule->code}}};
  }
  LiveActions(view, range, only, &actions);
  if (ActionKindWanted(only, kFixAll)) {
    // Every safe fix of this file that `check --fix` would apply.
    std::vector<const Fix*> safe;
    for (const Diagnostic& d : view.analysis->diagnostics)
      for (const Fix& fix : d.fixes)
        if (fix.safety == FixSafety::kSafe) safe.push_back(&fix);
    int applied = 0;
    std::vector<const Edit*> edits = CompatibleEdits(src.text().size(), view.file, safe, &applied);
    if (!edits.empty())
      actions.push_back({{"title", "Fix all safe pgconflint findings (" + std::to_string(applied) + ")"},
                         {"kind", kFixAll},
                         {"edit", EditJson(*view.analysis, edits)}});
  }
  return actions;
}

json Session::ExecuteCommand(const json& params) {
  std::string command = String(params, "command");
  if (command.starts_with("pgconflint.live."))
    return LiveCommand(command, Find(params, "arguments") ? Array(params, "arguments") : json::array());
  if (command != kShowDocumentation) throw RpcError(kInvalidParams, "unknown command " + command);
  const json& args = Array(params, "arguments");
  const RuleInfo* rule = args.empty() || !args[0].is_string() ? nullptr : workspace_->rules().Find(args[0].get<std::string>());
  if (!rule) throw RpcError(kInvalidParams, "arguments: expected a rule code or name");
  std::string uri = RulePage(*rule, true);
  if (!uri.empty() && ClientSupports(client_capabilities_, {"window", "showDocument", "support"})) {
    Request("window/showDocument", {{"uri", uri}, {"takeFocus", true}});
  } else {
    std::string where;
    if (!uri.empty()) UriToPath(uri, &where);
    Show(kMessageInfo, std::string(rule->code) + " (" + rule->name + "): " + rule->summary +
                           (where.empty() ? "" : "\nsee " + where));
  }
  return nullptr;
}

}  // namespace pgconflint::lsp
