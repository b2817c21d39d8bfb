// WriteFileAtomically: whole replacement, permissions kept, links followed,
// nothing left behind on failure.
#include "core/base/atomic_write.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>

#include "core/base/file_system.h"
#include "test_support.h"

namespace pgconflint {
namespace {

using namespace test;

namespace fs = std::filesystem;

// The file's bytes through the project's own reader ("" when unreadable).

class AtomicWriteTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("pgconflint-atomic-" + std::to_string(getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  size_t Entries() const { return std::distance(fs::directory_iterator(dir_), fs::directory_iterator()); }
  fs::path dir_;
};

TEST_F(AtomicWriteTest, ReplacesWholeFiles) {
  std::string error;
  ASSERT_TRUE(WriteFileAtomically((dir_ / "f").string(), "first", &error)) << error;
  ASSERT_TRUE(WriteFileAtomically((dir_ / "f").string(), "second", &error)) << error;
  EXPECT_EQ(Slurp(dir_ / "f"), "second");
  EXPECT_EQ(Entries(), 1u) << "no temp file left";
}

TEST_F(AtomicWriteTest, KeepsPermissions) {
  std::string error;
  fs::path f = dir_ / "postgresql.conf";
  ASSERT_TRUE(WriteFileAtomically(f.string(), "a = 1\n", &error)) << error;
  chmod(f.c_str(), 0640);
  ASSERT_TRUE(WriteFileAtomically(f.string(), "a = 2\n", &error)) << error;
  struct stat st;
  ASSERT_EQ(stat(f.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0640u);
}

TEST_F(AtomicWriteTest, FollowsSymbolicLinks) {
  std::string error;
  fs::path target = dir_ / "real.conf", link = dir_ / "link.conf";
  ASSERT_TRUE(WriteFileAtomically(target.string(), "old\n", &error)) << error;
  fs::create_symlink(target, link);
  ASSERT_TRUE(WriteFileAtomically(link.string(), "new\n", &error)) << error;
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(Slurp(target), "new\n");
}

TEST_F(AtomicWriteTest, FailureLeavesNothing) {
  std::string error;
  EXPECT_FALSE(WriteFileAtomically((dir_ / "missing" / "f").string(), "x", &error));
  EXPECT_NE(error.find("missing/f"), std::string::npos) << error;
  EXPECT_EQ(Entries(), 0u);
}

// In a child process: writes 4 KiB to `path` under a 16-byte file size
// limit; exits 0 when the write failed with an error naming the file.
void WriteUnderSizeLimit(const std::string& path) {
  signal(SIGXFSZ, SIG_IGN);  // EFBIG from write() instead of the signal
  struct rlimit limit;
  limit.rlim_cur = limit.rlim_max = 16;
  setrlimit(RLIMIT_FSIZE, &limit);
  std::string why;
  const bool written = WriteFileAtomically(path, std::string(4096, 'x'), &why);
  _exit(!written && why.find("report.sarif") != std::string::npos ? 0 : 1);
}

// A write that fails once the temporary file exists (the file size limit,
// which binds root too): the old file stays whole and the temporary file is
// removed. Run in a child process, whose limit ends with it.
TEST_F(AtomicWriteTest, AWriteFailingMidwayKeepsTheOldFile) {
  const fs::path f = dir_ / "report.sarif";
  std::string error;
  ASSERT_TRUE(WriteFileAtomically(f.string(), "previous\n", &error)) << error;
  EXPECT_EXIT(WriteUnderSizeLimit(f.string()), ::testing::ExitedWithCode(0), "");
  EXPECT_EQ(Slurp(f), "previous\n");
  EXPECT_EQ(Entries(), 1u) << "the temporary file was removed";
}

TEST_F(AtomicWriteTest, KeepsTheOwnerAndGroup) {
  if (geteuid() != 0) GTEST_SKIP() << "only root can give a file to another owner";
  std::string error;
  fs::path f = dir_ / "postgresql.conf";
  ASSERT_TRUE(WriteFileAtomically(f.string(), "a = 1\n", &error)) << error;
  ASSERT_EQ(chown(f.c_str(), 4242, 4343), 0);
  ASSERT_EQ(chmod(f.c_str(), 0600), 0);
  ASSERT_TRUE(WriteFileAtomically(f.string(), "a = 2\n", &error)) << error;
  struct stat st;
  ASSERT_EQ(stat(f.c_str(), &st), 0);
  EXPECT_EQ(st.st_uid, 4242u) << "sudo --fix handed postgres's file to root";
  EXPECT_EQ(st.st_gid, 4343u);
  EXPECT_EQ(st.st_mode & 07777, 0600u);
  EXPECT_EQ(Slurp(f), "a = 2\n");
}

TEST_F(AtomicWriteTest, AFileWithHardLinksIsNotSplitFromThem) {
  std::string error;
  fs::path f = dir_ / "postgresql.conf", other = dir_ / "copy.conf";
  ASSERT_TRUE(WriteFileAtomically(f.string(), "a = 1\n", &error)) << error;
  ASSERT_EQ(link(f.c_str(), other.c_str()), 0);
  EXPECT_FALSE(WriteFileAtomically(f.string(), "a = 2\n", &error));
  EXPECT_NE(error.find("has 2 hard links"), std::string::npos) << error;
  EXPECT_EQ(Slurp(f), "a = 1\n");
  EXPECT_EQ(Entries(), 2u) << "no temp file left";
}

}  // namespace
}  // namespace pgconflint
