// PGC703 above the rule engine and the recommender: it quotes the range
// `recommend` gives for the profile's storage, stays silent where a storage
// rule already reported the line, and obeys recommendation-hints.
#include "core/conf/analyze.h"
#include "core/checks/recommendation_hints.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/knowledge/catalog.h"
#include "core/workspace/workspace.h"
#include "core/advice/recommend.h"
#include "test_support.h"

namespace pgconflint {
namespace {

using namespace test;

Profile WithStorage(const char* name) {
  Profile p;
  p.storage = Storage::Named(name);
  EXPECT_TRUE(p.storage.has_value()) << name;
  return p;
}

// The PGC703 findings of an analysis.
// Pointers into `a`: it must outlive them (a temporary is refused).
std::vector<const Diagnostic*> Hints(Analysis&&) = delete;
std::vector<const Diagnostic*> Hints(const Analysis& a) {
  std::vector<const Diagnostic*> out;
  for (const Diagnostic& d : a.diagnostics)
    if (std::string(d.rule->code) == "PGC703") out.push_back(&d);
  return out;
}

size_t HintCount(const Analysis& a) { return Hints(a).size(); }

// `conf` analysed for 18, then the rules and the hints (on or off).
Analysis CheckHints(const std::string& conf, const Profile& p, bool hints) {
  AnalyzeOptions ao;
  ao.catalog = Catalog::ForMajor(18);
  Analysis a = AnalyzeText("postgresql.conf", conf, ao);
  EngineOptions eo;
  eo.rules = &TheRuleSet();
  eo.profile = &p;
  eo.recommendation_hints = hints;
  RunRules(eo, &a);
  AddRecommendationHints(eo, &a);
  return a;
}

TEST(RecommendationHintsTest, QuotesTheRangeForTheProfilesStorage) {
  Profile p = WithStorage("nvme");
  p.ram_bytes = 16.0 * 1024 * 1024 * 1024;
  p.cpus = 8;
  Recommendation r;
  std::string error;
  ASSERT_TRUE(Recommend(p, *Catalog::ForMajor(18), &r, &error)) << error;
  const Cell* c = RecommendedCell(r, "effective_io_concurrency");
  ASSERT_NE(c, nullptr);
  Analysis a = CheckHints("effective_io_concurrency = 8\n", WithStorage("nvme"), true);
  std::vector<const Diagnostic*> h = Hints(a);
  ASSERT_EQ(h.size(), 1u);
  EXPECT_EQ(h[0]->parameter, "effective_io_concurrency");
  EXPECT_EQ(h[0]->message, "effective_io_concurrency = 8 is outside the range recommended for nvme storage (" + c->min +
                               " .. " + c->max + ", start at " + c->value + "): " + c->why);
  EXPECT_NE(h[0]->help.find("recommend --storage nvme"), std::string::npos);
  EXPECT_EQ(h[0]->file, 0);
  EXPECT_EQ(h[0]->range.begin, 0u);
  // Inside the range: nothing.
  EXPECT_TRUE(HintCount(CheckHints("effective_io_concurrency = " + c->value + "\n", WithStorage("nvme"), true)) == 0);
}

TEST(RecommendationHintsTest, SilentWithoutStorageOrWhenTurnedOff) {
  EXPECT_TRUE(HintCount(CheckHints("effective_io_concurrency = 8\n", Profile(), true)) == 0);
  EXPECT_TRUE(HintCount(CheckHints("effective_io_concurrency = 8\n", WithStorage("nvme"), false)) == 0);
}

// random_page_cost = 4 on NVMe is random-page-cost-for-storage's finding:
// the hint does not say it again.
TEST(RecommendationHintsTest, SilentWhereAStorageRuleReportedTheLine) {
  Analysis a = CheckHints("random_page_cost = 4\n", WithStorage("nvme"), true);
  bool storage_rule = false;
  for (const Diagnostic& d : a.diagnostics)
    storage_rule |= std::string(d.rule->category) == "storage" && std::string(d.rule->code) != "PGC703";
  EXPECT_TRUE(storage_rule);
  EXPECT_TRUE(Hints(a).empty());
}

// io_workers depends on the CPUs: without them no hint about it.
TEST(RecommendationHintsTest, IoWorkersOnlyWithKnownCpus) {
  EXPECT_TRUE(HintCount(CheckHints("io_workers = 32\n", WithStorage("nvme"), true)) == 0);
  Profile p = WithStorage("nvme");
  p.cpus = 4;
  const Analysis checked = CheckHints("io_workers = 32\n", p, true);
  std::vector<const Diagnostic*> h = Hints(checked);
  ASSERT_EQ(h.size(), 1u);
  EXPECT_EQ(h[0]->parameter, "io_workers");
}

// The check pipeline runs it: LintText (rule examples, editors) and the Workspace.
TEST(RecommendationHintsTest, RunsInTheCheckPipeline) {
  Analysis a = LintText("postgresql.conf", "effective_io_concurrency = 8\n", *Catalog::ForMajor(18), TheRuleSet(),
                        WithStorage("nvme"));
  EXPECT_EQ(Hints(a).size(), 1u);
}

}  // namespace
}  // namespace pgconflint
