// The small text pieces of core/base/strings.h that messages are worded with.
#include "core/base/strings.h"

#include <gtest/gtest.h>

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace pgconflint {
namespace {

TEST(StringsTest, CommaListJoinsWithACommaAndASpaceBetweenItems) {
  EXPECT_EQ(CommaList(std::vector<std::string>{}), "");
  EXPECT_EQ(CommaList(std::vector<std::string>{"one"}), "one");
  EXPECT_EQ(CommaList(std::vector<std::string>{"a", "", "c"}), "a, , c");
  // An empty first item is an item too (the hand-written joins this replaced dropped its comma).
  EXPECT_EQ(CommaList(std::vector<std::string>{"", "b"}), ", b");
  constexpr const char* kNames[] = {"safe", "review"};
  EXPECT_EQ(CommaList(kNames), "safe, review");
  const std::vector<std::string_view> views = {"x", "y"};
  EXPECT_EQ(CommaList(views), "x, y");
}

TEST(StringsTest, CommaListWritesNumbersAndProjectedItems) {
  const int majors[] = {14, 15, 18};
  EXPECT_EQ(CommaList(std::span<const int>(majors)), "14, 15, 18");
  EXPECT_EQ(CommaList(std::vector<int>{-1}), "-1");
  struct ListedCell {
    std::string parameter, value;
  };
  const std::vector<ListedCell> cells = {{"seq_page_cost", "1"}, {"random_page_cost", "1.1"}};
  EXPECT_EQ(CommaList(cells, [](const ListedCell& c) { return c.parameter + " = " + c.value; }),
            "seq_page_cost = 1, random_page_cost = 1.1");
  EXPECT_EQ(CommaList(cells, [](const ListedCell& c) { return c.value.size(); }), "1, 3");
}

}  // namespace
}  // namespace pgconflint
