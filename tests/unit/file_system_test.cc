// The file-system seam: the real disk refuses what is not a regular file
// without blocking; the overlay hides and lists like a disk.
#include "core/base/file_system.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "real_dir.h"

namespace pgconflint {
namespace {

std::vector<std::string> NamesIn(const FileSystem& fs, const std::string& dir) {
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
  EXPECT_EQ(error, "not a regular file (a FIFO)");
  EXPECT_EQ(fs.Read("/dev/zero", &text, &error), ReadStatus::kNotRegular);
  EXPECT_EQ(error, "not a regular file (a character device)");
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

TEST(RealFileSystemTest, RealPathResolvesLinksAndKeepsMissingTails) {
  RealDir d;
  RealFileSystem fs;
  const std::string real = fs.RealPath(d.path());  // /tmp itself may be a link
  d.Write("conf/a.conf", "port = 1\n");
  d.Link("inside.conf", "conf/a.conf");
  d.Link("secret.conf", "/etc/passwd");
  d.Link("dir", "conf");
  d.Link("loop1.conf", "loop2.conf");
  d.Link("loop2.conf", "loop1.conf");
  EXPECT_EQ(fs.RealPath(d.path() + "/inside.conf"), real + "/conf/a.conf");
  EXPECT_EQ(fs.RealPath(d.path() + "/secret.conf"), fs.RealPath("/etc/passwd"));
  EXPECT_EQ(fs.RealPath(d.path() + "/dir/missing/x.conf"), real + "/conf/missing/x.conf");
  // A loop cannot be resolved: it stays where it is (opening it fails later).
  EXPECT_EQ(fs.RealPath(d.path() + "/loop1.conf"), real + "/loop1.conf");
  std::string text, error;
  EXPECT_EQ(fs.Read(d.path() + "/loop1.conf", &text, &error), ReadStatus::kNotReadable);
}

TEST(ConfinementTest, FilesOutsideTheTreesAreNeverRead) {
  RealDir d;
  RealFileSystem disk;
  const std::string tree = disk.RealPath(d.path() + "/repo");
  d.Write("repo/rules.toml", "x");
  d.Write("elsewhere/rules.toml", "secret");
  d.Link("repo/link.toml", "../elsewhere/rules.toml");
  EXPECT_TRUE(InsideTrees(disk, d.path() + "/repo/rules.toml", {tree}));
  EXPECT_TRUE(InsideTrees(disk, d.path() + "/repo", {tree}));
  EXPECT_FALSE(InsideTrees(disk, d.path() + "/repo/link.toml", {tree}));
  EXPECT_FALSE(InsideTrees(disk, d.path() + "/repository/x.toml", {tree})) << "a prefix is not a parent";
  ConfinedFileSystem fs(disk, {tree}, "(allowed by a flag)");
  std::string text, error;
  EXPECT_EQ(fs.Read(d.path() + "/repo/rules.toml", &text, &error), ReadStatus::kOk);
  text.clear();
  EXPECT_EQ(fs.Read(d.path() + "/repo/link.toml", &text, &error), ReadStatus::kNotReadable);
  EXPECT_EQ(text, "");
  EXPECT_NE(error.find("resolves to " + disk.RealPath(d.path() + "/elsewhere/rules.toml")), std::string::npos)
      << error;
  EXPECT_NE(error.find("not read (allowed by a flag)"), std::string::npos) << error;
  std::vector<DirEntry> entries;
  EXPECT_FALSE(fs.List(d.path() + "/elsewhere", &entries, &error));
  EXPECT_TRUE(entries.empty());
}

TEST(ReadDataFileTest, RefusesLargeFilesBeforeReading) {
  RealDir d;
  std::string big = d.path() + "/big.toml";
  int fd = open(big.c_str(), O_CREAT | O_WRONLY, 0600);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(ftruncate(fd, static_cast<off_t>(kMaxDataFileSize + 1)), 0);
  close(fd);
  RealFileSystem fs;
  std::string text, error;
  EXPECT_EQ(ReadDataFile(fs, big, &text, &error), ReadStatus::kTooLarge);
  EXPECT_NE(error.find("larger than 8 MiB"), std::string::npos) << error;
  OverlayFileSystem overlay;
  overlay.Set("/x.json", std::string(kMaxDataFileSize + 1, ' '));
  EXPECT_EQ(ReadDataFile(overlay, "/x.json", &text, &error), ReadStatus::kTooLarge);
  overlay.Set("/y.json", "{}");
  EXPECT_EQ(ReadDataFile(overlay, "/y.json", &text, &error), ReadStatus::kOk);
  EXPECT_EQ(text, "{}");
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
  EXPECT_EQ(NamesIn(fs, d.path()), (std::vector<std::string>{"a.conf", "b.conf", "conf.d"}));
  EXPECT_EQ(NamesIn(fs, d.path() + "/conf.d"), (std::vector<std::string>{"new.conf"}));
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
  EXPECT_EQ(NamesIn(fs, "/"), std::vector<std::string>{"p"});
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
