// Module parameters and libraries as the server treats them
// (docs/postgresql-semantics.md#extension-parameters; each behaviour is
// checked on real servers by tests/integration/test_extensions.py).
#include "core/checks/extensions.h"

#include <gtest/gtest.h>

#include <map>

#include "core/workspace/workspace.h"

namespace pgconflint {
namespace {

Analysis LintWithFacts(const std::string& text, const std::string& facts = "", int major = 18) {
  static const RuleSet rules;
  Profile p;
  std::string error;
  EXPECT_TRUE(SetProfileFacts(&p, facts, &error)) << error;
  return LintText("/ext-test/postgresql.conf", text, *Catalog::ForMajor(major), rules, p);
}

// line -> codes reported on it.
std::map<uint32_t, std::vector<std::string>> FindingsByLine(const Analysis& a) {
  std::map<uint32_t, std::vector<std::string>> out;
  for (const Diagnostic& d : a.diagnostics) out[a.files[d.file].source.LineOf(d.range.begin)].push_back(d.rule->code);
  return out;
}

TEST(ExtensionsTest, TheIssueExampleGetsOneFindingPerLine) {
  Analysis a = LintWithFacts("shared_preload_libraries = 'pg_stat_statements,auto_explain'\n"
                    "pg_stat_statements.max = 'lots'\n"
                    "pg_stat_statements.track = sometimes\n"
                    "auto_explain.log_analyz = on\n");
  std::map<uint32_t, std::vector<std::string>> f = FindingsByLine(a);
  EXPECT_EQ(f[1], std::vector<std::string>{"PGC169"});
  EXPECT_EQ(f[2], std::vector<std::string>{"PGC161"});
  EXPECT_EQ(f[3], std::vector<std::string>{"PGC161"});
  EXPECT_EQ(f[4], std::vector<std::string>{"PGC162"});
  EXPECT_EQ(f.size(), 4u);
  for (const Diagnostic& d : a.diagnostics) EXPECT_FALSE(d.fatal()) << d.message;
  EXPECT_NE(a.diagnostics[1].message.find("uses the default \"5000\""), std::string::npos) << a.diagnostics[1].message;
  EXPECT_NE(a.diagnostics[3].message.find("reserved prefix"), std::string::npos) << a.diagnostics[3].message;
}

TEST(ExtensionsTest, ValuesAppliedWhenTheModuleLoads) {
  Analysis a = LintWithFacts("shared_preload_libraries = 'auto_explain'\nauto_explain.log_min_duration = '1s'\n");
  const Setting& s = a.settings[1];
  ASSERT_TRUE(s.value);
  EXPECT_EQ(*s.value, "1000");
  EXPECT_TRUE(s.applied);
  Analysis bad = LintWithFacts("shared_preload_libraries = 'auto_explain'\nauto_explain.log_min_duration = 'soon'\n");
  EXPECT_FALSE(bad.settings[1].applied);
  EXPECT_FALSE(bad.settings[1].value);
}

TEST(ExtensionsTest, FourteenKeepsUnknownNamesWithAWarning) {
  Analysis a = LintWithFacts("shared_preload_libraries = 'auto_explain'\nauto_explain.log_analyz = on\n", "", 14);
  ASSERT_EQ(a.diagnostics.size(), 1u);
  EXPECT_EQ(std::string(a.diagnostics[0].rule->code), "PGC162");
  EXPECT_EQ(a.diagnostics[0].message.find("reserved prefix"), std::string::npos) << a.diagnostics[0].message;
}

TEST(ExtensionsTest, UnknownModulesStayAccepted) {
  Analysis a = LintWithFacts("citus.shard_count = 64\ntimescaledb.max_background_workers = 8\n");
  EXPECT_TRUE(a.diagnostics.empty());
  EXPECT_TRUE(a.settings[0].applied);
}

TEST(ExtensionsTest, LibraryNames) {
  EXPECT_EQ(LibraryNames("$libdir/pg_stat_statements, auto_explain.so , \"a,b\""),
            (std::vector<std::string>{"pg_stat_statements", "auto_explain", "a,b"}));
  EXPECT_TRUE(LibraryNames("").empty());
}

TEST(ExtensionsTest, LoadOfEachList) {
  Analysis a = LintWithFacts("shared_preload_libraries = 'a'\nsession_preload_libraries = 'b'\narchive_library = 'c'\n");
  EXPECT_TRUE(LoadOf(a, "a").shared_preload);
  EXPECT_TRUE(LoadOf(a, "b").session_preload);
  EXPECT_TRUE(LoadOf(a, "c").archive_library);
  EXPECT_FALSE(LoadOf(a, "d").any());
}

}  // namespace
}  // namespace pgconflint

namespace pgconflint {
namespace {

// A user catalog reaches the lint from .pgconflint.toml (relative to it) and
// from WorkspaceOptions::extension_catalogs (--extension-catalog).
TEST(ExtensionsWorkspaceTest, UserCatalogFromTheConfigAndTheFlag) {
  OverlayFileSystem fs;
  fs.Set("/p/cat/citus.toml",
         "[[module]]\nname = \"citus\"\nreserves-prefixes = true\n[[module.parameter]]\n"
         "name = \"citus.shard_count\"\ntype = \"integer\"\nmin = \"1\"\nmax = \"64000\"\ndefault = \"32\"\n");
  fs.Set("/p/db/postgresql.conf", "shared_preload_libraries = 'citus'\ncitus.shard_count = 'many'\n");
  auto codes = [&](bool use_config, std::vector<std::string> flags) {
    WorkspaceOptions o;
    o.fs = &fs;
    o.use_config = use_config;
    o.extension_catalogs = std::move(flags);
    Workspace ws(o);
    Analysis a;
    std::string error;
    EXPECT_TRUE(ws.Lint("/p/db", &a, &error)) << error;
    std::vector<std::string> out;
    for (const Diagnostic& d : a.diagnostics) out.push_back(d.rule->code);
    return out;
  };
  EXPECT_EQ(codes(false, {}), std::vector<std::string>{});  // citus unknown: accepted
  EXPECT_EQ(codes(false, {"/p/cat/citus.toml"}), std::vector<std::string>{"PGC161"});
  fs.Set("/p/.pgconflint.toml", "extension-catalog = [\"cat/citus.toml\"]\n");
  EXPECT_EQ(codes(true, {}), std::vector<std::string>{"PGC161"});
}

}  // namespace
}  // namespace pgconflint
