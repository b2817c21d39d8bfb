// docs/rules/ is generated from rules/*.toml (`pgconflint docs docs/rules`);
// this test regenerates it and fails when the committed pages are stale.
#include "report/docs.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include "test_support.h"

namespace pgconflint {
namespace {

using namespace test;

namespace fs = std::filesystem;

TEST(DocsTest, RulePagesAreInSyncWithTheRegistry) {
  RuleSet rules;
  fs::path committed = fs::path(PGC_SOURCE_DIR) / "docs" / "rules";
  fs::path fresh = fs::temp_directory_path() / ("pgconflint-docs-" + std::to_string(getpid()));
  std::string error;
  ASSERT_TRUE(WriteRuleDocs(rules, fresh.string(), &error)) << error;
  std::set<std::string> expected, present;
  for (const auto& e : fs::directory_iterator(fresh)) expected.insert(e.path().filename().string());
  for (const auto& e : fs::directory_iterator(committed)) present.insert(e.path().filename().string());
  EXPECT_EQ(present, expected) << "docs/rules has missing or stale pages: run `build/pgconflint docs docs/rules`";
  for (const std::string& name : expected)
    EXPECT_EQ(Slurp(committed / name), Slurp(fresh / name))
        << "docs/rules/" << name << " is out of date: run `build/pgconflint docs docs/rules`";
  fs::remove_all(fresh);
}

}  // namespace
}  // namespace pgconflint
