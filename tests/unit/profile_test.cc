// Profile facts from flags and .pgconflint.toml: sizes need a memory unit of
// postgresql.conf (case-sensitive), and no fact takes NaN or infinity.
#include "core/rules/profile.h"

#include <gtest/gtest.h>

#include <string>

namespace pgconflint {
namespace {

std::string ProfileRefusal(const std::string& key, const std::string& value) {
  Profile p;
  std::string error;
  EXPECT_FALSE(SetProfileFact(&p, key, value, &error)) << key << " = " << value;
  return error;
}

TEST(ProfileTest, RamTakesASizeWithAUnit) {
  Profile p;
  std::string error;
  ASSERT_TRUE(SetProfileFact(&p, "ram", "64GB", &error)) << error;
  EXPECT_EQ(*p.ram_bytes, 64.0 * 1024 * 1024 * 1024);
  ASSERT_TRUE(SetProfileFact(&p, "ram", "1.5TB", &error)) << error;
  EXPECT_EQ(*p.ram_bytes, 1.5 * 1024 * 1024 * 1024 * 1024);
  ASSERT_TRUE(SetProfileFact(&p, "ram", "512MB", &error)) << error;
  EXPECT_EQ(*p.ram_bytes, 512.0 * 1024 * 1024);
}

TEST(ProfileTest, RamWithoutAUnitSaysWhichUnitsWork) {
  EXPECT_EQ(ProfileRefusal("ram", "16"),
            "invalid ram \"16\": needs a unit: B, kB, MB, GB or TB (case-sensitive, as in postgresql.conf)");
  EXPECT_EQ(ProfileRefusal("ram", "16gb"),
            "invalid ram \"16gb\": unknown unit \"gb\"; valid units are B, kB, MB, GB or TB (case-sensitive, as in "
            "postgresql.conf)");
  EXPECT_NE(ProfileRefusal("ram", "16G").find("unknown unit \"G\""), std::string::npos);
  EXPECT_NE(ProfileRefusal("ram", "4min").find("not a memory unit"), std::string::npos);
}

TEST(ProfileTest, RamRefusesNonFiniteAndNonPositive) {
  EXPECT_EQ(ProfileRefusal("ram", "nan"), "invalid ram \"nan\": not a number; expected a size such as 64GB");
  EXPECT_EQ(ProfileRefusal("ram", "inf"), "invalid ram \"inf\": not a number; expected a size such as 64GB");
  EXPECT_EQ(ProfileRefusal("ram", "1e400GB"), "invalid ram \"1e400GB\": number too large");
  EXPECT_EQ(ProfileRefusal("ram", "1e300TB"), "invalid ram \"1e300TB\": number too large");
  EXPECT_EQ(ProfileRefusal("ram", "0GB"), "invalid ram \"0GB\": expected a positive size such as 64GB");
  EXPECT_EQ(ProfileRefusal("ram", "-4GB"), "invalid ram \"-4GB\": expected a positive size such as 64GB");
  EXPECT_EQ(ProfileRefusal("ram", ""), "invalid ram \"\": not a number; expected a size such as 64GB");
}

// Issue 28: a finite size beyond what a 64-bit byte count holds is refused as
// overflowing (the README promises it), 2^63 bytes itself is not.
TEST(ProfileTest, RamBeyondA64BitByteCountIsRefused) {
  EXPECT_EQ(ProfileRefusal("ram", "1e30GB"),
            "invalid ram \"1e30GB\": larger than 8388608TB (2^63 bytes), the most a 64-bit byte count holds");
  EXPECT_NE(ProfileRefusal("data-size", "8388609TB").find("2^63 bytes"), std::string::npos);
  Profile p;
  std::string error;
  ASSERT_TRUE(SetProfileFact(&p, "ram", "8388608TB", &error)) << error;
  EXPECT_EQ(*p.ram_bytes, 0x1p63);
}

// CPUs are whole: a fraction says why and what to give instead.
TEST(ProfileTest, CpusAreWholeAndAFractionSaysWhy) {
  EXPECT_EQ(ProfileRefusal("cpus", "4.5"),
            "invalid cpus \"4.5\": CPUs are whole (parallel and I/O workers are processes): for a CPU quota of 4.5 "
            "give the whole CPUs it holds, --cpus 4");
  EXPECT_NE(ProfileRefusal("cpus", "0.5").find("--cpus 1"), std::string::npos);
  for (const char* v : {"", "abc", "0", "-2", "4x", "100001", "99999999999999999999"})
    EXPECT_EQ(ProfileRefusal("cpus", v),
              std::string("invalid cpus \"") + v + "\" (expected a whole number of CPUs from 1 to 100000)")
        << v;
  Profile p;
  std::string error;
  ASSERT_TRUE(SetProfileFact(&p, "cpus", "4", &error)) << error;
  EXPECT_EQ(*p.cpus, 4);
}

// Without the knobs, the workload's assumptions (knowledge/storage.toml), and
// without a workload 1 node and 10%: the one source memory-overcommit and the
// recommender read.
TEST(ProfileTest, MemoryModelKnobsFollowTheWorkloadUnlessGiven) {
  Profile p;
  const auto& workloads = BuiltinStorageFacts().workloads;
  EXPECT_EQ(NodesPerQuery(p), 1);  // no workload, no assumption about the queries
  EXPECT_EQ(Headroom(p), 0.10);
  p.workload = Workload::kMixed;
  EXPECT_EQ(NodesPerQuery(p), workloads.at("mixed").nodes_per_query);
  p.workload = Workload::kDesktop;
  EXPECT_EQ(Headroom(p), workloads.at("desktop").headroom);
  p.workload = Workload::kOlap;
  EXPECT_EQ(NodesPerQuery(p), workloads.at("olap").nodes_per_query);
  EXPECT_GT(NodesPerQuery(p), 1);
  p.workload = Workload::kOltp;
  EXPECT_EQ(NodesPerQuery(p), 1);
  p.nodes_per_query = 4;
  p.headroom = 0.3;
  EXPECT_EQ(NodesPerQuery(p), 4);
  EXPECT_EQ(Headroom(p), 0.3);
  EXPECT_EQ(FindProfileFact("nodes_per_query")->value(p).number, 4);
}

TEST(ProfileTest, MemoryModelKnobsArePlainFiniteNumbers) {
  Profile p;
  std::string error;
  ASSERT_TRUE(SetProfileFact(&p, "headroom", "0.2", &error)) << error;
  EXPECT_EQ(p.headroom, 0.2);
  ASSERT_TRUE(SetProfileFact(&p, "nodes-per-query", "3", &error)) << error;
  EXPECT_EQ(p.nodes_per_query, 3);
  for (const char* key : {"headroom", "nodes-per-query"}) {
    for (const char* v : {"nan", "NaN", "inf", "-inf", "infinity", ""})
      EXPECT_EQ(ProfileRefusal(key, v), std::string("invalid ") + key + " \"" + v + "\": not a number") << key << v;
    EXPECT_EQ(ProfileRefusal(key, "1e999"), std::string("invalid ") + key + " \"1e999\": number too large");
    EXPECT_EQ(ProfileRefusal(key, "0.1kB"), std::string("invalid ") + key + " \"0.1kB\": expected a plain number, without \"kB\"");
  }
  EXPECT_EQ(ProfileRefusal("headroom", "1"), "invalid headroom \"1\" (expected a fraction such as 0.1)");
  EXPECT_EQ(ProfileRefusal("nodes-per-query", "-1"), "invalid nodes-per-query \"-1\" (expected a number of at least 0)");
}

}  // namespace
}  // namespace pgconflint
