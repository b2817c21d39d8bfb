// "Did you mean" suggestions.
#include "core/base/spelling.h"

#include <gtest/gtest.h>

namespace pgconflint {
namespace {

TEST(SpellingTest, TypoDistanceCountsASwapAsOneEdit) {
  EXPECT_EQ(TypoDistance("fsync", "fsync"), 0u);
  EXPECT_EQ(TypoDistance("FSync", "fsync"), 0u);
  EXPECT_EQ(TypoDistance("is_flase", "is_false"), 1u);
  EXPECT_EQ(TypoDistance("fsnyc", "fsync"), 1u);
  EXPECT_EQ(TypoDistance("sfnyc", "fsync"), 2u);  // two swaps
  EXPECT_EQ(TypoDistance("rma", "ram"), 1u);
  EXPECT_EQ(TypoDistance("", "abc"), 3u);
  EXPECT_EQ(TypoDistance("work_mem", "work_men"), 1u);
  EXPECT_EQ(TypoDistance("kitten", "sitting"), 3u);
}

TEST(SpellingTest, SuggesterKeepsTheClosestWithinATyposReach) {
  Suggester s("is_flase");
  for (const char* c : {"if", "is_true", "is_false", "is_set"}) s.Consider(c);
  EXPECT_EQ(s.best(), "is_false");
  EXPECT_EQ(s.Hint(), " (did you mean \"is_false\"?)");
  Suggester far("frobnicate");
  for (const char* c : {"min", "max", "coalesce"}) far.Consider(c);
  EXPECT_EQ(far.best(), "");
  EXPECT_EQ(far.Hint(), "");
  Suggester tie("mx");
  for (const char* c : {"max", "mix"}) tie.Consider(c);
  EXPECT_EQ(tie.best(), "max") << "ties keep the first candidate";
}

}  // namespace
}  // namespace pgconflint
