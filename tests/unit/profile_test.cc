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
