// Drift: the repository's configuration against a running server's
// pg_settings (`check PATH --live`), and the reason given for each difference.
#include "core/review/drift.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <string>
#include <vector>

#include "core/rules/rules.h"
#include "core/workspace/workspace.h"
#include "test_support.h"

namespace pgconflint {
namespace {

// The configuration-drift messages of the repository postgresql.conf `conf`
// against a PostgreSQL 14 server whose pg_settings rows are `rows`.
std::vector<std::string> DriftOn14(const std::string& conf, const std::string& rows,
                                   const std::string& more_sections = "") {
  const RuleInfo* drift = FindRule("configuration-drift");
  EXPECT_NE(drift, nullptr);
  if (!drift) return {};
  RuleInfo rule = *drift;
  const std::string snapshot = R"({"pgconflint_snapshot": 1, "server": "example", "info": {"server_version_num": )"
                               R"(140023, "superuser": true}, "settings": [)" + rows + "]" + more_sections + "}";
  rule.example_context = snapshot.c_str();
  rule.example_pg_version = 14;
  char dir[] = "/tmp/pgconflint-drift-XXXXXX";
  EXPECT_NE(mkdtemp(dir), nullptr);
  Analysis a = LintExample(rule, conf, test::TheRuleSet(), dir);
  rmdir(dir);
  EXPECT_EQ(a.failure, Analysis::Failure::kNone) << a.failure_message;
  std::vector<std::string> out;
  for (const Diagnostic& d : a.diagnostics)
    if (d.rule && std::string_view(d.rule->code) == drift->code) out.push_back(d.message);
  return out;
}

// PostgreSQL 14 derives max_stack_depth from its stack size limit and reports
// it as set by an environment variable (15 on: "default"; both asked of the
// real servers): the server runs its default, no environment sets it.
TEST(DriftTest, FourteensDerivedStackDepthIsTheServersDefault) {
  const std::string derived = R"({"name": "max_stack_depth", "setting": "1536", "unit": "kB", "vartype": "integer",
                                  "context": "superuser", "source": "environment variable"})";
  std::vector<std::string> set = DriftOn14("max_stack_depth = '6MB'\n", derived);
  ASSERT_EQ(set.size(), 1u);
  EXPECT_NE(set[0].find("'1536kB' on example: the server runs the default: the repository's setting is not deployed"),
            std::string::npos)
      << set[0];
  EXPECT_EQ(DriftOn14("work_mem = '4MB'\n", derived), std::vector<std::string>{});
}

// A real environment variable (PGPORT) still is one.
TEST(DriftTest, AnEnvironmentVariableIsNamed) {
  std::vector<std::string> port = DriftOn14("port = 5433\n", R"({"name": "port", "setting": "5432", "vartype": "integer",
                                                              "context": "postmaster", "source": "environment variable"})");
  ASSERT_EQ(port.size(), 1u);
  EXPECT_NE(port[0].find("an environment variable of the server sets it"), std::string::npos) << port[0];
}

// The running value 128MB, ALTER SYSTEM's 256MB waiting for a restart, and
// the repository's 512MB: the restart applies the files' value, not the
// repository's (pg_file_settings says which).
constexpr char kPendingSharedBuffers[] =
    R"({"name": "shared_buffers", "setting": "16384", "unit": "8kB", "vartype": "integer", "context": "postmaster",
        "source": "configuration file", "sourcefile": "/data/postgresql.conf", "sourceline": 3,
        "pending_restart": true})";
constexpr char kAutoConfSharedBuffers[] =
    R"(, "file_settings": [{"sourcefile": "/data/postgresql.conf", "sourceline": 3, "seqno": 1,
        "name": "shared_buffers", "setting": "128MB", "applied": false, "error": null},
       {"sourcefile": "/data/postgresql.auto.conf", "sourceline": 3, "seqno": 2, "name": "shared_buffers",
        "setting": "256MB", "applied": false, "error": "setting could not be applied"}])";

TEST(DriftTest, APendingValueIsTheFilesValue) {
  std::vector<std::string> other = DriftOn14("shared_buffers = '512MB'\n", kPendingSharedBuffers, kAutoConfSharedBuffers);
  ASSERT_EQ(other.size(), 1u);
  EXPECT_EQ(other[0], "shared_buffers is '512MB' here but '128MB' on example: its files say '256MB' "
                      "(/data/postgresql.auto.conf:3, written by ALTER SYSTEM), which the next restart applies");
  std::vector<std::string> same = DriftOn14("shared_buffers = '256MB'\n", kPendingSharedBuffers, kAutoConfSharedBuffers);
  ASSERT_EQ(same.size(), 1u);
  EXPECT_NE(same[0].find("the server's files already say so, but a restart is pending"), std::string::npos) << same[0];
  std::vector<std::string> running =
      DriftOn14("shared_buffers = '128MB'\n", kPendingSharedBuffers, kAutoConfSharedBuffers);
  ASSERT_EQ(running.size(), 1u);
  EXPECT_EQ(running[0], "shared_buffers is '128MB' here and on example now, but its files say '256MB' "
                        "(/data/postgresql.auto.conf:3, written by ALTER SYSTEM): the next restart changes it");
}

// pg_db_role_setting rows against the repository's cluster-wide values.
TEST(DriftTest, DatabaseAndRoleSettingsAreComparedWithTheRepository) {
  const std::string rows =
      R"({"name": "statement_timeout", "setting": "30000", "unit": "ms", "vartype": "integer", "context": "user",
          "source": "configuration file"})";
  const std::string scoped = R"(, "db_role_settings": [
      {"database": "appdb", "role": "", "settings": ["statement_timeout=0"]},
      {"database": "", "role": "app", "settings": ["work_mem=2GB", "statement_timeout=30s"]}])";
  std::vector<std::string> found = DriftOn14("statement_timeout = '30s'\nwork_mem = '64MB'\n", rows, scoped);
  std::vector<std::string> want = {
      "statement_timeout is '30s' here but '0' for database appdb on example: ALTER DATABASE appdb SET "
      "statement_timeout overrides the configuration for its sessions",
      "work_mem is '64MB' here but '2GB' for role app on example: ALTER ROLE app SET work_mem overrides the "
      "configuration for its sessions"};
  EXPECT_EQ(found, want);
}

}  // namespace
}  // namespace pgconflint
