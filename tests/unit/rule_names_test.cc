// The names rule conditions read: one table per kind, shared by rule-file
// validation and by evaluation (RuleEnv::Lookup).
#include "core/rules/rule_names.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "core/knowledge/catalog.h"
#include "core/model/effective.h"
#include "core/workspace/workspace.h"
#include "core/rules/profile.h"
#include "core/checks/rule_engine.h"

namespace pgconflint {
namespace {

const ParameterNames& Parameters() { return *RuntimeRuleFileOptions(false).parameters; }

std::string NameRefusal(const std::string& name) {
  std::string error;
  EXPECT_FALSE(CheckRuleName(name, Parameters(), &error)) << name;
  return error;
}

TEST(RuleNamesTest, NamesAreClassifiedByPrefix) {
  std::string_view rest;
  EXPECT_EQ(ClassifyName("work_mem", &rest), NameKind::kParameter);
  EXPECT_EQ(rest, "work_mem");
  EXPECT_EQ(ClassifyName("pg.major", &rest), NameKind::kPgMajor);
  EXPECT_EQ(ClassifyName("profile.ram", &rest), NameKind::kProfile);
  EXPECT_EQ(rest, "ram");
  EXPECT_EQ(ClassifyName("effective.wal_buffers", &rest), NameKind::kEffective);
  EXPECT_EQ(rest, "wal_buffers");
  EXPECT_EQ(ClassifyName("running.shared_buffers", &rest), NameKind::kRunning);
  EXPECT_EQ(ClassifyName("build.io_uring", &rest), NameKind::kBuild);
  EXPECT_EQ(rest, "io_uring");
}

TEST(RuleNamesTest, KnownNamesPassAndUnknownOnesGetASuggestion) {
  std::string error;
  for (const char* ok : {"work_mem", "Work_Mem", "reserved_connections", "pg.major", "profile.ram",
                         "profile.storage_safe_without_fsync", "effective.max_backends", "effective.work_mem",
                         "running.shared_buffers", "build.io_uring"})
    EXPECT_TRUE(CheckRuleName(ok, Parameters(), &error)) << ok << ": " << error;
  EXPECT_EQ(NameRefusal("fsnyc"), "unknown name \"fsnyc\" (did you mean \"fsync\"?)");
  EXPECT_EQ(NameRefusal("pg.majr"), "unknown name \"pg.majr\" (did you mean \"pg.major\"?)");
  EXPECT_EQ(NameRefusal("profile.rma"), "unknown profile fact \"profile.rma\" (did you mean \"profile.ram\"?)");
  EXPECT_EQ(NameRefusal("profile.memory"), "unknown profile fact \"profile.memory\"");
  EXPECT_EQ(NameRefusal("effective.wal_bufers"),
            "unknown derived value or parameter \"effective.wal_bufers\" (did you mean \"effective.wal_buffers\"?)");
  EXPECT_EQ(NameRefusal("running.wrok_mem"), "unknown parameter \"running.wrok_mem\" (did you mean \"running.work_mem\"?)");
  EXPECT_EQ(NameRefusal("build.io_urin"), "unknown build fact \"build.io_urin\" (did you mean \"build.io_uring\"?)");
  EXPECT_EQ(NameRefusal("sort_mem").rfind("unknown name \"sort_mem\"", 0), 0u) << "an old name is not a parameter";
}

TEST(RuleNamesTest, ListedParameterNamesIgnoreCaseAndOrder) {
  ListedParameterNames names({"Work_Mem", "fsync", "work_mem"});
  EXPECT_TRUE(names.Has("work_mem"));
  EXPECT_TRUE(names.Has("WORK_MEM"));
  EXPECT_FALSE(names.Has("work"));
  std::vector<std::string> all;
  names.ForEach([&](std::string_view n) { all.emplace_back(n); });
  EXPECT_EQ(all, (std::vector<std::string>{"fsync", "work_mem"}));
  std::string error;
  EXPECT_FALSE(CheckRuleName("wrok_mem", names, &error));
  EXPECT_EQ(error, "unknown name \"wrok_mem\" (did you mean \"work_mem\"?)");
}

Analysis LintMajor(int major, const std::string& text) {
  static const RuleSet rules;
  return LintText("postgresql.conf", text, *Catalog::ForMajor(major), rules, Profile());
}

// Evaluation reads profile facts through the same table.
TEST(RuleNamesTest, ProfileFactsAreOneTable) {
  auto facts = ProfileFacts();
  ASSERT_FALSE(facts.empty());
  for (size_t i = 0; i < facts.size(); ++i) {
    if (i) {
      EXPECT_LT(std::string_view(facts[i - 1].name), std::string_view(facts[i].name)) << "sorted by name";
    }
    EXPECT_EQ(FindProfileFact(facts[i].name), &facts[i]);
  }
  EXPECT_EQ(FindProfileFact("rma"), nullptr);
  // Validation's names (rule_names.cc) and evaluation's table (profile.cc) are the same list.
  std::vector<std::string> names(ProfileFactNames().begin(), ProfileFactNames().end());
  std::vector<std::string> evaluated;
  for (const ProfileFact& f : facts) evaluated.push_back(f.name);
  EXPECT_EQ(names, evaluated);
  Profile p;
  std::string error;
  ASSERT_TRUE(SetProfileFacts(&p, "ram=64GB,cpus=16,storage=nvme,workload=oltp,connections=300,os=linux,"
                                  "container=docker,io-uring=yes,storage-safe-without-fsync=no",
                              &error))
      << error;
  Analysis a = LintMajor(18, "");
  EffectiveConfig eff(a);
  RuleEnv env(eff, p, nullptr);
  for (const ProfileFact& f : facts) {
    bool known = false;
    ExprValue v = env.Lookup(std::string("profile.") + f.name, &known);
    EXPECT_TRUE(known) << f.name;
    EXPECT_EQ(v.Display(), f.value(p).Display()) << f.name;
  }
  bool known = true;
  // Each fact as the profile string set it (the loop above compares the
  // table with itself; these hold each entry to the field it reads).
  const std::pair<const char*, const char*> expected[] = {
      {"ram", "64GB"},       {"storage", "nvme"}, {"cpus", "16"},         {"workload", "oltp"},
      {"connections", "300"}, {"os", "linux"},     {"container", "docker"}, {"io_uring", "on"},
      {"storage_safe_without_fsync", "off"}};
  for (const auto& [name, want] : expected)
    EXPECT_EQ(env.Lookup(std::string("profile.") + name, &known).Display(), want) << name;
  EXPECT_TRUE(env.Lookup("profile.rma", &known).is_null());
  EXPECT_FALSE(known);
  const Profile none;
  EXPECT_TRUE(RuleEnv(eff, none, nullptr).Lookup("profile.cpus", &known).is_null()) << "absent: null";
}

// Every name EffectiveConfig::Derived answers is in the table, and every name
// of the table has a value in some major.
TEST(RuleNamesTest, DerivedValuesAreOneTable) {
  auto names = DerivedValueNames();
  EXPECT_TRUE(std::is_sorted(names.begin(), names.end(),
                             [](const char* a, const char* b) { return std::string_view(a) < std::string_view(b); }));
  std::set<std::string> seen;
  for (int major : Catalog::SupportedMajors()) {
    Analysis a = LintMajor(major, "shared_buffers = '1GB'\n");
    EffectiveConfig eff(a);
    std::vector<std::string> derived = eff.DerivedNames();
    for (const std::string& n : derived) {
      EXPECT_TRUE(IsDerivedValueName(n)) << n;
      EXPECT_TRUE(eff.Derived(n).has_value()) << n;
      seen.insert(n);
    }
    for (const Parameter& p : a.catalog->parameters()) {
      if (eff.Derived(p.name)) {
        EXPECT_NE(std::find(derived.begin(), derived.end(), p.name), derived.end()) << major << " " << p.name;
      }
    }
    // Only a major whose catalog has the parameter derives it.
    EXPECT_EQ(eff.Derived("vacuum_buffer_usage_limit").has_value(),
              a.catalog->Find("vacuum_buffer_usage_limit") != nullptr) << major;
  }
  EXPECT_EQ(seen.size(), names.size()) << "a table entry no major derives";
}

TEST(RuleNamesTest, BuildFactsFollowTheCatalog) {
  for (int major : Catalog::SupportedMajors()) {
    Analysis a = LintMajor(major, "");
    EffectiveConfig eff(a);
    const Profile none;  // named: the environment keeps a reference to it
    RuleEnv env(eff, none, nullptr);
    for (const BuildFact& f : BuildFacts()) {
      bool known = false;
      ExprValue v = env.Lookup(std::string("build.") + f.name, &known);
      EXPECT_TRUE(known);
      const Parameter* p = a.catalog->Find(f.parameter);
      auto has = [&](std::span<const char* const> values) {
        return std::any_of(values.begin(), values.end(), [&](const char* e) { return std::string_view(e) == f.value; });
      };
      const char* expected = p && has(p->enumvals) ? "on" : p && has(p->build_dependent_enumvals) ? "unknown" : "off";
      EXPECT_EQ(v.Display(), expected) << major;
    }
    bool known = true;
    env.Lookup("build.nothing", &known);
    EXPECT_FALSE(known);
  }
}

}  // namespace
}  // namespace pgconflint
