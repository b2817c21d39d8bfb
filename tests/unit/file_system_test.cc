// The file-system seam: the real disk refuses what is not a regular file
// without blocking; the overlay hides and lists like a disk.
#include "core/file_system.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

namespace pgconflint {
namespace {

class RealDir {
 public:
  RealDir() {
    char tmpl[] = "/tmp/pgconflint-fs-XXXXXX";
    path_ = mkdtemp(tmpl);
  }
  ~RealDir() { std::filesystem::remove_all(path_); }
  std::string Write(const std::string& rel, const std::string& text) const {
    std::string p = path_ + "/" + rel;
    std::ofstream(p) << text;
    return p;
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

std::vector<std::string> Names(const FileSystem& fs, const std::string& dir) {
  std::vector<DirEntry> entries;
  std::string error;
  EXPECT_TRUE(fs.List(dir, &entries, &error)) << error;
  std::vector<std::string> out;
  for (const DirEntry& e : entries) out.push_back(e.name);
  std::sort(out.begin(), out.end());
  return out;
}

TEST(RealFileSystemTest, ReadsRegularFilesOnly) {
  RealDir d;
  RealFileSystem fs;
  std::string text, error;
  ASSERT_EQ(fs.Read(d.Write("a.conf", "port = 1\n"), &text, &error), ReadStatus::kOk);
  EXPECT_EQ(text, "port = 1\n");
  EXPECT_EQ(fs.Read(d.path() + "/missing.conf", &text, &error), ReadStatus::kNotFound);
  EXPECT_EQ(fs.Read(d.path(), &text, &error), ReadStatus::kIsDirectory);
  // A FIFO with no writer would block a plain open() forever.
  std::string fifo = d.path() + "/fifo";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_EQ(fs.Read(fifo, &text, &error), ReadStatus::kNotRegular);
  EXPECT_EQ(error, "not a regular file");
  EXPECT_EQ(fs.Read("/dev/zero", &text, &error), ReadStatus::kNotRegular);
  EXPECT_EQ(fs.Stat(fifo).type, FileInfo::Type::kOther);
}

TEST(RealFileSystemTest, SizeIsCheckedBeforeReading) {
  RealDir d;
  std::string big = d.path() + "/big.conf";
  int fd = open(big.c_str(), O_CREAT | O_WRONLY, 0600);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(ftruncate(fd, static_cast<off_t>(kMaxFileSize + 1)), 0);  // sparse: nothing to read
  close(fd);
  RealFileSystem fs;
  std::string text, error;
  EXPECT_EQ(fs.Read(big, &text, &error), ReadStatus::kTooLarge);
  EXPECT_TRUE(text.empty());
}

TEST(OverlayFileSystemTest, HidesTheBaseAndListsTheUnion) {
  RealDir d;
  d.Write("a.conf", "disk a\n");
  d.Write("b.conf", "disk b\n");
  RealFileSystem real;
  OverlayFileSystem fs(&real, d.path());
  fs.Set("a.conf", "buffer a\n");  // relative to the overlay's directory
  fs.Set(d.path() + "/conf.d/new.conf", "buffer new\n");
  std::string text, error;
  ASSERT_EQ(fs.Read(d.path() + "/a.conf", &text, &error), ReadStatus::kOk);
  EXPECT_EQ(text, "buffer a\n");
  ASSERT_EQ(fs.Read(d.path() + "/b.conf", &text, &error), ReadStatus::kOk);
  EXPECT_EQ(text, "disk b\n");
  EXPECT_EQ(fs.Stat(d.path() + "/conf.d").type, FileInfo::Type::kDirectory);
  EXPECT_EQ(fs.Read(d.path() + "/conf.d", &text, &error), ReadStatus::kIsDirectory);
  EXPECT_EQ(Names(fs, d.path()), (std::vector<std::string>{"a.conf", "b.conf", "conf.d"}));
  EXPECT_EQ(Names(fs, d.path() + "/conf.d"), (std::vector<std::string>{"new.conf"}));
  fs.Remove(d.path() + "/a.conf");
  ASSERT_EQ(fs.Read(d.path() + "/a.conf", &text, &error), ReadStatus::kOk);
  EXPECT_EQ(text, "disk a\n");
}

TEST(OverlayFileSystemTest, WithoutABaseItIsAnEmptyDisk) {
  OverlayFileSystem fs(nullptr, "/p");
  std::string text, error;
  EXPECT_EQ(fs.Read("/p/x.conf", &text, &error), ReadStatus::kNotFound);
  EXPECT_EQ(fs.Stat("/p").type, FileInfo::Type::kMissing);
  std::vector<DirEntry> entries;
  EXPECT_FALSE(fs.List("/p", &entries, &error));
  fs.Set("x.conf", "port = 1\n");
  EXPECT_EQ(fs.CurrentDirectory(), "/p");
  EXPECT_EQ(AbsolutePath(fs, "x.conf"), "/p/x.conf");
  EXPECT_EQ(fs.Stat("/p/x.conf").size, 9u);
  EXPECT_EQ(Names(fs, "/"), std::vector<std::string>{"p"});
}

TEST(PathTest, CanonicalizeAndParent) {
  EXPECT_EQ(CanonicalizePath("/a//b/./c/../d/"), "/a/b/d");
  EXPECT_EQ(CanonicalizePath("/.."), "/");
  EXPECT_EQ(CanonicalizePath("a/../../b"), "../b");
  EXPECT_EQ(ParentDirectory("/a/b.conf"), "/a");
  EXPECT_EQ(ParentDirectory("/b.conf"), "/");
  EXPECT_EQ(ParentDirectory("b.conf"), ".");
}

}  // namespace
}  // namespace pgconflint
