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
std::vector<std::string> DriftOn14(const std::string& conf, const std::string& rows) {
  const RuleInfo* drift = FindRule("configuration-drift");
  EXPECT_NE(drift, nullptr);
  if (!drift) return {};
  RuleInfo rule = *drift;
  const std::string snapshot = R"({"pgconflint_snapshot": 1, "server": "example", "info": {"server_version_num": )"
                               R"(140023, "superuser": true}, "settings": [)" + rows + "]}";
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

}  // namespace
}  // namespace pgconflint
