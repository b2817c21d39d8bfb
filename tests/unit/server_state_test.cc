// A running server's complaints about its own files, placed at the lines of
// the files being checked when they are the server's (the editor's live
// mode, through WorkspaceOptions::server), else on the root; and the
// running value of a parameter with its pending restart.
#include "core/server/server_state.h"

#include <gtest/gtest.h>

#include "core/workspace/workspace.h"
#include "fake_disk.h"

namespace pgconflint {
namespace {

// A server of 18 whose data directory is /srv/data: line 2 of its
// postgresql.conf was refused, shared_buffers waits for a restart, line 3 of
// its pg_hba.conf cannot be loaded.
Snapshot ServerAt(const std::string& dir = "/srv/data") {
  const std::string json = R"({"pgconflint_snapshot": 1, "server": "postgres@db:5432/postgres",
      "info": {"server_version_num": 180004, "server_version": "18.4", "superuser": true},
      "settings": [
        {"name": "work_mem", "setting": "4096", "unit": "kB", "vartype": "integer", "context": "user",
         "source": "default"},
        {"name": "shared_buffers", "setting": "16384", "unit": "8kB", "vartype": "integer",
         "context": "postmaster", "source": "configuration file", "sourcefile": ")" + dir + R"(/postgresql.conf",
         "sourceline": 1, "pending_restart": true},
        {"name": "hba_file", "setting": ")" + dir + R"(/pg_hba.conf", "vartype": "string",
         "context": "postmaster", "source": "override"}],
      "file_settings": [
        {"sourcefile": ")" + dir + R"(/postgresql.conf", "sourceline": 1, "seqno": 1, "name": "shared_buffers",
         "setting": "256MB", "applied": false, "error": "setting could not be applied"},
        {"sourcefile": ")" + dir + R"(/postgresql.conf", "sourceline": 2, "seqno": 2, "name": "work_mem",
         "setting": "lots", "applied": false, "error": "setting could not be applied"}],
      "hba_rules": [
        {"rule_number": 1, "file_name": ")" + dir + R"(/pg_hba.conf", "line_number": 1, "type": "local",
         "database": ["all"], "user_name": ["all"], "auth_method": "trust"},
        {"rule_number": null, "file_name": ")" + dir + R"(/pg_hba.conf", "line_number": 3, "type": "host",
         "error": "invalid authentication method \"trusted\""}]})";
  Snapshot s;
  std::string error;
  EXPECT_TRUE(ReadSnapshot(json, &s, &error)) << error;
  return s;
}

struct Found {
  std::string code, file, message;
  uint32_t line = 0;  // 1-based; 0 on the root
};

const Found* WithCode(const std::vector<Found>& found, const std::string& code) {
  for (const Found& f : found)
    if (f.code == code) return &f;
  return nullptr;
}

std::vector<Found> LintWithServer(const std::string& dir, const Snapshot& server) {
  FakeDisk disk("/srv");
  disk.Write(dir + "/PG_VERSION", "18\n");
  disk.Write(dir + "/postgresql.conf", "shared_buffers = 256MB\nwork_mem = lots\n");
  disk.Write(dir + "/pg_hba.conf", "local all all trust\n# a comment\nhost all all 0.0.0.0/0 trusted\n");
  WorkspaceOptions o;
  o.fs = &disk.fs();
  o.use_config = false;
  o.server = &server;
  Workspace ws(o);
  Analysis a;
  std::string error;
  EXPECT_TRUE(ws.Lint(dir, &a, &error)) << error;
  std::vector<Found> out;
  for (const Diagnostic& d : a.diagnostics) {
    const std::string code = d.rule->code;
    if (code != "PGC1102" && code != "PGC1104") continue;
    Found f{code, d.file >= 0 ? a.files[d.file].abs_path : "", d.message};
    if (d.file >= 0) f.line = a.files[d.file].source.LineOf(d.range.begin);
    out.push_back(f);
  }
  return out;
}

TEST(ServerStateTest, ComplaintsStandAtTheServersOwnLines) {
  const Snapshot server = ServerAt();
  std::vector<Found> found = LintWithServer("/srv/data", server);
  ASSERT_EQ(found.size(), 2u);
  // The refused work_mem line (shared_buffers waits for a restart: not refused).
  const Found* refused = WithCode(found, "PGC1102");
  ASSERT_NE(refused, nullptr);
  EXPECT_EQ(refused->file, "/srv/data/postgresql.conf");
  EXPECT_EQ(refused->line, 2u);
  EXPECT_NE(refused->message.find("the server did not apply this line"), std::string::npos) << refused->message;
  const Found* hba = WithCode(found, "PGC1104");
  ASSERT_NE(hba, nullptr);
  EXPECT_EQ(hba->file, "/srv/data/pg_hba.conf");
  EXPECT_EQ(hba->line, 3u);
  EXPECT_NE(hba->message.find("trusted"), std::string::npos) << hba->message;
}

// Files that are not the server's (a repository's copy) get the complaints
// on the root, naming the server's file and line: never a line of another
// file that may say something else there.
TEST(ServerStateTest, OtherFilesGetThemOnTheRoot) {
  const Snapshot server = ServerAt("/var/lib/postgresql/18/main");
  std::vector<Found> found = LintWithServer("/srv/data", server);
  ASSERT_EQ(found.size(), 2u);
  for (const Found& f : found) EXPECT_EQ(f.line, 0u) << f.message;
  const Found* refused = WithCode(found, "PGC1102");
  const Found* hba = WithCode(found, "PGC1104");
  ASSERT_TRUE(refused && hba);
  EXPECT_NE(refused->message.find("postgres@db:5432/postgres did not apply /var/lib/postgresql/18/main/postgresql.conf:2 "
                                  "(work_mem)"),
            std::string::npos)
      << refused->message;
  EXPECT_NE(hba->message.find("/var/lib/postgresql/18/main/pg_hba.conf:3"), std::string::npos) << hba->message;
}

// A line that moved in the editor (the server read another text) is not
// the server's line any more: the complaint goes to the root.
TEST(ServerStateTest, AMovedLineIsNotBlamed) {
  Snapshot server = ServerAt();
  (*server.file_settings)[1].sourceline = 1;  // the server's line 1 says work_mem; ours says shared_buffers
  std::vector<Found> found = LintWithServer("/srv/data", server);
  const Found* refused = WithCode(found, "PGC1102");
  ASSERT_NE(refused, nullptr);
  EXPECT_EQ(refused->line, 0u);
}

TEST(ServerStateTest, WithoutAServerNothing) {
  FakeDisk disk("/srv");
  disk.Write("data/PG_VERSION", "18\n");
  disk.Write("data/postgresql.conf", "work_mem = lots\n");
  WorkspaceOptions o;
  o.fs = &disk.fs();
  o.use_config = false;
  Workspace ws(o);
  Analysis a;
  std::string error;
  ASSERT_TRUE(ws.Lint("/srv/data", &a, &error));
  for (const Diagnostic& d : a.diagnostics) EXPECT_NE(std::string(d.rule->code), "PGC1102");
}

TEST(ServerStateTest, RunningValueAndPendingRestart) {
  const Snapshot server = ServerAt();
  const Catalog& cat = *Catalog::ForMajor(18);
  std::optional<RunningValue> sb = RunningValueOf(server, cat, "SHARED_BUFFERS");
  ASSERT_TRUE(sb);
  EXPECT_EQ(sb->value, "128MB");
  EXPECT_TRUE(sb->pending_restart);
  EXPECT_EQ(sb->pending_value, "256MB");
  EXPECT_EQ(sb->pending_where, "/srv/data/postgresql.conf:1");
  EXPECT_EQ(sb->where, "/srv/data/postgresql.conf:1");
  std::optional<RunningValue> wm = RunningValueOf(server, cat, "work_mem");
  ASSERT_TRUE(wm);
  EXPECT_EQ(wm->value, "4MB");
  EXPECT_EQ(wm->source, "default");
  EXPECT_FALSE(wm->pending_restart);
  EXPECT_FALSE(RunningValueOf(server, cat, "maintenance_work_mem"));
}

}  // namespace
}  // namespace pgconflint
