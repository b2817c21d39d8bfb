// Reading a configuration tree: cycles and fan-out stay bounded, each file is
// read once, reading diagnostics carry their locations.
#include <gtest/gtest.h>

#include <map>

#include "core/passes.h"
#include "core/settings_source.h"
#include "fake_disk.h"

namespace pgconflint {
namespace {

Analysis Collect(FakeDisk& disk, const std::string& root) {
  Analysis a;
  a.root = root;
  a.catalog = Catalog::ForMajor(18);
  FileCache cache(disk.fs());
  ConfTreeSource(root).Collect({&cache, ""}, &a);
  return a;
}

std::vector<std::string> Codes(const Analysis& a) {
  std::vector<std::string> out;
  for (const Diagnostic& d : a.diagnostics) out.push_back(d.rule->code);
  return out;
}

TEST(ConfTreeTest, ACycleIsReportedOnceWithoutExpandingIt) {
  FakeDisk disk;
  std::string a_conf = disk.Write("a.conf", "work_mem = '1MB'\ninclude 'b.conf'\n");
  disk.Write("b.conf", "include 'a.conf'\nport = 5433\n");
  Analysis a = Collect(disk, a_conf);
  EXPECT_EQ(Codes(a), std::vector<std::string>{"PGC302"});
  EXPECT_TRUE(a.diagnostics[0].fatal) << "the server fails at the nesting depth limit";
  EXPECT_NE(a.diagnostics[0].message.find("a.conf -> /project/b.conf -> /project/a.conf"), std::string::npos)
      << a.diagnostics[0].message;
  EXPECT_EQ(a.files.size(), 2u);
}

TEST(ConfTreeTest, FanOutIsBoundedAndEachFileReadOnce) {
  // Ten lines including b.conf, which has ten lines including c.conf, ...:
  // 10^10 loads if expanded. Counting reads through a wrapper.
  class Counting : public OverlayFileSystem {
   public:
    Counting() : OverlayFileSystem(nullptr, "/project") {}
    ReadStatus Read(const std::string& p, std::string* t, std::string* e) const override {
      ++reads[p];
      return OverlayFileSystem::Read(p, t, e);
    }
    mutable std::map<std::string, int> reads;
  } fs;
  for (char c = 'a'; c < 'k'; ++c) {
    std::string text;
    for (int i = 0; i < 10; ++i) text += std::string("include '") + static_cast<char>(c + 1) + ".conf'\n";
    fs.Set(std::string(1, c) + ".conf", text);
  }
  fs.Set("k.conf", "work_mem = '1MB'\n");
  Analysis a;
  a.catalog = Catalog::ForMajor(18);
  FileCache cache(fs);
  ConfTreeSource("/project/a.conf").Collect({&cache, ""}, &a);
  EXPECT_LE(a.files.size(), 10001u);
  for (const auto& [path, n] : fs.reads) EXPECT_EQ(n, 1) << path;
  ASSERT_FALSE(a.diagnostics.empty());
  EXPECT_EQ(std::string(a.diagnostics.back().rule->code), "PGC302");
  EXPECT_NE(a.diagnostics.back().message.find("more than 10000 file loads"), std::string::npos);
}

TEST(ConfTreeTest, OptionalIncludeOfADirectoryFailsAsInPostgres) {
  FakeDisk disk;
  disk.Write("dir/x.conf", "port = 1\n");
  std::string root = disk.Write("postgresql.conf", "include_if_exists 'dir'\ninclude_if_exists 'nope.conf'\n");
  Analysis a = Collect(disk, root);
  EXPECT_EQ(Codes(a), (std::vector<std::string>{"PGC301", "PGC304"}));
}

TEST(ConfTreeTest, DataDirectoryWithoutAutoConfAndDisplayPaths) {
  FakeDisk disk;
  disk.Write("data/postgresql.conf", "include 'conf.d/a.conf'\n");
  disk.Write("data/conf.d/a.conf", "port = 1\n");
  Analysis a;
  a.catalog = Catalog::ForMajor(18);
  FileCache cache(disk.fs());
  ConfTreeSource("data").Collect({&cache, "/project"}, &a);
  ASSERT_EQ(a.files.size(), 2u);
  EXPECT_EQ(a.files[0].source.path(), "data/postgresql.conf");
  EXPECT_EQ(a.files[1].source.path(), "data/conf.d/a.conf");
  EXPECT_EQ(a.settings.size(), 1u);
}

TEST(ConfTreeTest, UnreadableRootIsAFailureNotADiagnostic) {
  FakeDisk disk;
  Analysis a = Collect(disk, "/project/missing.conf");
  EXPECT_EQ(a.failure, Analysis::Failure::kUsage);
  EXPECT_NE(a.failure_message.find("missing.conf"), std::string::npos);
}

}  // namespace
}  // namespace pgconflint
