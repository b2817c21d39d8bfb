// docs/rules/ is generated from rules/*.toml (`pgconflint docs docs/rules`);
// this test regenerates it and fails when the committed pages are stale.
#include "report/docs.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace pgconflint {
namespace {

namespace fs = std::filesystem;

std::string Slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

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

TEST(DocsTest, AtomicWriteReplacesWholeFiles) {
  fs::path dir = fs::temp_directory_path() / ("pgconflint-atomic-" + std::to_string(getpid()));
  fs::create_directories(dir);
  std::string error;
  ASSERT_TRUE(WriteFileAtomically((dir / "f").string(), "first", &error)) << error;
  ASSERT_TRUE(WriteFileAtomically((dir / "f").string(), "second", &error)) << error;
  EXPECT_EQ(Slurp(dir / "f"), "second");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1) << "no temp file left";
  EXPECT_FALSE(WriteFileAtomically((dir / "missing" / "f").string(), "x", &error));
  EXPECT_NE(error, "");
  fs::remove_all(dir);
}

}  // namespace
}  // namespace pgconflint
