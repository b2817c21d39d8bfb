// Helpers the unit tests share: sizes in bytes, the catalog of 18, the codes
// of an analysis, a file's bytes, a machine profile, the workloads, the
// built-in rules and whether a rule's example fires it. One definition each: the test files are compiled in unity
// batches, where a helper of the same name in two files would clash.
#ifndef PGCONFLINT_TESTS_UNIT_TEST_SUPPORT_H_
#define PGCONFLINT_TESTS_UNIT_TEST_SUPPORT_H_

#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/model/analysis.h"
#include "core/knowledge/catalog.h"
#include "core/rules/profile.h"
#include "core/rules/rules.h"
#include "core/workspace/workspace.h"

namespace pgconflint::test {

inline constexpr double kKB = 1024.0;
inline constexpr double kMB = 1024.0 * kKB;
inline constexpr double kGB = 1024.0 * kMB;

inline const Catalog& Pg18() { return *Catalog::ForMajor(18); }

/// Parameter `name` of PostgreSQL 18 (a test failure when it has none).
inline const Parameter& P18(const char* name) {
  const Parameter* p = Pg18().Find(name);
  EXPECT_NE(p, nullptr) << name;
  return *p;
}

/// The rule codes of `a`'s diagnostics, in their order.
inline std::vector<std::string> Codes(const Analysis& a) {
  std::vector<std::string> out;
  for (const Diagnostic& d : a.diagnostics) out.push_back(d.rule->code);
  return out;
}

/// The bytes of `p` ("" when it cannot be read).
inline std::string Slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline Profile MakeProfile(double ram_gb, int cpus) {
  Profile p;
  p.ram_bytes = ram_gb * kGB;
  p.cpus = cpus;
  return p;
}

inline const std::vector<Workload>& AllWorkloads() {
  static const std::vector<Workload> all = {Workload::kOltp, Workload::kOlap, Workload::kMixed, Workload::kWeb,
                                            Workload::kDesktop};
  return all;
}

/// The built-in rules, loaded once.
inline const RuleSet& TheRuleSet() {
  static const RuleSet rules;
  return rules;
}

/// Whether `text`, linted as `rule`'s examples are (LintExample: as its
/// example_kind says, with its example profile, in an empty temp directory so
/// that relative includes resolve to files that do not exist), gets a finding
/// of `rule`. Under `major`; 0: the rule's example_pg_version, else the default.
inline bool ExampleFires(const RuleInfo& rule, const std::string& text, int major = 0) {
  Profile profile;
  std::string error;
  EXPECT_TRUE(SetProfileFacts(&profile, rule.example_profile, &error)) << rule.code << ": " << error;
  RuleInfo as = rule;
  if (major) as.example_pg_version = major;
  char dir[] = "/tmp/pgconflint-example-XXXXXX";
  if (!mkdtemp(dir)) return false;
  Analysis a = LintExample(as, text, TheRuleSet(), dir);
  rmdir(dir);
  EXPECT_EQ(a.failure, Analysis::Failure::kNone) << rule.code << ": " << a.failure_message;
  for (const Diagnostic& d : a.diagnostics)
    if (d.rule && std::string_view(d.rule->code) == rule.code) return true;
  return false;
}

}  // namespace pgconflint::test

#endif  // PGCONFLINT_TESTS_UNIT_TEST_SUPPORT_H_
