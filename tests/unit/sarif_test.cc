// The sarif format: rules, columns in code points (declared), fingerprints,
// related locations and fixes; the full validation against the multitool and
// the schema is tests/integration/test_ci_formats.py.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "report_fixture.h"

namespace pgconflint {
namespace {

using nlohmann::json;

TEST(SarifTest, ColumnsCountCodePointsAndSayWhich) {
  json j = json::parse(RenderReport("sarif", NonAsciiReport()));
  const json& run = j["runs"][0];
  EXPECT_EQ(j["version"], "2.1.0");
  EXPECT_EQ(run["columnKind"], "unicodeCodePoints");
  EXPECT_EQ(run["originalUriBaseIds"]["%SRCROOT%"]["uri"], "file:///repo/");
  bool found = false;
  for (const json& r : run["results"]) {
    if (r["ruleId"] != "PGC001") continue;
    found = true;
    const json& loc = r["locations"][0]["physicalLocation"];
    EXPECT_EQ(loc["artifactLocation"]["uri"], "pg/postgresql.conf");
    EXPECT_EQ(loc["artifactLocation"]["uriBaseId"], "%SRCROOT%");
    EXPECT_EQ(loc["region"]["startLine"], 3);
    EXPECT_EQ(loc["region"]["startColumn"], 28);
    EXPECT_EQ(loc["region"]["endColumn"], 33);  // "extra" is 5 characters
    EXPECT_EQ(r["partialFingerprints"]["pgconflint/v1"].get<std::string>().size(), 16u);
  }
  EXPECT_TRUE(found);
}

TEST(SarifTest, EveryRuleThatAppearsIsDescribedOnce) {
  json j = json::parse(RenderReport("sarif", NonAsciiReport()));
  const json& rules = j["runs"][0]["tool"]["driver"]["rules"];
  for (const json& r : j["runs"][0]["results"]) {
    const json& rule = rules[r["ruleIndex"].get<size_t>()];
    EXPECT_EQ(rule["id"], r["ruleId"]);
    for (const char* key : {"name", "shortDescription", "fullDescription", "help", "helpUri"})
      EXPECT_TRUE(rule.contains(key)) << key;
    EXPECT_TRUE(rule["help"].contains("markdown"));
  }
}

TEST(SarifTest, NotesAreRelatedLocationsAndSafeFixesAreFixes) {
  static const RuleSet rules;
  std::vector<Analysis> v;
  v.push_back(LintText("/repo/postgresql.conf", "work_mem = '4MB'\nwork_mem = '8MB'\nsort_mem = 1024\n",
                       *Catalog::ForMajor(18), rules, Profile(), "/repo"));
  json j = json::parse(RenderReport("sarif", v));
  int related = 0, fixes = 0;
  for (const json& r : j["runs"][0]["results"]) {
    if (r.contains("relatedLocations")) {
      // Where the parameter is set again: the next line (sort_mem is work_mem).
      ++related;
      int line = r["locations"][0]["physicalLocation"]["region"]["startLine"];
      EXPECT_EQ(r["relatedLocations"][0]["physicalLocation"]["region"]["startLine"], line + 1);
    }
    if (r.contains("fixes")) {
      ++fixes;
      const json& rep = r["fixes"][0]["artifactChanges"][0]["replacements"][0];
      EXPECT_TRUE(rep.contains("deletedRegion"));
      EXPECT_TRUE(rep["insertedContent"].contains("text"));
    }
  }
  EXPECT_EQ(related, 2);
  EXPECT_GE(fixes, 2);  // the dead duplicate line and the renamed sort_mem
}

TEST(SarifTest, AFileOutsideTheBaseIsAnAbsoluteUri) {
  json j = json::parse(RenderReport("sarif", NonAsciiReport(), "/elsewhere"));
  const json& a = j["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"];
  EXPECT_EQ(a["uri"], "file:///repo/pg/postgresql.conf");
  EXPECT_FALSE(a.contains("uriBaseId"));
}

TEST(SarifTest, VersionControlProvenanceOnlyWhenTheRunKnowsIt) {
  EXPECT_FALSE(json::parse(RenderReport("sarif", NonAsciiReport()))["runs"][0].contains("versionControlProvenance"));
  ReportOptions options;
  options.base_dir = "/repo";
  options.version_control = {"https://github.com/o/r", "0123abc", "refs/heads/main"};
  std::ostringstream out;
  FindReporter("sarif")->render(NonAsciiReport(), options, out);
  const json doc = json::parse(out.str());
  const json& v = doc["runs"][0]["versionControlProvenance"];
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0]["repositoryUri"], "https://github.com/o/r");
  EXPECT_EQ(v[0]["revisionId"], "0123abc");
  EXPECT_EQ(v[0]["branch"], "refs/heads/main");
  EXPECT_EQ(v[0]["mappedTo"]["uriBaseId"], "%SRCROOT%");
}

}  // namespace
}  // namespace pgconflint
