// The rdjson and rdjsonl formats: reviewdog's required fields, columns in
// UTF-8 bytes, suggestions from safe fixes.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sstream>

#include "report_fixture.h"

namespace pgconflint {
namespace {

using nlohmann::json;

TEST(RdjsonTest, ColumnsCountBytes) {
  json doc = json::parse(RenderReport("rdjson", NonAsciiReport()));
  EXPECT_EQ(doc["source"]["name"], "pgconflint");
  bool found = false;
  for (const json& d : doc["diagnostics"]) {
    EXPECT_TRUE(d["message"].is_string());
    EXPECT_EQ(d["location"]["path"], "pg/postgresql.conf");
    EXPECT_TRUE(d["location"]["range"].contains("start"));
    if (d["code"]["value"] != "PGC001") continue;
    found = true;
    EXPECT_EQ(d["severity"], "ERROR");
    EXPECT_EQ(d["location"]["range"]["start"]["line"], 3);
    EXPECT_EQ(d["location"]["range"]["start"]["column"], 33);  // é é (2 bytes each) and 🚀 (4) before it
    EXPECT_EQ(d["location"]["range"]["end"]["column"], 38);
  }
  EXPECT_TRUE(found);
}

TEST(RdjsonTest, SafeFixesAreSuggestions) {
  static const RuleSet rules;
  std::vector<Analysis> v;
  v.push_back(LintText("/repo/postgresql.conf", "cluster_name = 'é'\nsort_mem = 1024\n", *Catalog::ForMajor(18), rules,
                       Profile(), "/repo"));
  json doc = json::parse(RenderReport("rdjson", v));
  bool renamed = false;
  for (const json& d : doc["diagnostics"])
    if (d.contains("suggestions")) {
      const json& s = d["suggestions"][0];
      renamed |= s["text"] == "work_mem" && s["range"]["start"]["line"] == 2 && s["range"]["start"]["column"] == 1 &&
                 s["range"]["end"]["column"] == 9;
    }
  EXPECT_TRUE(renamed) << doc.dump(2);
}

TEST(RdjsonTest, LinesFormIsOneDiagnosticPerLine) {
  std::vector<Analysis> report = NonAsciiReport();
  json doc = json::parse(RenderReport("rdjson", report));
  std::istringstream lines(RenderReport("rdjsonl", report));
  std::string line;
  size_t n = 0;
  while (std::getline(lines, line)) EXPECT_EQ(json::parse(line), doc["diagnostics"][n++]);
  EXPECT_EQ(n, doc["diagnostics"].size());
}

}  // namespace
}  // namespace pgconflint
