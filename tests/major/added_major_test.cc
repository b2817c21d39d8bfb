// A PostgreSQL major is added by data alone: knowledge/majors.json and the
// knowledge files it lists. This binary, and the pgconflint_added_major
// executable it runs, are pgconflint's libraries linked against the knowledge
// of a directory whose majors.json lists one more major, PGC_ADDED_MAJOR: a
// copy of the last harvested one (tests/major/fake_major.py). No code names
// it; these tests check that the catalog, every rule that covers it and the
// command line take it as they take the others.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "core/knowledge/catalog.h"
#include "core/knowledge/extension_catalog.h"
#include "core/rules/rules.h"
#include "core/knowledge/sql_knowledge.h"
#include "test_support.h"

namespace pgconflint {
namespace {

constexpr int kAdded = PGC_ADDED_MAJOR;

// Runs the pgconflint built with this knowledge; (exit status, stdout and stderr).
std::pair<int, std::string> Pgconflint(const std::string& args) {
  std::string out;
  FILE* p = popen((std::string(PGC_ADDED_MAJOR_BINARY) + " " + args + " 2>&1").c_str(), "r");
  if (!p) return {-1, out};
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  int status = pclose(p);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

TEST(AddedMajorTest, IsSupportedWithItsKnowledge) {
  std::span<const int> majors = Catalog::SupportedMajors();
  ASSERT_FALSE(majors.empty());
  EXPECT_EQ(majors.back(), kAdded);
  const Catalog* c = Catalog::ForMajor(kAdded);
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->major(), kAdded);
  EXPECT_EQ(std::string(c->server_version()), std::to_string(kAdded) + ".0");
  EXPECT_NE(Catalog::DefaultMajor(), kAdded) << "the default stays that of knowledge/majors.json";
  EXPECT_NE(ExtensionCatalog::ForMajor(kAdded), nullptr);
  EXPECT_NE(SqlFacts::ForMajor(kAdded), nullptr);
  EXPECT_EQ(SupportedMajorsText(), std::to_string(majors.front()) + ".." + std::to_string(kAdded));
  // Parameter::majors has a bit for it, whatever the first major is.
  const Parameter* work_mem = c->Find("work_mem");
  ASSERT_NE(work_mem, nullptr);
  EXPECT_EQ(MajorsOf(*work_mem), std::vector<int>(majors.begin(), majors.end()));
}

// The examples of every rule whose versions cover the added major, linted
// under it. Examples written for a major of their own (example_pg_version:
// PGC102's io_method is unknown to 17, not to 18 nor to its copy) are linted
// under that major, with the added one in the catalogs.
TEST(AddedMajorTest, EveryRuleThatCoversItHasItsExamplesRight) {
  int covered = 0;
  for (const RuleInfo& r : BuiltinRules()) {
    if (!r.versions.Contains(kAdded)) continue;
    const int major = r.example_pg_version ? r.example_pg_version : kAdded;
    covered += major == kAdded;
    EXPECT_TRUE(test::ExampleFires(r, r.bad, major)) << r.code << " " << r.name << ": bad example does not fire";
    EXPECT_FALSE(test::ExampleFires(r, r.good, major)) << r.code << " " << r.name << ": good example fires";
  }
  EXPECT_GT(covered, 0);
}

TEST(AddedMajorTest, CommandLineTakesIt) {
  const std::string added = std::to_string(kAdded);
  auto [rc, out] = Pgconflint("params --pg-version " + added + " work_mem");
  EXPECT_EQ(rc, 0) << out;
  EXPECT_EQ(out.rfind("work_mem (integer, unit kB, context user)", 0), 0u) << out;
  EXPECT_NE(out.find(" " + added + "\n"), std::string::npos) << "majors line: " << out;
  // A major nobody supports: the messages list the supported ones, this one too.
  std::tie(rc, out) = Pgconflint("params --pg-version 99 work_mem");
  EXPECT_EQ(rc, 2) << out;
  EXPECT_NE(out.find(", " + added + ")"), std::string::npos) << out;
  std::tie(rc, out) = Pgconflint("params --help");
  EXPECT_NE(out.find("-" + added + ")"), std::string::npos) << out;
  // The listing the test suites read (tests/support/supported.py): the added major last,
  // the default unchanged.
  std::tie(rc, out) = Pgconflint("params --supported --format json");
  EXPECT_EQ(rc, 0) << out;
  EXPECT_NE(out.find("    " + added + "\n  ],\n  \"default_major\": " + std::to_string(Catalog::DefaultMajor())),
            std::string::npos)
      << out;
}

}  // namespace
}  // namespace pgconflint
