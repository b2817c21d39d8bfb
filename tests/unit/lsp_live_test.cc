// The editor's live server (src/lsp/live.cc) through the in-process server
// (no threads) with a stand-in LiveClient that answers with a fixed
// snapshot and records the statements it was asked to run: hover and inlay
// hints from the snapshot, the server's complaints as diagnostics, role and
// database completion, the write actions only with live.allowWrites and a
// statement only after the user answered "Run", one message for a server
// that stays down, and no password in anything the client receives.
// tests/integration/test_live_editor.py does this with the real binary and
// real servers.
#include <gtest/gtest.h>

#include <mutex>
#include <stdexcept>

#include "fake_disk.h"
#include "lsp/server.h"
#include "lsp_test_client.h"

namespace pgconflint::lsp {
namespace {

constexpr const char* kConninfo = "host=db user=postgres password=hunter2 dbname=postgres";

// A data directory /project/data of 18 as the server sees it: shared_buffers
// waits for a restart, work_mem runs the default, line 3 of postgresql.conf
// was refused.
std::string SnapshotJson() {
  return R"({"pgconflint_snapshot": 1, "server": "postgres@db:5432/postgres",
      "info": {"server_version_num": 180004, "server_version": "18.4", "superuser": true},
      "settings": [
        {"name": "work_mem", "setting": "4096", "unit": "kB", "vartype": "integer", "context": "user",
         "source": "default"},
        {"name": "shared_buffers", "setting": "16384", "unit": "8kB", "vartype": "integer",
         "context": "postmaster", "source": "configuration file",
         "sourcefile": "/project/data/postgresql.conf", "sourceline": 1, "pending_restart": true}],
      "file_settings": [
        {"sourcefile": "/project/data/postgresql.conf", "sourceline": 1, "seqno": 1, "name": "shared_buffers",
         "setting": "256MB", "applied": false, "error": "setting could not be applied"},
        {"sourcefile": "/project/data/postgresql.conf", "sourceline": 3, "seqno": 3, "name": "max_connections",
         "setting": "lots", "applied": false, "error": "setting could not be applied"}],
      "databases": [{"name": "appdb", "tablespace": "pg_default"}],
      "roles": [{"name": "alice", "login": true}, {"name": "readers", "login": false}],
      "hba_rules": []})";
}

class FakeLive : public LiveClient {
 public:
  LiveReply Ask(const LiveRequest& request, const std::atomic<bool>&) const override {
    std::lock_guard<std::mutex> lock(mu_);
    asked.push_back(request);
    if (throws > 0) {
      --throws;
      throw std::runtime_error("the client failed (hunter2)");
    }
    LiveReply r;
    r.label = "postgres@db:5432/postgres";
    if (!error.empty()) {
      r.label = "host=db user=postgres password=***** dbname=postgres";
      r.error = error;
      return r;
    }
    r.executed = !request.statement.empty();
    r.snapshot = SnapshotJson();
    return r;
  }
  mutable std::vector<LiveRequest> asked;
  std::string error;
  mutable int throws = 0;  // the next `throws` questions throw

 private:
  mutable std::mutex mu_;
};

class Editor : public InProcessClient {
 public:
  Editor(FakeLive* live, json live_settings) {
    ServerOptions o;
    o.disk = &disk.fs();
    o.threaded = false;
    o.live = live;
    disk.Write("data/PG_VERSION", "18\n");
    Start(o);
    Request("initialize", {{"rootUri", "file:///project"},
                           {"capabilities", {{"window", {{"showMessage", json::object()}}}}},
                           {"initializationOptions", {{"live", std::move(live_settings)}}}});
    Notify("initialized", json::object());
  }
  ~Editor() { Finish(); }  // before the disk goes
  void Open(const std::string& path, const std::string& text) {
    disk.Write(path, text);
    InProcessClient::Open(path, text);
  }
  json Published(const std::string& path) const { return InProcessClient::Published(path)["diagnostics"]; }
  json Actions(const std::string& path, int line) {
    json range = {{"start", {{"line", line}, {"character", 0}}}, {"end", {{"line", line}, {"character", 0}}}};
    return Request("textDocument/codeAction", {{"textDocument", {{"uri", PathToUri(path)}}},
                                               {"range", range},
                                               {"context", {{"diagnostics", json::array()}}}})["result"];
  }

  FakeDisk disk;
};

const std::string kConf = "shared_buffers = 256MB\nwork_mem = 64MB\nmax_connections = lots\n";

std::vector<std::string> Titles(const json& actions) {
  std::vector<std::string> out;
  for (const json& a : actions) out.push_back(a["title"]);
  return out;
}

bool AnyHas(const std::vector<std::string>& v, const std::string& part) {
  for (const std::string& s : v)
    if (s.find(part) != std::string::npos) return true;
  return false;
}

TEST(LspLiveTest, HoverAndInlayHintsComeFromTheSnapshot) {
  FakeLive live;
  Editor c(&live, {{"conninfo", kConninfo}});
  const std::string conf = "/project/data/postgresql.conf";
  c.Open(conf, kConf);
  const size_t reads = live.asked.size();
  std::string hover = c.Request("textDocument/hover", Editor::At(conf, 0, 3))["result"]["contents"]["value"];
  EXPECT_NE(hover.find("**Running** on `postgres@db:5432/postgres`: `128MB`"), std::string::npos) << hover;
  EXPECT_NE(hover.find("**Pending restart**: the server's files say `256MB`"), std::string::npos) << hover;
  hover = c.Request("textDocument/hover", Editor::At(conf, 1, 3))["result"]["contents"]["value"];
  EXPECT_NE(hover.find("`4MB` (default)"), std::string::npos) << hover;
  EXPECT_EQ(hover.find("Pending restart"), std::string::npos) << hover;
  json range = {{"start", {{"line", 0}, {"character", 0}}}, {"end", {{"line", 3}, {"character", 0}}}};
  json hints = c.Request("textDocument/inlayHint", {{"textDocument", {{"uri", PathToUri(conf)}}}, {"range", range}});
  std::vector<std::string> labels;
  for (const json& h : hints["result"]) labels.push_back(h["label"]);
  EXPECT_TRUE(AnyHas(labels, "server: 128MB, restart pending")) << hints.dump();
  EXPECT_TRUE(AnyHas(labels, "server: 4MB")) << hints.dump();
  // Hover and hints asked the server nothing.
  EXPECT_EQ(live.asked.size(), reads);
  // The server's refusal of line 3 is a diagnostic there.
  bool refused = false;
  for (const json& d : c.Published(conf))
    refused = refused || (d["code"] == "PGC1102" && d["range"]["start"]["line"] == 2);
  EXPECT_TRUE(refused) << c.Published(conf).dump();
}

TEST(LspLiveTest, ReadsOnOpenSaveAndCommandNotOnTyping) {
  FakeLive live;
  Editor c(&live, {{"conninfo", kConninfo}});
  EXPECT_EQ(live.asked.size(), 1u);  // configured
  const std::string conf = "/project/data/postgresql.conf";
  c.Open(conf, kConf);
  EXPECT_EQ(live.asked.size(), 2u);
  c.Notify("textDocument/didChange", {{"textDocument", {{"uri", PathToUri(conf)}, {"version", 2}}},
                                      {"contentChanges", {{{"text", kConf + "# edited\n"}}}}});
  EXPECT_EQ(live.asked.size(), 2u);
  c.Notify("textDocument/didSave", {{"textDocument", {{"uri", PathToUri(conf)}}}});
  EXPECT_EQ(live.asked.size(), 3u);
  c.Request("workspace/executeCommand", {{"command", "pgconflint.live.refresh"}});
  EXPECT_EQ(live.asked.size(), 4u);
  for (const LiveRequest& r : live.asked) {
    EXPECT_TRUE(r.statement.empty());
    EXPECT_EQ(r.conninfo, kConninfo);
  }
}

TEST(LspLiveTest, CompletesTheServersRolesAndDatabases) {
  FakeLive live;
  Editor c(&live, {{"conninfo", kConninfo}});
  const std::string hba = "/project/data/pg_hba.conf";
  c.Open(hba, "host all all 10.0.0.0/8 scram-sha-256\n");
  auto labels = [&](int character) {
    std::vector<std::string> out;
    json r = c.Request("textDocument/completion", Editor::At(hba, 0, character));
    EXPECT_TRUE(r.contains("result")) << r.dump();
    for (const json& i : r["result"]["items"]) out.push_back(i["label"]);
    return out;
  };
  std::vector<std::string> database = labels(6);  // in the database field's "all"
  EXPECT_TRUE(AnyHas(database, "appdb")) << json(database).dump();
  EXPECT_FALSE(AnyHas(database, "alice"));
  std::vector<std::string> user = labels(10);  // in the user field's "all"
  EXPECT_TRUE(AnyHas(user, "alice"));
  EXPECT_TRUE(AnyHas(user, "+readers"));
}

TEST(LspLiveTest, NoWriteActionsWithoutAllowWrites) {
  FakeLive live;
  Editor c(&live, {{"conninfo", kConninfo}});
  const std::string conf = "/project/data/postgresql.conf";
  c.Open(conf, kConf);
  std::vector<std::string> titles = Titles(c.Actions(conf, 1));
  EXPECT_FALSE(AnyHas(titles, "ALTER SYSTEM")) << json(titles).dump();
  EXPECT_FALSE(AnyHas(titles, "Reload")) << json(titles).dump();
  json refused = c.Request("workspace/executeCommand",
                           {{"command", "pgconflint.live.alterSystem"},
                            {"arguments", {{{"parameter", "work_mem"}, {"value", "64MB"}}}}});
  EXPECT_EQ(refused["error"]["code"], kRequestFailed);
  EXPECT_TRUE(c.Sent("window/showMessageRequest").empty());
  for (const LiveRequest& r : live.asked) EXPECT_TRUE(r.statement.empty()) << r.statement;
}

TEST(LspLiveTest, AWriteRunsOnlyAfterTheUserSaysRun) {
  FakeLive live;
  Editor c(&live, {{"conninfo", kConninfo}, {"allowWrites", true}});
  const std::string conf = "/project/data/postgresql.conf";
  c.Open(conf, kConf);
  json actions = c.Actions(conf, 1);
  std::vector<std::string> titles = Titles(actions);
  const std::string statement = "ALTER SYSTEM SET work_mem = '64MB';";
  EXPECT_TRUE(AnyHas(titles, "Apply with ALTER SYSTEM on postgres@db:5432/postgres: " + statement))
      << json(titles).dump();
  EXPECT_TRUE(AnyHas(titles, "Reload configuration on postgres@db:5432/postgres: SELECT pg_reload_conf()"));
  json command;
  for (const json& a : actions)
    if (std::string(a["title"]).find(statement) != std::string::npos) command = a["command"];
  ASSERT_TRUE(command.is_object());
  // Cancel: nothing runs.
  c.Request("workspace/executeCommand", {{"command", command["command"]}, {"arguments", command["arguments"]}});
  std::vector<json> asks = c.Sent("window/showMessageRequest");
  ASSERT_EQ(asks.size(), 1u);
  EXPECT_NE(std::string(asks[0]["params"]["message"]).find(statement), std::string::npos) << asks[0].dump();
  c.Answer(asks[0]["id"], {{"title", "Cancel"}});
  for (const LiveRequest& r : live.asked) EXPECT_TRUE(r.statement.empty()) << r.statement;
  // Run: the statement goes to the server, and the answer is shown.
  c.Request("workspace/executeCommand", {{"command", command["command"]}, {"arguments", command["arguments"]}});
  asks = c.Sent("window/showMessageRequest");
  ASSERT_EQ(asks.size(), 2u);
  c.Answer(asks[1]["id"], {{"title", "Run"}});
  ASSERT_FALSE(live.asked.empty());
  EXPECT_EQ(live.asked.back().statement, statement);
  std::vector<json> shown = c.Sent("window/showMessage");
  ASSERT_FALSE(shown.empty());
  const std::string said = shown.back()["params"]["message"];
  EXPECT_NE(said.find("ran " + statement), std::string::npos) << said;
  EXPECT_NE(said.find("pending_restart): shared_buffers"), std::string::npos) << said;
  // A command's arguments never carry SQL: an unknown parameter is refused.
  json bad = c.Request("workspace/executeCommand",
                       {{"command", "pgconflint.live.alterSystem"},
                        {"arguments", {{{"parameter", "work_mem = 1; DROP TABLE x; --"}, {"value", "1"}}}}});
  EXPECT_EQ(bad["error"]["code"], kInvalidParams);
  // The value is quoted: a quote in it stays inside the literal.
  c.Request("workspace/executeCommand", {{"command", "pgconflint.live.alterSystem"},
                                         {"arguments", {{{"parameter", "application_name"}, {"value", "x'; DROP"}}}}});
  asks = c.Sent("window/showMessageRequest");
  ASSERT_EQ(asks.size(), 3u);
  EXPECT_NE(std::string(asks[2]["params"]["message"]).find("ALTER SYSTEM SET application_name = 'x''; DROP';"),
            std::string::npos)
      << asks[2].dump();
}

// A value with a password (primary_conninfo) runs as written and is shown masked.
TEST(LspLiveTest, AStatementsPasswordIsShownMasked) {
  FakeLive live;
  Editor c(&live, {{"conninfo", kConninfo}, {"allowWrites", true}});
  const std::string conf = "/project/data/postgresql.conf";
  c.Open(conf, "primary_conninfo = 'host=primary password=replpass'\n");
  json actions = c.Actions(conf, 0);
  json command;
  for (const json& a : actions) {
    const std::string title = a["title"];
    EXPECT_EQ(title.find("replpass"), std::string::npos) << title;
    if (title.find("ALTER SYSTEM SET primary_conninfo = 'host=primary password=*****';") != std::string::npos)
      command = a["command"];
  }
  ASSERT_TRUE(command.is_object()) << actions.dump();
  c.Request("workspace/executeCommand", {{"command", command["command"]}, {"arguments", command["arguments"]}});
  std::vector<json> asks = c.Sent("window/showMessageRequest");
  ASSERT_EQ(asks.size(), 1u);
  c.Answer(asks[0]["id"], {{"title", "Run"}});
  EXPECT_EQ(live.asked.back().statement, "ALTER SYSTEM SET primary_conninfo = 'host=primary password=replpass';");
  for (const char* method : {"window/showMessageRequest", "window/showMessage", "window/logMessage"})
    for (const json& m : c.Sent(method)) EXPECT_EQ(m.dump().find("replpass"), std::string::npos) << m.dump();
}

TEST(LspLiveTest, ADownServerIsSaidOnceAndLintingGoesOn) {
  FakeLive live;
  live.error = "cannot connect to host=db user=postgres password=***** dbname=postgres: connection refused (hunter2)";
  Editor c(&live, {{"conninfo", kConninfo}, {"allowWrites", true}});
  const std::string conf = "/project/data/postgresql.conf";
  c.Open(conf, kConf);
  c.Notify("textDocument/didSave", {{"textDocument", {{"uri", PathToUri(conf)}}}});
  std::vector<json> shown = c.Sent("window/showMessage");
  ASSERT_EQ(shown.size(), 1u);
  EXPECT_NE(std::string(shown[0]["params"]["message"]).find("connection refused"), std::string::npos);
  // The files are still checked (max_connections = lots), hover has no running value, no write action.
  bool invalid = false;
  for (const json& d : c.Published(conf)) invalid = invalid || d["range"]["start"]["line"] == 2;
  EXPECT_TRUE(invalid);
  std::string hover = c.Request("textDocument/hover", Editor::At(conf, 1, 3))["result"]["contents"]["value"];
  EXPECT_EQ(hover.find("Running"), std::string::npos);
  EXPECT_FALSE(AnyHas(Titles(c.Actions(conf, 1)), "ALTER SYSTEM"));
  // No message the client received holds the password.
  for (const json& m : c.received) EXPECT_EQ(m.dump().find("hunter2"), std::string::npos) << m.dump();
}

// A client that throws is a server that could not be read: said without
// the password, and the next save asks again (the request under way ended).
TEST(LspLiveTest, AClientThatThrowsIsSaidAndAskedAgain) {
  FakeLive live;
  live.throws = 1;
  Editor c(&live, {{"conninfo", kConninfo}});
  const std::string conf = "/project/data/postgresql.conf";
  c.Open(conf, kConf);
  std::vector<json> shown = c.Sent("window/showMessage");
  ASSERT_EQ(shown.size(), 1u);
  const std::string message = shown[0]["params"]["message"];
  EXPECT_NE(message.find("the client failed"), std::string::npos) << message;
  EXPECT_EQ(message.find("hunter2"), std::string::npos) << message;
  const size_t asked = live.asked.size();
  c.Notify("textDocument/didSave", {{"textDocument", {{"uri", PathToUri(conf)}}}});
  EXPECT_EQ(live.asked.size(), asked + 1);
  std::string hover = c.Request("textDocument/hover", Editor::At(conf, 1, 3))["result"]["contents"]["value"];
  EXPECT_NE(hover.find("Running"), std::string::npos) << hover;
}

// workspace/didChangeConfiguration turns the live server on and off as
// initializationOptions do; a change of another setting reads nothing again.
TEST(LspLiveTest, DidChangeConfigurationTurnsItOnAndOff) {
  FakeLive live;
  Editor c(&live, json::object());
  const std::string conf = "/project/data/postgresql.conf";
  c.Open(conf, kConf);
  EXPECT_TRUE(live.asked.empty());
  auto configure = [&](json settings) {
    c.Notify("workspace/didChangeConfiguration", {{"settings", {{"pgconflint", std::move(settings)}}}});
  };
  auto hover = [&] {
    json r = c.Request("textDocument/hover", Editor::At(conf, 1, 3));
    return r["result"]["contents"]["value"].get<std::string>();
  };
  EXPECT_EQ(hover().find("**Running**"), std::string::npos);
  configure({{"live", {{"conninfo", kConninfo}}}});
  EXPECT_EQ(live.asked.size(), 1u);
  EXPECT_NE(hover().find("**Running**"), std::string::npos);
  configure({{"live", {{"conninfo", kConninfo}}}, {"debounce-ms", 5}});
  EXPECT_EQ(live.asked.size(), 1u);
  configure(json::object());
  EXPECT_EQ(hover().find("**Running**"), std::string::npos);
  EXPECT_EQ(live.asked.size(), 1u);
}

TEST(LspLiveTest, ABadSettingIsReportedAndIgnored) {
  FakeLive live;
  Editor c(&live, {{"conninfo", 5}});
  EXPECT_TRUE(live.asked.empty());
  std::vector<json> shown = c.Sent("window/showMessage");
  ASSERT_EQ(shown.size(), 1u);
  EXPECT_NE(std::string(shown[0]["params"]["message"]).find("live.conninfo"), std::string::npos);
}

}  // namespace
}  // namespace pgconflint::lsp
