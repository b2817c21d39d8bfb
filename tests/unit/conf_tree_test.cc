// Reading a configuration tree: cycles and fan-out stay bounded, each file is
// read once, reading diagnostics carry their locations; files outside the
// tree and files that are not regular are never read, and say what
// PostgreSQL would do; the per-root limits stop the root.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <map>

#include "core/conf/passes.h"
#include "core/model/settings_source.h"
#include "fake_disk.h"
#include "real_dir.h"
#include "test_support.h"

namespace pgconflint {
namespace {

using namespace test;

Analysis Collect(const FileSystem& fs, const std::string& root, CollectContext context = {}) {
  Analysis a;
  a.root = root;
  a.catalog = Catalog::ForMajor(18);
  FileCache cache(fs);
  context.files = &cache;
  ConfTreeSource(root).Collect(context, &a);
  return a;
}

Analysis Collect(FakeDisk& disk, const std::string& root) { return Collect(disk.fs(), root); }

// Every diagnostic's message and help, and every setting, as one text: what
// the outputs could echo.
std::string Everything(const Analysis& a) {
  std::string out;
  for (const Diagnostic& d : a.diagnostics) out += d.message + "\n" + d.help + "\n";
  for (const Setting& s : a.settings) out += s.name + " = " + s.raw + "\n";
  for (const LoadedFile& f : a.files) out += f.source.text();
  return out;
}

TEST(ConfTreeTest, ACycleIsReportedOnceWithoutExpandingIt) {
  FakeDisk disk;
  std::string a_conf = disk.Write("a.conf", "work_mem = '1MB'\ninclude 'b.conf'\n");
  disk.Write("b.conf", "include 'a.conf'\nport = 5433\n");
  Analysis a = Collect(disk, a_conf);
  EXPECT_EQ(Codes(a), std::vector<std::string>{"PGC302"});
  EXPECT_TRUE(a.diagnostics[0].fatal()) << "the server fails at the nesting depth limit";
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
    // Reads through Read (the overlay would share its text without calling it).
    ReadStatus ReadShared(const std::string& p, SharedText* t, std::string* e) const override {
      return FileSystem::ReadShared(p, t, e);
    }
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

TEST(ConfTreeTest, IncludesOutsideTheTreeAreNamedNotRead) {
  FakeDisk disk;
  disk.Write("/etc/secret.conf", "password = 'hunter2'\n");
  disk.Write("/etc/conf.d/x.conf", "password = 'hunter2'\n");
  disk.Write("/other/a.conf", "password = 'hunter2'\n");
  std::string root = disk.Write("postgresql.conf",
                                "include '/etc/secret.conf'\n"
                                "include_if_exists '../other/a.conf'\n"
                                "include_dir '/etc/conf.d'\n"
                                "include '/etc/missing.conf'\n"
                                "include_if_exists '/etc/missing.conf'\n"
                                "work_mem = '4MB'\n");
  Analysis a = Collect(disk, root);
  // Outside the tree nothing is read or even looked up: the server's host
  // has its own files, and the verdict must not depend on this machine's.
  EXPECT_EQ(Codes(a), (std::vector<std::string>{"PGC305", "PGC305", "PGC305", "PGC305", "PGC305"}));
  EXPECT_EQ(a.files.size(), 1u);
  EXPECT_EQ(a.settings.size(), 1u);
  EXPECT_EQ(Everything(a).find("hunter2"), std::string::npos) << Everything(a);
  EXPECT_NE(a.diagnostics[0].message.find("\"/etc/secret.conf\" is outside the tree being checked (/project)"),
            std::string::npos)
      << a.diagnostics[0].message;
  EXPECT_NE(a.diagnostics[0].help.find("--allow-outside-includes"), std::string::npos);
  EXPECT_FALSE(a.diagnostics[0].fatal());
  EXPECT_FALSE(a.diagnostics[3].fatal()) << "whether /etc/missing.conf exists on the server is not known here";
  EXPECT_NE(a.diagnostics[3].help.find("does not start without it"), std::string::npos);
}

TEST(ConfTreeTest, OutsideIncludesAreReadWhenAllowedOrInAnotherTree) {
  FakeDisk disk;
  disk.Write("/etc/shared.conf", "port = 5433\n");
  std::string root = disk.Write("postgresql.conf", "include '/etc/shared.conf'\n");
  CollectContext allow;
  allow.allow_outside = true;
  Analysis a = Collect(disk.fs(), root, allow);
  EXPECT_TRUE(a.diagnostics.empty());
  EXPECT_EQ(a.settings.size(), 1u);
  CollectContext tree;
  tree.trees = {"/etc"};  // e.g. the directory of the project's .pgconflint.toml
  a = Collect(disk.fs(), root, tree);
  EXPECT_TRUE(a.diagnostics.empty());
  EXPECT_EQ(a.settings.size(), 1u);
}

TEST(ConfTreeTest, SymbolicLinksAreResolvedBeforeDeciding) {
  RealDir d;
  RealFileSystem disk;
  d.Write("data/postgresql.conf", "include 'conf.d/inside.conf'\ninclude 'secret.conf'\ninclude_dir 'linked'\n");
  d.Write("data/conf.d/real.conf", "work_mem = '4MB'\n");
  d.Link("data/conf.d/inside.conf", "real.conf");
  d.Link("data/secret.conf", "/etc/passwd");
  d.Link("data/linked", "/etc");
  d.Link("data/postgresql.auto.conf", "/etc/passwd");
  Analysis a = Collect(disk, d.path() + "/data");
  ASSERT_EQ(a.failure, Analysis::Failure::kNone) << a.failure_message;
  EXPECT_EQ(Codes(a), (std::vector<std::string>{"PGC305", "PGC305", "PGC305"}));
  EXPECT_EQ(a.files.size(), 2u);
  EXPECT_NE(a.diagnostics[0].message.find("(resolving to \"" + disk.RealPath("/etc/passwd") + "\")"),
            std::string::npos)
      << a.diagnostics[0].message;
  bool auto_conf_at_root = false;
  for (const Diagnostic& diag : a.diagnostics)
    auto_conf_at_root |= diag.file == -1 && diag.message.find("postgresql.auto.conf") != std::string::npos;
  EXPECT_TRUE(auto_conf_at_root);
  // A root file that is a link out of its directory is not read either.
  d.Link("evil.conf", "/etc/passwd");
  a = Collect(disk, d.path() + "/evil.conf");
  EXPECT_EQ(a.failure, Analysis::Failure::kUsage);
  EXPECT_NE(a.failure_message.find("outside the tree being checked"), std::string::npos) << a.failure_message;
  EXPECT_TRUE(a.files.empty());
}

TEST(ConfTreeTest, SpecialFilesSayWhatPostgresWouldDo) {
  RealDir d;
  RealFileSystem disk;
  ASSERT_EQ(mkfifo((d.path() + "/fifo.conf").c_str(), 0600), 0);
  std::string root = d.Write("postgresql.conf",
                             "include 'fifo.conf'\n"
                             "include_if_exists 'fifo.conf'\n"
                             "include_dir '.'\n");
  CollectContext allow;
  allow.allow_outside = true;  // /dev/zero is outside any tree
  Analysis a = Collect(disk, root, allow);
  // The FIFO blocks the server in every form; include_dir stops at it.
  ASSERT_EQ(Codes(a), (std::vector<std::string>{"PGC301", "PGC301", "PGC301"}));
  for (const Diagnostic& diag : a.diagnostics) {
    EXPECT_NE(diag.message.find("is a FIFO, not a regular file: PostgreSQL would wait"), std::string::npos)
        << diag.message;
    EXPECT_TRUE(diag.fatal());
  }
  root = d.Write("zero.conf", "include_if_exists '/dev/zero'\n");
  a = Collect(disk, root, allow);
  ASSERT_EQ(Codes(a), std::vector<std::string>{"PGC301"}) << "not a missing file";
  EXPECT_NE(a.diagnostics[0].message.find("is a character device"), std::string::npos) << a.diagnostics[0].message;
  EXPECT_FALSE(a.diagnostics[0].fatal()) << "what a device returns decides";
}

// A file that exists but cannot be read: PostgreSQL's fopen() fails, and an
// optional file (include_if_exists, postgresql.auto.conf) is skipped as
// "missing" whatever errno says; a required one fails the server.
TEST(ConfTreeTest, UnreadableFilesAreSkippedOnlyWhereOptional) {
  class Unreadable : public OverlayFileSystem {
   public:
    Unreadable() : OverlayFileSystem(nullptr, "/project") {}
    // Reads through Read (the overlay would share its text without calling it).
    ReadStatus ReadShared(const std::string& p, SharedText* t, std::string* e) const override {
      return FileSystem::ReadShared(p, t, e);
    }
    ReadStatus Read(const std::string& p, std::string* t, std::string* e) const override {
      if (p.find("locked") == std::string::npos) return OverlayFileSystem::Read(p, t, e);
      *e = "Permission denied";
      return ReadStatus::kNotReadable;
    }
  } fs;
  fs.Set("data/postgresql.conf", "include_if_exists 'locked.conf'\ninclude 'locked.conf'\nwork_mem = '4MB'\n");
  fs.Set("data/locked.conf", "port = 1\n");
  Analysis a = Collect(fs, "/project/data");
  EXPECT_EQ(Codes(a), (std::vector<std::string>{"PGC304", "PGC301"}));
  EXPECT_NE(a.diagnostics[0].message.find("skipping missing configuration file \"/project/data/locked.conf\" "
                                          "(Permission denied)"),
            std::string::npos)
      << a.diagnostics[0].message;
  // An unreadable postgresql.auto.conf is no failure: the root is analysed.
  fs.Set("data/postgresql.conf", "work_mem = '4MB'\n");
  fs.Set("data/postgresql.auto.conf", "");
  class AutoConfLocked : public OverlayFileSystem {
   public:
    explicit AutoConfLocked(const FileSystem* base) : OverlayFileSystem(base, "/project") {}
    // Reads through Read (the overlay would share its text without calling it).
    ReadStatus ReadShared(const std::string& p, SharedText* t, std::string* e) const override {
      return FileSystem::ReadShared(p, t, e);
    }
    ReadStatus Read(const std::string& p, std::string* t, std::string* e) const override {
      if (p.find("auto.conf") == std::string::npos) return OverlayFileSystem::Read(p, t, e);
      *e = "Permission denied";
      return ReadStatus::kNotReadable;
    }
  } locked(&fs);
  a = Collect(locked, "/project/data");
  ASSERT_EQ(a.failure, Analysis::Failure::kNone) << a.failure_message;
  ASSERT_EQ(Codes(a), std::vector<std::string>{"PGC304"});
  EXPECT_EQ(a.diagnostics[0].file, -1);
  EXPECT_EQ(a.settings.size(), 1u);
}

TEST(ConfTreeTest, FanOutOfSettingsStopsTheRootAtTheEntriesLimit) {
  // 10 lines including b.conf, which has 10 lines including c.conf: 100
  // loads of c.conf's 100 settings, over a limit lowered to 5,000 entries (the
  // hostile-input suite holds the default limit to a file of its size).
  FakeDisk disk;
  std::string a_text, b_text, c_text;
  for (int i = 0; i < 10; ++i) a_text += "include 'b.conf'\n", b_text += "include 'c.conf'\n";
  for (int i = 0; i < 100; ++i) c_text += "work_mem = '4MB'\n";
  std::string root = disk.Write("a.conf", a_text);
  disk.Write("b.conf", b_text);
  disk.Write("c.conf", c_text);
  CollectContext context;
  context.limits.max_entries = 5000;
  Analysis a = Collect(disk.fs(), root, context);
  EXPECT_EQ(a.failure, Analysis::Failure::kUsage);
  EXPECT_NE(a.failure_message.find("more than 5000 settings, include directives and pgconflint comments"),
            std::string::npos)
      << a.failure_message;
  EXPECT_LE(a.settings.size(), 5000u);
  context.limits.max_entries = 11000;
  a = Collect(disk.fs(), root, context);
  EXPECT_EQ(a.failure, Analysis::Failure::kNone) << a.failure_message;
  EXPECT_EQ(a.settings.size(), 10000u);
}

TEST(ConfTreeTest, BytesPerRootAreBounded) {
  FakeDisk disk;
  std::string root = disk.Write("postgresql.conf", "include 'a.conf'\ninclude 'b.conf'\ninclude 'a.conf'\n");
  disk.Write("a.conf", std::string(600, '#') + "\n");
  disk.Write("b.conf", std::string(600, '#') + "\n");
  CollectContext context;
  context.limits.max_bytes = 1300;  // a.conf counts once however often it is included
  Analysis a = Collect(disk.fs(), root, context);
  EXPECT_EQ(a.failure, Analysis::Failure::kNone) << a.failure_message;
  context.limits.max_bytes = 1200;
  a = Collect(disk.fs(), root, context);
  EXPECT_EQ(a.failure, Analysis::Failure::kUsage);
  EXPECT_NE(a.failure_message.find("hold more than 1200 bytes"), std::string::npos) << a.failure_message;
}

}  // namespace
}  // namespace pgconflint
