// The session through the in-process server (no threads): lifecycle and
// errors, diagnostics, fragments within their root, hover, completion, code
// actions applied and re-linted, inlay hints, links, definition, symbols,
// incremental edits. Files live in memory. tests/lsp drives the real binary.
#include "lsp/session.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include "core/knowledge/catalog.h"
#include "fake_disk.h"
#include "lsp/server.h"
#include "lsp_test_client.h"

namespace pgconflint::lsp {
namespace {

// The disk, counting the listings of each directory: a lint of a root lists
// its include_dir each time (file texts are cached, listings are not).
class CountingDisk : public FileSystem {
 public:
  explicit CountingDisk(const FileSystem* base) : base_(base) {}
  ReadStatus Read(const std::string& path, std::string* text, std::string* error) const override {
    return base_->Read(path, text, error);
  }
  FileInfo Stat(const std::string& path) const override { return base_->Stat(path); }
  bool List(const std::string& dir, std::vector<DirEntry>* out, std::string* error) const override {
    ++lists[dir];
    return base_->List(dir, out, error);
  }
  std::string CurrentDirectory() const override { return base_->CurrentDirectory(); }
  mutable std::map<std::string, int> lists;

 private:
  const FileSystem* base_;
};

class Client : public InProcessClient {
 public:
  explicit Client(json init = json::object(), json caps = json::object(), size_t retained_analyses = 8) {
    ServerOptions o;
    o.disk = &counting;
    o.threaded = false;
    o.retained_analyses = retained_analyses;
    Start(o);
    if (init.is_null()) return;
    initialize_result = Request("initialize", {{"rootUri", "file:///project"},
                                               {"capabilities", caps},
                                               {"initializationOptions", init}});
    Notify("initialized", json::object());
  }
  ~Client() { Finish(); }  // before the disk goes
  std::vector<std::string> Codes(const std::string& path) {
    std::vector<std::string> out;
    json p = Published(path);
    if (p.is_null()) return out;
    for (const json& d : p["diagnostics"]) out.push_back(d.value("code", ""));
    return out;
  }

  FakeDisk disk;
  CountingDisk counting{&disk.fs()};
  json initialize_result;
};

std::vector<std::string> Labels(const json& completion) {
  std::vector<std::string> out;
  for (const json& item : completion["result"]["items"]) out.push_back(item["label"]);
  return out;
}

bool Has(const std::vector<std::string>& v, const std::string& x) { return std::find(v.begin(), v.end(), x) != v.end(); }

TEST(LspSessionTest, LifecycleAndErrors) {
  Client c(nullptr);
  EXPECT_EQ(c.Request("textDocument/hover", Client::At("/project/x.conf", 0, 0))["error"]["code"], kServerNotInitialized);
  json init = c.Request("initialize", {{"capabilities", json::object()}});
  EXPECT_EQ(init["result"]["capabilities"]["positionEncoding"], "utf-16");
  EXPECT_EQ(init["result"]["serverInfo"]["name"], "pgconflint");
  EXPECT_EQ(c.Request("initialize", json::object())["error"]["code"], kInvalidRequest);
  EXPECT_EQ(c.Request("no/such/method", json::object())["error"]["code"], kMethodNotFound);
  EXPECT_EQ(c.Request("textDocument/hover", json::object())["error"]["code"], kInvalidParams);
  EXPECT_EQ(c.Request("textDocument/hover", Client::At("/project/x.conf", 0, 0))["error"]["code"], kInvalidParams);
  c.Send("{not json");
  EXPECT_EQ(c.received.back()["error"]["code"], kParseError);
  EXPECT_TRUE(c.received.back()["id"].is_null());
  c.Send("[1, 2]");
  EXPECT_EQ(c.received.back()["error"]["code"], kInvalidRequest);
  c.Send(R"({"jsonrpc":"2.0","id":{"x":1},"method":"shutdown"})");
  EXPECT_EQ(c.received.back()["error"]["code"], kInvalidRequest);
  EXPECT_TRUE(c.Request("shutdown", nullptr)["result"].is_null());
  EXPECT_EQ(c.Request("textDocument/hover", Client::At("/project/x.conf", 0, 0))["error"]["code"], kInvalidRequest);
  c.Notify("exit", nullptr);
  EXPECT_EQ(c.Finish(), 0);
}

// A disk whose read of one file throws, as a bug deep in a lint or memory
// running out would: the lint is outside any request's own error handling.
class ThrowingDisk : public FileSystem {
 public:
  explicit ThrowingDisk(const FileSystem* base) : base_(base) {}
  ReadStatus Read(const std::string& path, std::string* text, std::string* error) const override {
    if (path == boom) throw std::runtime_error("the disk failed");
    return base_->Read(path, text, error);
  }
  FileInfo Stat(const std::string& path) const override { return base_->Stat(path); }
  bool List(const std::string& dir, std::vector<DirEntry>* out, std::string* error) const override {
    return base_->List(dir, out, error);
  }
  std::string CurrentDirectory() const override { return base_->CurrentDirectory(); }
  std::string boom;

 private:
  const FileSystem* base_;
};

// A lint that throws is shown once, not a crash: the server answers the
// next request, and lints again once the cause is gone.
TEST(LspSessionTest, AFailingLintIsShownAndTheServerGoesOn) {
  class ThrowingEditor : public InProcessClient {
   public:
    ThrowingEditor() {
      ServerOptions o;
      o.disk = &throwing;
      o.threaded = false;
      Start(o);
      Request("initialize", {{"rootUri", "file:///project"}, {"capabilities", json::object()}});
      Notify("initialized", json::object());
    }
    ~ThrowingEditor() { Finish(); }
    FakeDisk disk;
    ThrowingDisk throwing{&disk.fs()};
  } c;
  c.disk.Write("data/PG_VERSION", "18\n");
  const std::string conf = c.disk.Write("data/postgresql.conf", "include 'extra.conf'\nwork_mem = lots\n");
  c.throwing.boom = c.disk.Write("data/extra.conf", "shared_buffers = 1GB\n");
  c.Open(conf, "include 'extra.conf'\nwork_mem = lots\n");
  std::vector<json> shown = c.Sent("window/showMessage");
  ASSERT_EQ(shown.size(), 1u);
  EXPECT_EQ(shown[0]["params"]["type"], kMessageError);
  EXPECT_EQ(shown[0]["params"]["message"], "pgconflint: linting failed: the disk failed (the server goes on)");
  // A request answers: the failure again, as its error (it needs the lint,
  // which runs again since the failed root was dropped).
  json hover = c.Request("textDocument/hover", Client::At(conf, 1, 2));
  ASSERT_TRUE(hover.contains("error")) << hover.dump();
  EXPECT_EQ(hover["error"]["code"], kInternalError);
  EXPECT_EQ(hover["error"]["message"], "the disk failed");
  auto change = [&](int version, const std::string& text) {
    c.Notify("textDocument/didChange", {{"textDocument", {{"uri", PathToUri(conf)}, {"version", version}}},
                                        {"contentChanges", {{{"text", text}}}}});
  };
  // The same failure again is logged, not shown again.
  change(2, "include 'extra.conf'\nwork_mem = 'lots'\n");
  EXPECT_EQ(c.Sent("window/showMessage").size(), 1u);
  int logged = 0;
  for (const json& m : c.Sent("window/logMessage"))
    logged += m["params"]["message"] == "pgconflint: linting failed: the disk failed";
  EXPECT_EQ(logged, 1);
  c.throwing.boom.clear();
  change(3, "include 'extra.conf'\nwork_mem = lots\n");
  json published = c.Published(conf);
  ASSERT_FALSE(published.is_null());
  bool invalid = false;
  for (const json& d : published["diagnostics"]) invalid = invalid || d["range"]["start"]["line"] == 1;
  EXPECT_TRUE(invalid) << published.dump();
}

TEST(LspSessionTest, ExitWithoutShutdownIsCode1) {
  Client c;
  c.Notify("exit", nullptr);
  EXPECT_EQ(c.Finish(), 1);
}

TEST(LspSessionTest, PublishesDiagnosticsWithCodesTagsAndRelatedInformation) {
  Client c(json::object(), {{"textDocument", {{"publishDiagnostics", {{"relatedInformation", true}}}}}});
  c.Open("/project/postgresql.conf", "port = 5432\nsort_mem = '4MB'\nport = 5433\n", 7);
  json p = c.Published("/project/postgresql.conf");
  ASSERT_FALSE(p.is_null());
  EXPECT_EQ(p["version"], 7);
  bool overridden = false, renamed = false;
  for (const json& d : p["diagnostics"]) {
    EXPECT_EQ(d["source"], "pgconflint");
    EXPECT_TRUE(d["data"].is_object());
    const RuleInfo* rule = FindRule(d["code"].get<std::string>());
    ASSERT_NE(rule, nullptr);
    if (rule->id == RuleId::kSettingOverridden) {
      overridden = true;
      EXPECT_EQ(d["range"]["start"], json({{"line", 0}, {"character", 0}}));
      EXPECT_EQ(d["tags"], json({1}));
      EXPECT_EQ(d["relatedInformation"][0]["location"]["range"]["start"]["line"], 2);
      EXPECT_EQ(d["relatedInformation"][0]["location"]["uri"], "file:///project/postgresql.conf");
    }
    if (rule->id == RuleId::kRenamedParameter) {
      renamed = true;
      EXPECT_EQ(d["tags"], json({2}));
    }
  }
  EXPECT_TRUE(overridden);
  EXPECT_TRUE(renamed);
}

TEST(LspSessionTest, AFragmentIsLintedWithinItsRoot) {
  Client c;
  c.disk.Write("pg/postgresql.conf", "include_dir 'conf.d'\nport = 5432\n");
  c.disk.Write("pg/conf.d/a.conf", "port = 5433\n");
  c.Open("/project/pg/conf.d/a.conf", "port = 5433\n");
  // The root's later line overrides the fragment's: only visible within the root.
  EXPECT_EQ(c.Codes("/project/pg/conf.d/a.conf"), std::vector<std::string>{Rule(RuleId::kSettingOverridden).code});
  // Alone, the fragment has no finding.
  c.Open("/project/other/a.conf", "port = 5433\n");
  EXPECT_TRUE(c.Codes("/project/other/a.conf").empty());
}

// How many publications `c` received, and of which documents, since `from`.
std::vector<std::string> PublishedSince(const Client& c, size_t from) {
  std::vector<std::string> out;
  for (size_t i = from; i < c.received.size(); ++i)
    if (c.received[i].value("method", "") == "textDocument/publishDiagnostics")
      out.push_back(c.received[i]["params"]["uri"].get<std::string>().substr(std::string("file:///project/pg/").size()));
  return out;
}

TEST(LspSessionTest, OpeningAndEditingPublishOnlyWhatChanged) {
  Client c;
  const std::string root_text = "include_dir 'conf.d'\nport = 5432\n";
  c.disk.Write("pg/postgresql.conf", root_text);
  std::vector<std::string> fragments;
  for (int i = 0; i < 20; ++i) {
    std::string name = "conf.d/f" + std::to_string(10 + i) + ".conf";
    fragments.push_back(c.disk.Write("pg/" + name, "# fragment " + std::to_string(i) + "\nmyapp.x_" + std::to_string(i) + " = 1\n"));
  }
  c.Open("/project/pg/postgresql.conf", root_text);
  // Opening a document whose text is the disk's, in a root already linted: no lint, and it alone is published.
  const int lints = c.counting.lists["/project/pg/conf.d"];
  EXPECT_GT(lints, 0);
  size_t mark = c.received.size();
  for (const std::string& f : fragments) {
    std::string text = "# fragment " + std::to_string(&f - fragments.data()) + "\nmyapp.x_" +
                       std::to_string(&f - fragments.data()) + " = 1\n";
    c.Open(f, text);
  }
  EXPECT_EQ(PublishedSince(c, mark).size(), 20u);
  // One listing more: the tree index, built when a file that is not a root is first classified.
  EXPECT_LE(c.counting.lists["/project/pg/conf.d"], lints + 1);
  // A comment edit in one fragment: the root is linted again, only that fragment is published.
  mark = c.received.size();
  c.Notify("textDocument/didChange", {{"textDocument", {{"uri", PathToUri(fragments[3])}, {"version", 2}}},
                                      {"contentChanges", {{{"text", "# fragment three\nmyapp.x_3 = 1\n"}}}}});
  EXPECT_EQ(PublishedSince(c, mark), std::vector<std::string>{"conf.d/f13.conf"});
  EXPECT_EQ(c.Published(fragments[3])["version"], 2);
  // A line of the root that overrides fragment 7: the root (edited) and fragment 7 (a new finding).
  mark = c.received.size();
  c.Notify("textDocument/didChange", {{"textDocument", {{"uri", PathToUri("/project/pg/postgresql.conf")}, {"version", 2}}},
                                      {"contentChanges", {{{"text", root_text + "myapp.x_7 = 2\n"}}}}});
  std::vector<std::string> published = PublishedSince(c, mark);
  std::sort(published.begin(), published.end());
  EXPECT_EQ(published, (std::vector<std::string>{"conf.d/f17.conf", "postgresql.conf"}));
  EXPECT_EQ(c.Codes(fragments[7]), std::vector<std::string>{Rule(RuleId::kSettingOverridden).code});
  // Closing a document whose text is the disk's costs its roots nothing: no other publication.
  mark = c.received.size();
  c.Notify("textDocument/didClose", {{"textDocument", {{"uri", PathToUri(fragments[0])}}}});
  EXPECT_EQ(PublishedSince(c, mark), std::vector<std::string>{"conf.d/f10.conf"});  // its diagnostics cleared
  // Closing an edited one: the root reads the disk's text again; fragment 7 keeps its finding unpublished.
  mark = c.received.size();
  c.Notify("textDocument/didClose", {{"textDocument", {{"uri", PathToUri(fragments[3])}}}});
  EXPECT_EQ(PublishedSince(c, mark), std::vector<std::string>{"conf.d/f13.conf"});
}

TEST(LspSessionTest, DroppedAnalysesAreComputedAgainWhenNeeded) {
  Client c(json::object(), json::object(), 1);  // one analysis kept when idle
  // conf.d/shared.conf is read by two roots, each overriding another of its lines.
  const std::string root = c.disk.Write("pg/postgresql.conf", "include_dir 'conf.d'\nport = 5432\n");
  c.disk.Write("pg/replica.conf", "include_dir 'conf.d'\nmax_connections = 10\n");
  const std::string shared = c.disk.Write("pg/conf.d/shared.conf", "port = 5433\nmax_connections = 20\n");
  const std::string other = c.disk.Write("other/postgresql.conf", "port = 5432\n");
  const std::string overridden = Rule(RuleId::kSettingOverridden).code;
  c.Open(root, "include_dir 'conf.d'\nport = 5432\n");
  c.Open(shared, "port = 5433\nmax_connections = 20\n");
  EXPECT_EQ(c.Codes(shared), (std::vector<std::string>{overridden, overridden}));
  // Another root: the two analyses of pg/ are dropped once the server is idle.
  c.Open(other, "port = 5432\n");
  const int lints = c.counting.lists["/project/pg/conf.d"];
  // A comment edit at the end of the root: shared.conf, in both roots, keeps both findings (unchanged: not
  // published; an edit above the overriding line would move the line its notes name).
  size_t mark = c.received.size();
  c.Notify("textDocument/didChange", {{"textDocument", {{"uri", PathToUri(root)}, {"version", 2}}},
                                      {"contentChanges", {{{"text", "include_dir 'conf.d'\nport = 5432\n# edited\n"}}}}});
  EXPECT_EQ(PublishedSince(c, mark), std::vector<std::string>{"postgresql.conf"});
  EXPECT_EQ(c.Codes(shared), (std::vector<std::string>{overridden, overridden}));
  EXPECT_GT(c.counting.lists["/project/pg/conf.d"], lints);  // the dropped roots were linted again
  // A request on a document whose analysis was dropped computes it again.
  c.Open(other, "port = 5432\n", 2);
  json hover = c.Request("textDocument/hover", Client::At(shared, 1, 3));
  EXPECT_NE(hover["result"]["contents"]["value"].get<std::string>().find("max_connections"), std::string::npos);
}

TEST(LspSessionTest, AFileChangedOnDiskWithoutANotificationIsLintedAsItIsWhenOpened) {
  Client c;
  c.disk.Write("pg/postgresql.conf", "include_dir 'conf.d'\n");
  const std::string fragment = c.disk.Write("pg/conf.d/a.conf", "work_mem = '4MB'\n");
  c.Open("/project/pg/postgresql.conf", "include_dir 'conf.d'\n");
  EXPECT_TRUE(c.Codes("/project/pg/postgresql.conf").empty());
  // A `git pull` changes the fragment; the editor sends nothing until it opens it.
  c.disk.Write("pg/conf.d/a.conf", "work_mem = 64 MB\n");
  c.Open(fragment, "work_mem = 64 MB\n");
  EXPECT_EQ(c.Codes(fragment), std::vector<std::string>{Rule(RuleId::kSyntaxError).code});
  // Closed again: the root reads the disk, which says the same.
  c.Notify("textDocument/didClose", {{"textDocument", {{"uri", PathToUri(fragment)}}}});
  EXPECT_TRUE(c.Published(fragment)["diagnostics"].empty());
}

TEST(LspSessionTest, IncrementalEditsInUtf16FixAndRebreakAValue) {
  Client c;
  const std::string path = "/project/postgresql.conf";
  c.Open(path, "# é 😀\nmaintenance_work_mem = 64 MB\n");
  EXPECT_EQ(c.Codes(path), std::vector<std::string>{Rule(RuleId::kSyntaxError).code});
  // Delete the space between 64 and MB (line 1, UTF-16 columns 25..26).
  json change = {{"range", {{"start", {{"line", 1}, {"character", 25}}}, {"end", {{"line", 1}, {"character", 26}}}}},
                 {"text", ""}};
  c.Notify("textDocument/didChange", {{"textDocument", {{"uri", PathToUri(path)}, {"version", 2}}},
                                      {"contentChanges", {change}}});
  EXPECT_TRUE(c.Codes(path).empty());
  EXPECT_EQ(c.Published(path)["version"], 2);
  // On the first line, after the emoji (UTF-16 column 6): no effect on the setting.
  json insert = {{"range", {{"start", {{"line", 0}, {"character", 6}}}, {"end", {{"line", 0}, {"character", 6}}}}},
                 {"text", "!"}};
  c.Notify("textDocument/didChange", {{"textDocument", {{"uri", PathToUri(path)}, {"version", 3}}},
                                      {"contentChanges", {insert, {{"text", "maintenance_work_mem = 64 MB\n"}}}}});
  EXPECT_EQ(c.Codes(path), std::vector<std::string>{Rule(RuleId::kSyntaxError).code});
}

TEST(LspSessionTest, HoverShowsCatalogFactsAndTheEffectiveValue) {
  Client c;
  const std::string path = "/project/postgresql.conf";
  c.Open(path, "work_mem = 64MB\nio_max_concurrency = -1\n");
  const Parameter* p = Catalog::ForMajor(Catalog::DefaultMajor())->Find("work_mem");
  std::string text = c.Request("textDocument/hover", Client::At(path, 0, 2))["result"]["contents"]["value"];
  EXPECT_NE(text.find("### work_mem"), std::string::npos) << text;
  EXPECT_NE(text.find(p->short_desc), std::string::npos) << text;
  EXPECT_NE(text.find(std::string("**context**: ") + std::string(ContextName(p->context))), std::string::npos) << text;
  EXPECT_NE(text.find("**This line**: `64MB`"), std::string::npos) << text;
  std::string io = c.Request("textDocument/hover", Client::At(path, 1, 3))["result"]["contents"]["value"];
  EXPECT_NE(io.find("**Effective**"), std::string::npos) << io;
  EXPECT_TRUE(c.Request("textDocument/hover", Client::At(path, 0, 12))["result"].is_null());
}

TEST(LspSessionTest, CompletionByPosition) {
  Client c;
  const std::string path = "/project/postgresql.conf";
  c.disk.Write("conf.d/a.conf", "");
  c.Open(path, "wor\nwal_level = \nwork_mem = 64\n# pgconflint: disable=PGC2\ninclude_dir 'co\n");
  std::vector<std::string> names = Labels(c.Request("textDocument/completion", Client::At(path, 0, 3)));
  EXPECT_TRUE(Has(names, "work_mem"));
  EXPECT_TRUE(Has(names, "sort_mem"));
  std::vector<std::string> levels = Labels(c.Request("textDocument/completion", Client::At(path, 1, 12)));
  for (const char* v : Catalog::ForMajor(Catalog::DefaultMajor())->Find("wal_level")->enumvals)
    EXPECT_TRUE(Has(levels, v)) << v;
  json units = c.Request("textDocument/completion", Client::At(path, 2, 13))["result"]["items"];
  ASSERT_FALSE(units.empty());
  bool mb = false;
  for (const json& u : units) mb = mb || u["textEdit"]["newText"] == "64MB";
  EXPECT_TRUE(mb);
  std::vector<std::string> rules = Labels(c.Request("textDocument/completion", Client::At(path, 3, 26)));
  EXPECT_TRUE(Has(rules, "PGC201"));
  EXPECT_FALSE(Has(rules, "PGC901"));
  EXPECT_EQ(Labels(c.Request("textDocument/completion", Client::At(path, 4, 15))), std::vector<std::string>{"conf.d/"});
}

TEST(LspSessionTest, EveryCodeActionAppliesAndRelints) {
  Client c;
  const std::string path = "/project/postgresql.conf";
  const std::string text = "sort_mem = '4MB'\n";
  c.Open(path, text);
  json actions = c.Request("textDocument/codeAction", {{"textDocument", {{"uri", PathToUri(path)}}},
                                                       {"range", {{"start", {{"line", 0}, {"character", 0}}},
                                                                  {"end", {{"line", 0}, {"character", 0}}}}},
                                                       {"context", {{"diagnostics", json::array()}}}})["result"];
  std::vector<std::string> titles;
  for (const json& a : actions) titles.push_back(a["title"]);
  const std::string code = Rule(RuleId::kRenamedParameter).code;
  // No PG_VERSION, path or --pg-version names the major: the rename says which it assumed.
  EXPECT_TRUE(Has(titles, "Rename to work_mem (if the server runs PostgreSQL 18)")) << json(titles);
  EXPECT_TRUE(Has(titles, "Disable " + code + " for this line"));
  EXPECT_TRUE(Has(titles, "Disable " + code + " for this file"));
  EXPECT_TRUE(Has(titles, "Show documentation for " + code + " (" + Rule(RuleId::kRenamedParameter).name + ")"));
  int version = 1, applied = 0;
  for (const json& a : actions) {
    if (!a.contains("edit")) continue;
    ++applied;
    // Apply the edit (one per action here) to the original text.
    const json& e = a["edit"]["changes"][PathToUri(path)][0];
    SourceFile f(path, text);
    Range r = RangeOf(f, e["range"], ColumnUnit::kUtf16);
    std::string fixed = text;
    fixed.replace(r.begin, r.end - r.begin, e["newText"].get<std::string>());
    c.Notify("textDocument/didChange", {{"textDocument", {{"uri", PathToUri(path)}, {"version", ++version}}},
                                        {"contentChanges", {{{"text", fixed}}}}});
    EXPECT_TRUE(c.Codes(path).empty()) << a["title"] << ": " << fixed;
  }
  // The rename and the two suppressions (the rename is not safe with the
  // major assumed, so no fix-all action is offered).
  EXPECT_EQ(applied, 3) << actions.dump();
}

TEST(LspSessionTest, InlayHintsLinksDefinitionAndSymbols) {
  Client c;
  const std::string path = "/project/postgresql.conf";
  c.disk.Write("conf.d/a.conf", "port = 5433\n");
  c.Open(path, "port = 5432\ninclude_dir 'conf.d'\nio_max_concurrency = -1\n");
  json range = {{"start", {{"line", 0}, {"character", 0}}}, {"end", {{"line", 3}, {"character", 0}}}};
  json hints = c.Request("textDocument/inlayHint", {{"textDocument", {{"uri", PathToUri(path)}}}, {"range", range}})["result"];
  ASSERT_EQ(hints.size(), 2u) << hints;
  EXPECT_EQ(hints[0]["label"], "overridden by conf.d/a.conf:1");
  EXPECT_NE(hints[1]["label"].get<std::string>().find(" effective"), std::string::npos);
  json links = c.Request("textDocument/documentLink", {{"textDocument", {{"uri", PathToUri(path)}}}})["result"];
  ASSERT_EQ(links.size(), 1u);
  EXPECT_EQ(links[0]["target"], "file:///project/conf.d");
  json def = c.Request("textDocument/definition", Client::At(path, 0, 1))["result"];
  EXPECT_EQ(def["uri"], "file:///project/conf.d/a.conf");
  json symbols = c.Request("textDocument/documentSymbol", {{"textDocument", {{"uri", PathToUri(path)}}}})["result"];
  ASSERT_EQ(symbols.size(), 3u);
  EXPECT_EQ(symbols[1]["name"], "include_dir");
  EXPECT_EQ(symbols[2]["detail"], "-1");
}

TEST(LspSessionTest, ASkippedMessageIsAnsweredAndItsDocumentDropped) {
  Client c;
  const std::string path = "/project/postgresql.conf";
  c.Open(path, "port = 1\nport = 2\n");
  ASSERT_FALSE(c.Codes(path).empty());
  c.Skip({ReaderEvent::Kind::kError,
          R"({"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":)"
          R"("file:///project/postgresql.conf","version":2},"contentChanges":[{"text":"xxxxx)",
          "message of 300000000 bytes is over the limit"});
  EXPECT_TRUE(c.Codes(path).empty());
  EXPECT_EQ(c.Request("textDocument/hover", Client::At(path, 0, 0))["error"]["code"], kInvalidParams);
  c.Skip({ReaderEvent::Kind::kError, R"({"jsonrpc":"2.0","id":42,"method":"textDocument/hover","params":{"te)",
          "message of 300000000 bytes is over the limit"});
  bool answered = false, shown = false;
  for (const json& m : c.received) {
    answered = answered || (m.value("id", json()) == 42 && m["error"]["code"] == kRequestFailed);
    shown = shown || m.value("method", "") == "window/showMessage";
  }
  EXPECT_TRUE(answered);
  EXPECT_TRUE(shown);
  // A whole new text brings it back.
  c.Notify("textDocument/didChange", {{"textDocument", {{"uri", PathToUri(path)}, {"version", 3}}},
                                      {"contentChanges", {{{"text", "port = 1\n"}}}}});
  EXPECT_FALSE(c.Published(path).is_null());
  EXPECT_EQ(c.Published(path)["version"], 3);
}

}  // namespace
}  // namespace pgconflint::lsp
