// Reading snapshots: bad files are errors with a message, never crashes.
#include "core/server/snapshot.h"

#include <gtest/gtest.h>

#include <set>

#include "core/workspace/workspace.h"

namespace pgconflint {
namespace {

TEST(SnapshotTest, RefusesWhatIsNotASnapshot) {
  Snapshot s;
  std::string error;
  EXPECT_FALSE(ReadSnapshot("not json", &s, &error));
  EXPECT_FALSE(error.empty());
  error.clear();
  EXPECT_FALSE(ReadSnapshot("{\"x\": 1}", &s, &error));
  EXPECT_NE(error.find("pgconflint_snapshot"), std::string::npos) << error;
  error.clear();
  EXPECT_FALSE(ReadSnapshot("{\"pgconflint_snapshot\": 99}", &s, &error));
  EXPECT_NE(error.find("99"), std::string::npos) << error;
  error.clear();
  EXPECT_FALSE(ReadSnapshot("{\"pgconflint_snapshot\": 1, \"info\": {}}", &s, &error));
  EXPECT_NE(error.find("server_version_num"), std::string::npos) << error;
}

TEST(SnapshotTest, ReadsWhatARoleCouldSee) {
  Snapshot s;
  std::string error;
  ASSERT_TRUE(ReadSnapshot(R"({"pgconflint_snapshot": 1, "server": "u@h:5432/d",
      "info": {"server_version_num": 170002, "server_version": "17.2", "user": "u", "superuser": false,
               "pg_read_all_settings": true, "pg_monitor": true},
      "settings": [{"name": "work_mem", "setting": "4096", "unit": "kB", "source": "default",
                    "pending_restart": false}],
      "file_settings": null, "db_role_settings": [], "tablespaces": [], "databases": [],
      "hba_rules": null})",
                           &s, &error))
      << error;
  EXPECT_EQ(s.major(), 17);
  EXPECT_EQ(s.server, "u@h:5432/d");
  EXPECT_FALSE(s.file_settings.has_value());
  ASSERT_NE(s.Setting("work_mem"), nullptr);
  EXPECT_EQ(s.Setting("work_mem")->setting, "4096");
}

// A snapshot read from a file finds rows through its index (a file of
// 200,000 rows, each asking for its parameter, was quadratic); the first row
// of a name wins, as in a scan, and a snapshot changed afterwards scans.
TEST(SnapshotTest, SettingsAreFoundByIndexAsByScan) {
  std::string rows;
  for (int i = 0; i < 5000; ++i)
    rows += std::string(i ? "," : "") + R"({"name": "x.p)" + std::to_string(i) + R"(", "setting": ")" +
            std::to_string(i) + R"(", "source": "configuration file"})";
  rows += R"(, {"name": "Work_Mem", "setting": "first", "source": "default"},
              {"name": "work_mem", "setting": "second", "source": "default"})";
  Snapshot s;
  std::string error;
  ASSERT_TRUE(ReadSnapshot(R"({"pgconflint_snapshot": 1, "info": {"server_version_num": 180004},
      "settings": [)" + rows + "]}",
                           &s, &error))
      << error;
  EXPECT_EQ(s.indexed_rows, 5002u);
  ASSERT_NE(s.Setting("X.P4999"), nullptr);
  EXPECT_EQ(s.Setting("X.P4999")->setting, "4999");
  ASSERT_NE(s.Setting("WORK_MEM"), nullptr);
  EXPECT_EQ(s.Setting("WORK_MEM")->setting, "first");
  EXPECT_EQ(s.Setting("x.p5000"), nullptr);
  Snapshot copy = s;
  EXPECT_EQ(copy.Setting("x.p17"), &copy.settings[17]) << "a copy finds its own rows";
  copy.settings.push_back({});
  copy.settings.back().name = "x.added";
  ASSERT_NE(copy.Setting("x.added"), nullptr) << "a changed snapshot scans";
  EXPECT_EQ(copy.Setting("work_mem")->setting, "first");
}

// pg_roles: every role, and whether it can log in; a snapshot of an older
// pgconflint without the section has none.
TEST(SnapshotTest, ReadsTheRoles) {
  Snapshot s;
  std::string error;
  ASSERT_TRUE(ReadSnapshot(R"({"pgconflint_snapshot": 1, "info": {"server_version_num": 180004},
      "roles": [{"name": "app", "login": true}, {"name": "readers", "login": false}]})",
                           &s, &error))
      << error;
  ASSERT_EQ(s.roles.size(), 2u);
  EXPECT_EQ(s.roles[0].name, "app");
  EXPECT_TRUE(s.roles[0].login);
  EXPECT_FALSE(s.roles[1].login);
  ASSERT_TRUE(ReadSnapshot(R"({"pgconflint_snapshot": 1, "info": {"server_version_num": 180004}})", &s, &error));
  EXPECT_TRUE(s.roles.empty());
  EXPECT_FALSE(ReadSnapshot(R"({"pgconflint_snapshot": 1, "info": {"server_version_num": 180004},
      "roles": [{"name": "app", "login": "yes"}]})",
                            &s, &error));
  EXPECT_NE(error.find("roles[0].login"), std::string::npos) << error;
}

// The "tables" section (pg_stat_user_tables with sizes and reloptions):
// counters beyond 32 bits are read whole; a snapshot without the section (an
// older one) has none.
TEST(SnapshotTest, ReadsTheLargestTables) {
  Snapshot s;
  std::string error;
  ASSERT_TRUE(ReadSnapshot(R"({"pgconflint_snapshot": 1, "info": {"server_version_num": 180001},
      "tables": [{"schema": "public", "name": "events", "bytes": 21474836480, "reltuples": 3.2e8, "live": 320000000,
                  "dead": 4100000, "inserted": 9000000000, "updated": 12, "deleted": 0,
                  "inserted_since_vacuum": 2500000, "modified_since_analyze": 10, "options": ["fillfactor=90"]},
                 {"schema": "s", "name": "t", "bytes": 8192, "reltuples": -1, "live": 0, "dead": 0,
                  "inserted": 0, "updated": 0, "deleted": 0, "inserted_since_vacuum": 0,
                  "modified_since_analyze": 0, "options": null}]})",
                           &s, &error))
      << error;
  ASSERT_TRUE(s.tables.has_value());
  ASSERT_EQ(s.tables->size(), 2u);
  const SnapshotTable& t = (*s.tables)[0];
  EXPECT_EQ(t.schema + "." + t.name, "public.events");
  EXPECT_EQ(t.bytes, 21474836480.0);
  EXPECT_EQ(t.inserted, 9e9);
  EXPECT_EQ(t.reltuples, 3.2e8);
  EXPECT_EQ(t.options, std::vector<std::string>{"fillfactor=90"});
  EXPECT_TRUE((*s.tables)[1].options.empty());
  ASSERT_TRUE(ReadSnapshot(R"({"pgconflint_snapshot": 1, "info": {"server_version_num": 180001}})", &s, &error));
  EXPECT_FALSE(s.tables.has_value());
}

// pg_hba_file_rules and pg_ident_file_mappings rows are read as the CLI's
// --server-hba / --server-ident rows are; rows that are not objects are an
// error that names the section.
TEST(SnapshotTest, ReadsTheAuthenticationViews) {
  Snapshot s;
  std::string error;
  ASSERT_TRUE(ReadSnapshot(R"({"pgconflint_snapshot": 1, "info": {"server_version_num": 160004},
      "hba_rules": [{"rule_number": 1, "file_name": "/d/pg_hba.conf", "line_number": 3, "type": "local",
                     "database": ["all"], "user_name": ["all"], "auth_method": "peer"},
                    {"rule_number": null, "file_name": "/d/pg_hba.conf", "line_number": 4, "type": "host",
                     "error": "invalid authentication method \"trusted\""}],
      "ident_mappings": [{"map_number": 1, "file_name": "/d/pg_ident.conf", "line_number": 2,
                          "map_name": "sso", "sys_name": "alice", "pg_username": "app"}]})",
                           &s, &error))
      << error;
  ASSERT_TRUE(s.hba_rules.has_value());
  ASSERT_EQ(s.hba_rules->size(), 2u);
  EXPECT_EQ((*s.hba_rules)[0].rule_number, 1);
  EXPECT_EQ((*s.hba_rules)[0].auth_method, "peer");
  EXPECT_EQ((*s.hba_rules)[0].database, std::vector<std::string>{"all"});
  EXPECT_FALSE((*s.hba_rules)[1].rule_number.has_value());
  EXPECT_EQ((*s.hba_rules)[1].error, "invalid authentication method \"trusted\"");
  ASSERT_TRUE(s.ident_mappings.has_value());
  ASSERT_EQ(s.ident_mappings->size(), 1u);
  EXPECT_EQ((*s.ident_mappings)[0].line_number, 2);
  EXPECT_EQ((*s.ident_mappings)[0].pg_username, "app");

  Snapshot none;
  ASSERT_TRUE(ReadSnapshot(R"({"pgconflint_snapshot": 1, "info": {"server_version_num": 140010},
      "hba_rules": null})", &none, &error)) << error;
  EXPECT_FALSE(none.hba_rules.has_value());
  EXPECT_FALSE(none.ident_mappings.has_value());

  error.clear();
  EXPECT_FALSE(ReadSnapshot(R"({"pgconflint_snapshot": 1, "info": {"server_version_num": 160004},
      "ident_mappings": [1]})", &none, &error));
  EXPECT_EQ(error.rfind("ident_mappings: ", 0), 0u) << error;
}

// Rows without a line number (a malformed snapshot; found by fuzz_server)
// are placed at a line of their own, and findings about them at the file's
// start: no lookup of a line the rebuilt file does not hold.
TEST(SnapshotTest, RowsWithoutALineNumberDoNotThrow) {
  Snapshot s;
  std::string error;
  ASSERT_TRUE(ReadSnapshot(R"({"pgconflint_snapshot": 1, "info": {"server_version_num": 170004, "superuser": true},
      "settings": [{"name": "work_mem", "setting": "4096", "unit": "kB", "context": "user",
                    "source": "configuration file", "sourcefile": "/srv/pg/postgresql.conf"}],
      "file_settings": [{"sourcefile": "/srv/pg/postgresql.conf", "seqno": 1, "name": "work_mem",
                         "setting": "lots", "applied": false, "error": "setting could not be applied"}],
      "hba_rules": [{"file_name": "/srv/pg/pg_hba.conf", "type": "host", "error": "invalid IP address"}]})",
                           &s, &error))
      << error;
  WorkspaceOptions options;
  options.use_config = false;
  Workspace ws(options);
  Analysis a;
  ASSERT_NO_THROW(ASSERT_TRUE(ws.LintSnapshot(s, &a, &error)) << error);
  std::set<std::string> codes;
  for (const Diagnostic& d : a.diagnostics) codes.insert(d.rule->code);
  EXPECT_TRUE(codes.count("PGC1102")) << "the refused line";
  EXPECT_TRUE(codes.count("PGC1104")) << "the hba error";
}

// A snapshot of the wrong shape is refused with where it is wrong, never
// read as a server with nothing to check (nor thrown).
TEST(SnapshotTest, WrongShapesAreRefusedWithWhere) {
  const std::string head = R"({"pgconflint_snapshot": 1, "info": {"server_version_num": 160000}, )";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"("settings": {"a": 1}})", "settings: expected an array of rows, got an object"},
      {R"("settings": [1]})", "settings[0]: expected an object (one row), got an integer"},
      {R"("settings": [{"name": "a"}, {"name": 2}]})", "settings[1].name: expected a string, got an integer"},
      {R"("settings": [{"name": "a", "sourceline": "7"}]})", "settings[0].sourceline: expected an integer, got a string"},
      {R"("settings": [{"name": "a", "pending_restart": "t"}]})",
       "settings[0].pending_restart: expected a boolean, got a string"},
      {R"("file_settings": "x"})", "file_settings: expected an array of rows, got a string"},
      {R"("db_role_settings": [{"settings": [1]}]})",
       "db_role_settings[0].settings: expected an array of strings, got an integer"},
      {R"("tablespaces": [{"name": null, "options": 3}]})",
       "tablespaces[0].options: expected an array of strings, got an integer"},
      {R"("hba_rules": {"a": 1}})", "hba_rules: expected a JSON array of rows"},
      {R"("tables": [{"name": "t", "dead": "7"}]})", "tables[0].dead: expected a number, got a string"},
      {R"("server": ["x"]})", "snapshot.server: expected a string, got an array"},
  };
  for (const auto& [tail, want] : cases) {
    Snapshot s;
    std::string error;
    EXPECT_NO_THROW(EXPECT_FALSE(ReadSnapshot(head + tail, &s, &error)) << tail);
    EXPECT_EQ(error, want) << tail;
  }
  Snapshot s;
  std::string error;
  EXPECT_FALSE(ReadSnapshot(R"({"pgconflint_snapshot": 1, "info": [160000]})", &s, &error));
  EXPECT_EQ(error, "info: expected an object, got an array");
  // Missing and null fields and sections keep their defaults.
  ASSERT_TRUE(ReadSnapshot(head + R"("settings": [{"name": "a", "unit": null}], "file_settings": null})", &s, &error))
      << error;
  EXPECT_EQ(s.settings.size(), 1u);
  EXPECT_FALSE(s.file_settings.has_value());
}

// Numbers out of an int's range are refused, never converted (found by
// fuzz_server: a float past int was undefined behaviour; a large integer
// would wrap to a plausible line number). In the server's hba rows, which
// --server-hba reads too, they are absent.
TEST(SnapshotTest, NumbersOutOfRangeAreNeverConverted) {
  Snapshot s;
  std::string error;
  EXPECT_FALSE(ReadSnapshot(R"({"pgconflint_snapshot": 1, "info": {"server_version_num": 1.7e82}})", &s, &error));
  EXPECT_EQ(error, "info.server_version_num: expected an integer, got a number with a fraction");
  EXPECT_FALSE(ReadSnapshot(R"({"pgconflint_snapshot": 1, "info": {"server_version_num": 170004},
      "settings": [{"name": "work_mem", "setting": "4096", "sourceline": 4294967299}]})",
                            &s, &error));
  EXPECT_EQ(error, "settings[0].sourceline: expected an integer within 32 bits, got an integer");
  ASSERT_TRUE(ReadSnapshot(R"({"pgconflint_snapshot": 1, "info": {"server_version_num": 170004},
      "hba_rules": [{"line_number": 4294967297, "rule_number": -4294967295, "type": "local"},
                    {"line_number": 18446744073709551615, "type": "local"}, {"line_number": 2.5, "type": "local"}]})",
                           &s, &error))
      << error;
  ASSERT_TRUE(s.hba_rules.has_value());
  ASSERT_EQ(s.hba_rules->size(), 3u);
  for (const ServerHbaRule& r : *s.hba_rules) EXPECT_EQ(r.line_number, 0);
  EXPECT_FALSE((*s.hba_rules)[0].rule_number.has_value());
}

}  // namespace
}  // namespace pgconflint
