// The FileCache: each file read and parsed once until forgotten; files that
// cannot be read give their status and no entry.
#include <gtest/gtest.h>

#include "core/model/settings_source.h"

namespace pgconflint {
namespace {

TEST(FileCacheTest, ReadsEachFileOnceUntilForgotten) {
  OverlayFileSystem fs(nullptr, "/p");
  fs.Set("/p/a.conf", "work_mem = '4MB'\n");
  FileCache cache(fs);
  ReadStatus status;
  std::string error;
  auto first = cache.Get("/p/a.conf", &status, &error);
  ASSERT_NE(first, nullptr) << error;
  EXPECT_EQ(status, ReadStatus::kOk);
  EXPECT_EQ(first->source.path(), "/p/a.conf");
  ASSERT_EQ(first->parsed.settings.size(), 1u);
  EXPECT_EQ(first->parsed.settings[0].value_text, "4MB");
  fs.Set("/p/a.conf", "work_mem = '8MB'\nport = 1\n");
  EXPECT_EQ(cache.Get("/p/a.conf", &status, &error), first) << "not read again";
  cache.Forget("/p/a.conf");
  auto second = cache.Get("/p/a.conf", &status, &error);
  ASSERT_NE(second, nullptr);
  EXPECT_EQ(second->parsed.settings.size(), 2u);
}

TEST(FileCacheTest, AFileThatCannotBeReadGivesItsStatus) {
  OverlayFileSystem fs(nullptr, "/p");
  fs.Set("/p/d/x.conf", "port = 1\n");
  FileCache cache(fs);
  ReadStatus status;
  std::string error;
  EXPECT_EQ(cache.Get("/p/missing.conf", &status, &error), nullptr);
  EXPECT_EQ(status, ReadStatus::kNotFound);
  EXPECT_FALSE(error.empty());
  EXPECT_EQ(cache.Get("/p/d", &status, &error), nullptr);
  EXPECT_EQ(status, ReadStatus::kIsDirectory);
}

}  // namespace
}  // namespace pgconflint
