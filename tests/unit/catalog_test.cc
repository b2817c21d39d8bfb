// The catalog lookups: case-insensitive names (ASCII folding only, as
// guc_name_compare), old names, spelling suggestions, the majors a name exists
// in, and the generated hash table. Expected facts are read from
// knowledge/pg<major>.json, the harvest the catalogs are generated from.
// Suggest stays that of a plain edit distance over every parameter while
// the filters that make it fast rule candidates out.
#include "core/knowledge/catalog.h"

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

namespace pgconflint {
namespace {

// knowledge/pg<major>.json, parsed once.
const nlohmann::json& Knowledge(int major) {
  static std::map<int, nlohmann::json> cache;
  auto it = cache.find(major);
  if (it == cache.end()) {
    std::ifstream in(std::string(PGC_SOURCE_DIR) + "/knowledge/pg" + std::to_string(major) + ".json");
    it = cache.emplace(major, nlohmann::json::parse(in)).first;
  }
  return it->second;
}

// The majors whose harvest lists `name` (exact pg_settings spelling).
std::vector<int> MajorsInKnowledge(const std::string& name) {
  std::vector<int> out;
  for (int m : Catalog::SupportedMajors())
    for (const auto& p : Knowledge(m)["parameters"])
      if (p["name"] == name) out.push_back(m);
  return out;
}

std::string AsciiUpper(std::string s) {
  for (char& c : s)
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  return s;
}

TEST(CatalogTest, EveryMajorOfTheKnowledgeHasACatalog) {
  std::vector<int> majors(Catalog::SupportedMajors().begin(), Catalog::SupportedMajors().end());
  ASSERT_FALSE(majors.empty());
  for (int m : majors) {
    const Catalog* c = Catalog::ForMajor(m);
    ASSERT_NE(c, nullptr) << m;
    EXPECT_EQ(c->major(), m);
    EXPECT_EQ(Knowledge(m)["major"].get<int>(), m);
    EXPECT_EQ(c->parameters().size(), Knowledge(m)["parameters"].size()) << m;
  }
  EXPECT_EQ(Catalog::ForMajor(13), nullptr);
  EXPECT_EQ(Catalog::ForMajor(0), nullptr);
  EXPECT_NE(Catalog::ForMajor(Catalog::DefaultMajor()), nullptr);
}

// The generated open-addressing table must hold every parameter, under any
// ASCII spelling of its name.
TEST(CatalogTest, HashTableFindsEveryParameterOfEveryMajor) {
  for (int m : Catalog::SupportedMajors()) {
    const Catalog& c = *Catalog::ForMajor(m);
    for (const Parameter& p : c.parameters()) {
      EXPECT_EQ(c.Find(p.name), &p) << m << " " << p.name;
      EXPECT_EQ(c.Find(AsciiLower(p.name)), &p) << m << " " << p.name;
      EXPECT_EQ(c.Find(AsciiUpper(p.name)), &p) << m << " " << p.name;
    }
    // And every name of the harvest, spelt as pg_settings spells it.
    for (const auto& j : Knowledge(m)["parameters"]) {
      const Parameter* p = c.Find(j["name"].get<std::string>());
      ASSERT_NE(p, nullptr) << m << " " << j["name"];
      EXPECT_EQ(std::string(p->name), j["name"].get<std::string>());
    }
  }
}

TEST(CatalogTest, FindFoldsAsciiCaseOnly) {
  const Catalog& c = *Catalog::ForMajor(18);
  // DateStyle is spelt with capitals in pg_settings.
  const Parameter* ds = c.Find("datestyle");
  ASSERT_NE(ds, nullptr);
  EXPECT_EQ(std::string(ds->name), "DateStyle");
  EXPECT_EQ(c.Find("DATESTYLE"), ds);
  EXPECT_EQ(c.Find("dAtEsTyLe"), ds);
  const Parameter* wm = c.Find("work_mem");
  ASSERT_NE(wm, nullptr);
  EXPECT_EQ(c.Find("Work_Mem"), wm);
  // Unicode case folding would match these; guc_name_compare does not.
  EXPECT_EQ(c.Find("wor\u212A_mem"), nullptr) << "KELVIN SIGN folds to k in Unicode only";
  EXPECT_EQ(c.Find("\u017Fhared_buffers"), nullptr) << "LONG S folds to s in Unicode only";
  EXPECT_EQ(c.Find("l\u0130sten_addresses"), nullptr) << "I WITH DOT is not ASCII";
  // Near misses are not found.
  EXPECT_EQ(c.Find(""), nullptr);
  EXPECT_EQ(c.Find("work-mem"), nullptr);
  EXPECT_EQ(c.Find("work_mem "), nullptr);
  EXPECT_EQ(c.Find(std::string("work_mem\0", 9)), nullptr);
  EXPECT_EQ(c.Find("work_me"), nullptr);
  EXPECT_EQ(c.Find("work_mem_"), nullptr);
}

TEST(CatalogTest, AsciiLowerLeavesOtherBytesAlone) {
  EXPECT_EQ(AsciiLower("DateStyle"), "datestyle");
  EXPECT_EQ(AsciiLower("A\u212A\u0130Z"), "a\u212A\u0130z");
  EXPECT_EQ(AsciiLower("@[`{"), "@[`{") << "the neighbours of A-Z and a-z";
}

TEST(CatalogTest, AliasesAreTheHarvestedOldNames) {
  for (int m : Catalog::SupportedMajors()) {
    const Catalog& c = *Catalog::ForMajor(m);
    const nlohmann::json& aliases = Knowledge(m)["aliases"];
    EXPECT_EQ(c.aliases().size(), aliases.size()) << m;
    for (const auto& [old_name, new_name] : aliases.items()) {
      const char* target = c.AliasTarget(old_name);
      ASSERT_NE(target, nullptr) << m << " " << old_name;
      EXPECT_EQ(std::string(target), new_name.get<std::string>()) << m << " " << old_name;
      target = c.AliasTarget(AsciiUpper(old_name));
      ASSERT_NE(target, nullptr) << m << " " << old_name << " in capitals";
      EXPECT_EQ(std::string(target), new_name.get<std::string>());
      EXPECT_NE(c.Find(new_name.get<std::string>()), nullptr) << m << ": alias target is a parameter";
      EXPECT_EQ(c.Find(old_name), nullptr) << m << ": an old name is no parameter";
    }
    EXPECT_EQ(c.AliasTarget("work_mem"), nullptr) << "a current name is no alias";
    EXPECT_EQ(c.AliasTarget(""), nullptr);
  }
}

// A name one edit away from a real one, made from the catalog.
std::string DropOneLetter(const std::string& name) { return name.substr(0, 3) + name.substr(4); }
std::string SwapTwoLetters(std::string name) {
  std::swap(name[1], name[2]);
  return name;
}

TEST(CatalogTest, SuggestFindsTyposAndTranspositions) {
  const Catalog& c = *Catalog::ForMajor(18);
  for (const char* name : {"shared_buffers", "maintenance_work_mem", "effective_cache_size", "checkpoint_timeout"}) {
    ASSERT_NE(c.Find(name), nullptr) << name;
    EXPECT_EQ(c.Suggest(DropOneLetter(name)), std::vector<std::string>{name}) << DropOneLetter(name);
    EXPECT_EQ(c.Suggest(SwapTwoLetters(name)), std::vector<std::string>{name}) << SwapTwoLetters(name);
    EXPECT_EQ(c.Suggest(AsciiUpper(DropOneLetter(name))), std::vector<std::string>{name})
        << "distance folds case";
  }
}

TEST(CatalogTest, SuggestGivesNothingForAFarName) {
  const Catalog& c = *Catalog::ForMajor(18);
  EXPECT_TRUE(c.Suggest("zzzzzzzzzzzzzzzz", 10).empty());
  EXPECT_TRUE(c.Suggest("qqq", 10).empty());
  // More edits than a third of the name's length: no suggestion.
  EXPECT_TRUE(c.Suggest("xxxxxx_buffers", 10).empty());
  EXPECT_EQ(c.Suggest("shxxxx_buffers", 10), std::vector<std::string>{"shared_buffers"}) << "four edits of 14: within reach";
}

TEST(CatalogTest, SuggestHonoursTheLimitClosestFirst) {
  const Catalog& c = *Catalog::ForMajor(18);
  // recovery_target_xid, _lsn, _name, _time, ...: many names are close to this one.
  const std::string probe = "recovery_target_xxxx";
  std::vector<std::string> many = c.Suggest(probe, 100);
  ASSERT_GE(many.size(), 3u) << "the test needs a name with several neighbours";
  EXPECT_EQ(c.Suggest(probe).size(), 1u) << "the default limit is one";
  std::vector<std::string> two = c.Suggest(probe, 2);
  ASSERT_EQ(two.size(), 2u);
  EXPECT_EQ(two[0], many[0]);
  EXPECT_EQ(two[1], many[1]);
  EXPECT_TRUE(c.Suggest(probe, 0).empty());
  for (const std::string& s : many) {
    EXPECT_NE(c.Find(s), nullptr) << s;
    EXPECT_EQ(s.rfind("recovery_target", 0), 0u) << s << " is not within reach of " << probe;
  }
  // A known name is its own closest match.
  EXPECT_EQ(c.Suggest("work_mem", 3).front(), "work_mem");
}

TEST(CatalogTest, SuggestNeverOffersAHiddenParameter) {
  // Parameters absent from pg_settings cannot be set by a user; a suggestion
  // of one would be a wrong hint.
  for (int m : Catalog::SupportedMajors()) {
    const Catalog& c = *Catalog::ForMajor(m);
    for (const Parameter& p : c.parameters()) {
      if (p.in_pg_settings) continue;
      for (const std::string& s : c.Suggest(p.name, 100)) EXPECT_NE(s, p.name) << m;
    }
  }
}

TEST(CatalogTest, MajorsWithParameterFollowsTheHarvest) {
  EXPECT_EQ(MajorsWithParameter("io_method"), MajorsInKnowledge("io_method"));
  EXPECT_EQ(MajorsInKnowledge("io_method"), std::vector<int>{18}) << "the harvest says io_method is new in 18";
  EXPECT_EQ(MajorsWithParameter("IO_METHOD"), std::vector<int>{18}) << "any spelling";
  EXPECT_TRUE(MajorsWithParameter("no_such_parameter").empty());
  // Every name that 14 has and 18 has not, taken from the catalogs.
  const Catalog& c14 = *Catalog::ForMajor(14);
  const Catalog& c18 = *Catalog::ForMajor(18);
  int removed = 0;
  for (const Parameter& p : c14.parameters()) {
    if (c18.Find(p.name)) continue;
    ++removed;
    std::vector<int> majors = MajorsWithParameter(p.name);
    EXPECT_EQ(majors, MajorsInKnowledge(p.name)) << p.name;
    ASSERT_FALSE(majors.empty()) << p.name;
    EXPECT_EQ(majors.front(), 14) << p.name;
    EXPECT_NE(majors.back(), 18) << p.name;
  }
  EXPECT_GT(removed, 0) << "the harvest has names removed after 14";
}

// Parameter::majors (generated from every harvest) and MajorsWithParameter
// (every catalog's Find) must agree for every name.
TEST(CatalogTest, MajorsBitsAgreeWithTheCatalogs) {
  for (int m : Catalog::SupportedMajors())
    for (const Parameter& p : Catalog::ForMajor(m)->parameters()) {
      EXPECT_EQ(MajorsOf(p), MajorsWithParameter(p.name)) << m << " " << p.name;
      std::vector<int> of = MajorsOf(p);
      EXPECT_NE(std::find(of.begin(), of.end(), m), of.end()) << m << " " << p.name;
    }
}

// knowledge/majors.json is the list: the catalogs, their order and the default.
TEST(CatalogTest, SupportedMajorsAreThoseOfMajorsJson) {
  std::ifstream in(std::string(PGC_SOURCE_DIR) + "/knowledge/majors.json");
  const nlohmann::json doc = nlohmann::json::parse(in);
  std::vector<int> listed;
  for (const auto& e : doc["majors"]) listed.push_back(e["major"].get<int>());
  std::span<const int> supported = Catalog::SupportedMajors();
  EXPECT_EQ(std::vector<int>(supported.begin(), supported.end()), listed);
  EXPECT_EQ(Catalog::DefaultMajor(), doc["default"].get<int>());
  EXPECT_EQ(SupportedMajorsText(), std::to_string(listed.front()) + ".." + std::to_string(listed.back()));
}

// The definition: Levenshtein distance (ASCII case folded) to every
// parameter of pg_settings, within a third of the name's length (at least 2),
// closest first, ties in catalog order.
std::vector<std::string> Reference(const Catalog& cat, const std::string& name, size_t limit) {
  auto fold = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
  auto distance = [&](std::string_view a, std::string_view b) {
    std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
      cur[0] = i;
      for (size_t j = 1; j <= b.size(); ++j)
        cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (fold(a[i - 1]) == fold(b[j - 1]) ? 0 : 1)});
      std::swap(prev, cur);
    }
    return prev[b.size()];
  };
  size_t budget = std::max<size_t>(2, name.size() / 3);
  std::vector<std::pair<size_t, std::string>> scored;
  for (const Parameter& p : cat.parameters())
    if (p.in_pg_settings)
      if (size_t d = distance(name, p.name); d <= budget) scored.emplace_back(d, p.name);
  std::stable_sort(scored.begin(), scored.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::string> out;
  for (size_t i = 0; i < scored.size() && i < limit; ++i) out.push_back(scored[i].second);
  return out;
}

TEST(CatalogTest, SuggestsTheClosestParameter) {
  const Catalog& cat = *Catalog::ForMajor(18);
  EXPECT_EQ(cat.Suggest("wrok_mem"), std::vector<std::string>{"work_mem"});
  EXPECT_EQ(cat.Suggest("SHARED_BUFERS"), std::vector<std::string>{"shared_buffers"});
  EXPECT_TRUE(cat.Suggest("completely_unrelated_name").empty());
  EXPECT_TRUE(cat.Suggest(std::string(1 << 20, 'a')).empty());
  // Within 2 edits of nothing: no name is that short.
  EXPECT_TRUE(cat.Suggest("").empty());
}

// Misspellings of real names (a letter dropped, doubled, replaced, two
// swapped) and random names: the same answer as the definition.
RC_GTEST_PROP(CatalogProperty, SuggestAgreesWithThePlainDistance, ()) {
  const Catalog& cat = *Catalog::ForMajor(*rc::gen::inRange(14, 19));
  std::string name;
  if (*rc::gen::arbitrary<bool>()) {
    std::span<const Parameter> params = cat.parameters();
    name = params[*rc::gen::inRange<size_t>(0, params.size())].name;
    int edits = *rc::gen::inRange(0, 5);
    for (int i = 0; i < edits && !name.empty(); ++i) {
      size_t at = *rc::gen::inRange<size_t>(0, name.size());
      switch (*rc::gen::inRange(0, 4)) {
        case 0: name.erase(at, 1); break;
        case 1: name.insert(at, 1, name[at]); break;
        case 2: name[at] = *rc::gen::elementOf(std::string("abcdefgiklmnoprstuwxyz_ABCXYZ")); break;
        default: if (at + 1 < name.size()) std::swap(name[at], name[at + 1]); break;
      }
    }
  } else {
    name = *rc::gen::container<std::string>(rc::gen::elementOf(std::string("abcdefghimnorstuw_.AEZ")));
  }
  size_t limit = *rc::gen::inRange<size_t>(1, 4);
  RC_ASSERT(cat.Suggest(name, limit) == Reference(cat, name, limit));
}

}  // namespace
}  // namespace pgconflint
