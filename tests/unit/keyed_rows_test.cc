#include "core/base/keyed_rows.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

namespace pgconflint {
namespace {

using KeyedPair = std::pair<std::string, int>;  // key, value

std::vector<KeyedPair> KeyedPairsOf(const KeyedRows<KeyedPair>& rows) { return rows.Rows(); }

TEST(KeyedRowsTest, SetMovesTheKeyToTheEndAsAListWould) {
  KeyedRows<KeyedPair> rows;
  rows.Set("a", {"a", 1});
  rows.Set("b", {"b", 2});
  rows.Set("a", {"a", 3});
  EXPECT_EQ(KeyedPairsOf(rows), (std::vector<KeyedPair>{{"b", 2}, {"a", 3}}));
  ASSERT_NE(rows.Find("a"), nullptr);
  EXPECT_EQ(rows.Find("a")->second, 3);
  EXPECT_EQ(rows.Find("c"), nullptr);
}

TEST(KeyedRowsTest, AppendKeepsEveryRowOfAKeyAndSetReplacesThemAll) {
  KeyedRows<KeyedPair> rows;
  rows.Append("a", {"a", 1});
  rows.Append("b", {"b", 2});
  rows.Append("a", {"a", 3});
  EXPECT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows.Find("a")->second, 3);
  rows.Set("a", {"a", 4});
  EXPECT_EQ(KeyedPairsOf(rows), (std::vector<KeyedPair>{{"b", 2}, {"a", 4}}));
}

TEST(KeyedRowsTest, EraseGroupErasesOnlyItsRows) {
  KeyedRows<KeyedPair> rows;
  rows.Set("g1/a", {"a", 1}, "g1");
  rows.Set("g2/a", {"a", 2}, "g2");
  rows.Set("g1/b", {"b", 3}, "g1");
  rows.EraseGroup("g1");
  EXPECT_EQ(KeyedPairsOf(rows), (std::vector<KeyedPair>{{"a", 2}}));
  rows.EraseGroup("none");
  EXPECT_EQ(rows.size(), 1u);
}

TEST(KeyedRowsTest, RollbackRestoresTheRowsAndTheirOrder) {
  KeyedRows<KeyedPair> rows;
  rows.Append("a", {"a", 1});
  rows.Append("a", {"a", 2});
  rows.Set("b", {"b", 3}, "g");
  std::vector<KeyedPair> before = KeyedPairsOf(rows);
  rows.Begin();
  rows.Set("a", {"a", 9});
  rows.EraseGroup("g");
  rows.Set("c", {"c", 4}, "g");
  rows.Clear();
  rows.Set("b", {"b", 5});
  rows.Rollback();
  EXPECT_EQ(KeyedPairsOf(rows), before);
  rows.EraseGroup("g");  // the group index came back too
  EXPECT_EQ(KeyedPairsOf(rows), (std::vector<KeyedPair>{{"a", 1}, {"a", 2}}));
}

TEST(KeyedRowsTest, CommitKeepsTheChanges) {
  KeyedRows<KeyedPair> rows;
  rows.Set("a", {"a", 1});
  rows.Begin();
  rows.Set("a", {"a", 2});
  rows.Commit();
  rows.Begin();
  rows.Erase("a");
  rows.Rollback();
  EXPECT_EQ(KeyedPairsOf(rows), (std::vector<KeyedPair>{{"a", 2}}));
}

// Against a plain list of (key, group, row) with the same operations: any
// sequence, with transactions, gives the same rows in the same order (and
// compaction, which runs every so often, never shows).
RC_GTEST_PROP(KeyedRowsProperty, BehavesAsAList, ()) {
  struct Entry {
    std::string key, group;
    KeyedPair row;
  };
  KeyedRows<KeyedPair> rows;
  std::vector<Entry> list, saved;
  bool open = false;
  const int steps = *rc::gen::inRange(0, 400);
  for (int i = 0; i < steps; ++i) {
    const std::string key(1, static_cast<char>('a' + *rc::gen::inRange(0, 6)));
    const std::string group(1, static_cast<char>('x' + *rc::gen::inRange(0, 2)));
    switch (*rc::gen::inRange(0, 7)) {
      case 0:
        rows.Append(key, {key, i}, group);
        list.push_back({key, group, {key, i}});
        break;
      case 1:
        rows.Set(key, {key, i}, group);
        list.erase(std::remove_if(list.begin(), list.end(), [&](const Entry& e) { return e.key == key; }), list.end());
        list.push_back({key, group, {key, i}});
        break;
      case 2:
        rows.Erase(key);
        list.erase(std::remove_if(list.begin(), list.end(), [&](const Entry& e) { return e.key == key; }), list.end());
        break;
      case 3: {
        // A group holds the keys whose rows were set in it.
        rows.EraseGroup(group);
        std::vector<std::string> keys;
        for (const Entry& e : list)
          if (e.group == group) keys.push_back(e.key);
        list.erase(std::remove_if(list.begin(), list.end(),
                                  [&](const Entry& e) { return std::count(keys.begin(), keys.end(), e.key) > 0; }),
                   list.end());
        break;
      }
      case 4:
        if (!open) {
          rows.Begin();
          saved = list;
          open = true;
        }
        break;
      case 5:
        if (open) {
          rows.Commit();
          open = false;
        }
        break;
      case 6:
        if (open) {
          rows.Rollback();
          list = saved;
          open = false;
        }
        break;
    }
    std::vector<KeyedPair> expected;
    for (const Entry& e : list) expected.push_back(e.row);
    RC_ASSERT(rows.Rows() == expected);
    const KeyedPair* found = rows.Find(key);
    auto last = std::find_if(list.rbegin(), list.rend(), [&](const Entry& e) { return e.key == key; });
    RC_ASSERT((found == nullptr) == (last == list.rend()));
    if (found) RC_ASSERT(*found == last->row);
  }
}

}  // namespace
}  // namespace pgconflint
