// The workspace: .pgconflint.toml, user rule files, selection, per-file
// ignores and severity overrides, the major, roots that include a file. Files
// live on the fake disk (fake_disk.h), except user rule files, which the
// runtime still reads from the real disk.
#include "core/workspace/workspace.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <sstream>
#include <vector>

#include "core/knowledge/catalog.h"
#include "fake_disk.h"
#include "report/reporter.h"

namespace pgconflint {
namespace {

namespace fs = std::filesystem;

// A workspace over the fake disk.
WorkspaceOptions On(FakeDisk& disk) {
  WorkspaceOptions o;
  o.fs = &disk.fs();
  return o;
}

std::vector<std::string> CodesWithSeverity(const Analysis& a) {
  std::vector<std::string> out;
  for (const Diagnostic& d : a.diagnostics) out.push_back(std::string(d.rule->code) + ":" + std::string(SeverityName(d.severity())));
  return out;
}

TEST(WorkspaceTest, ConfigFileIsFoundUpwardsAndApplied) {
  FakeDisk p;
  p.Write(".pgconflint.toml",
          "pg-version = 17\n"
          "ignore = [\"value-without-unit\"]\n"
          "[severity]\nPGC303 = \"warning\"\n"
          "[per-file-ignores]\n\"pg/conf.d/*.conf\" = [\"PGC103\"]\n"
          "[profile]\nstorage = \"nvme\"\n");
  std::string main = p.Write("pg/postgresql.conf", "io_method = worker\nwork_mem = 64\nwork_mem = '4MB'\ninclude_dir 'conf.d'\n");
  p.Write("pg/conf.d/a.conf", "sort_mem = '4MB'\n");
  Workspace linter(On(p));
  Analysis a;
  std::string error;
  ASSERT_TRUE(linter.Lint(main, &a, &error)) << error;
  EXPECT_EQ(linter.major().major, 17);
  // PGC102 (io_method is 18 only), the override as a warning, no PGC204 (ignored),
  // no PGC103 in conf.d; the profile's nvme makes random_page_cost 4 worth an info.
  std::vector<std::string> codes = CodesWithSeverity(a);
  EXPECT_NE(std::find(codes.begin(), codes.end(), "PGC102:error"), codes.end());
  EXPECT_NE(std::find(codes.begin(), codes.end(), "PGC303:warning"), codes.end());
  EXPECT_EQ(std::find(codes.begin(), codes.end(), "PGC204:info"), codes.end());
  EXPECT_EQ(std::find(codes.begin(), codes.end(), "PGC103:warning"), codes.end());
  EXPECT_NE(std::find(codes.begin(), codes.end(), "PGC702:info"), codes.end());
}

// A postgresql.conf at "/" (a container's or a chroot's): its data directory is "/", and its
// findings are its own (the data directory's file was "//postgresql.conf", which no file asked
// about matched, so that every finding was dropped).
TEST(WorkspaceTest, APostgresqlConfAtTheFileSystemRootKeepsItsFindings) {
  FakeDisk disk("/");
  disk.Write("/postgresql.conf", "shared_buffers = '1GB'\nwork_mem = = 4MB\n");
  WorkspaceOptions o = On(disk);
  o.use_config = false;
  Workspace ws(o);
  std::vector<LintTarget> targets = ws.TargetsFor("/postgresql.conf");
  ASSERT_EQ(targets.size(), 1u);
  EXPECT_EQ(targets[0].root, "/");
  Analysis a;
  std::string error;
  ASSERT_TRUE(ws.Lint(targets[0].root, &a, &error)) << error;
  ASSERT_FALSE(a.files.empty());
  EXPECT_EQ(a.files[0].abs_path, "/postgresql.conf");
  KeepFindingsOf(targets[0], &a);
  ASSERT_EQ(a.diagnostics.size(), 1u);
  EXPECT_STREQ(a.diagnostics[0].rule->code, "PGC001");
}

TEST(WorkspaceTest, MalformedConfigIsAConfigurationError) {
  FakeDisk p;
  p.Write(".pgconflint.toml", "pg-version = 12\n");
  std::string main = p.Write("postgresql.conf", "work_mem = '4MB'\n");
  Workspace linter(On(p));
  Analysis a;
  std::string error;
  EXPECT_FALSE(linter.Lint(main, &a, &error));
  EXPECT_NE(error.find(".pgconflint.toml:1"), std::string::npos) << error;
  p.Write(".pgconflint.toml", "selct = [\"PGC\"]\n");
  Workspace again(On(p));
  EXPECT_FALSE(again.Lint(main, &a, &error));
  EXPECT_NE(error.find("unknown key"), std::string::npos) << error;
}

// Options over `p` with one user rule (ORG001, fsync must stay on) loaded
// from policy/ and the selection `select`.
WorkspaceOptions WithOrgRule(FakeDisk& p, std::vector<std::string> select) {
  p.Write("policy/org.toml",
          "[[rule]]\ncode = \"ORG001\"\nname = \"fsync-must-stay-on\"\nseverity = \"error\"\n"
          "when = \"fsync == false\"\nmessage = \"fsync must stay on (it is {fsync})\"\n"
          "anchor = [\"fsync\"]\n");
  WorkspaceOptions o = On(p);
  o.rule_paths = {p.dir() + "/policy"};
  o.select = std::move(select);
  return o;
}

TEST(WorkspaceTest, UserRulesAreOneEntry) {
  FakeDisk p;
  WorkspaceOptions o = WithOrgRule(p, {"ORG"});
  std::string main = p.Write("postgresql.conf", "fsync = off\n");
  Workspace linter(o);
  Analysis a;
  std::string error;
  ASSERT_TRUE(linter.Lint(main, &a, &error)) << error;
  ASSERT_EQ(a.diagnostics.size(), 1u);
  EXPECT_EQ(std::string(a.diagnostics[0].rule->code), "ORG001");
  EXPECT_EQ(a.diagnostics[0].message, "fsync must stay on (it is off)");
  EXPECT_EQ(a.files[0].source.LineOf(a.diagnostics[0].range.begin), 1u);
}

TEST(WorkspaceTest, BadUserRuleFileNamesFileAndCause) {
  FakeDisk p;
  p.Write("bad/x.toml", "[[rule]]\ncode = \"ORG002\"\nname = \"x\"\nwhen = \"fsync ==\"\nmessage = \"m\"\n");
  WorkspaceOptions o = On(p);
  o.rule_paths = {p.dir() + "/bad"};
  Workspace linter(o);
  Analysis a;
  std::string error;
  EXPECT_FALSE(linter.Lint(p.Write("postgresql.conf", ""), &a, &error));
  EXPECT_NE(error.find("x.toml"), std::string::npos) << error;
  EXPECT_NE(error.find("when"), std::string::npos) << error;
}

TEST(WorkspaceTest, UserRuleWithAMisspeltNameIsRefused) {
  FakeDisk p;
  p.Write("typo/x.toml", "[[rule]]\ncode = \"ORG003\"\nname = \"fsync-on\"\nwhen = \"fsnyc == false\"\nmessage = \"m\"\n");
  WorkspaceOptions o = On(p);
  o.rule_paths = {p.dir() + "/typo"};
  Workspace linter(o);
  Analysis a;
  std::string error;
  EXPECT_FALSE(linter.Lint(p.Write("postgresql.conf", ""), &a, &error));
  EXPECT_NE(error.find("unknown name \"fsnyc\""), std::string::npos) << error;
}

// A selector that selects no rule is a typo, never a silent "no findings".
TEST(WorkspaceTest, SelectorsThatSelectNoRuleAreRefused) {
  FakeDisk p;
  std::string main = p.Write("postgresql.conf", "work_mem = 64 MB\n");
  struct {
    std::vector<std::string> select, ignore;
    const char* config;
    const char* expected;
  } cases[] = {
      {{"PGC0O1"}, {}, nullptr, "--select: \"PGC0O1\" selects no rule (did you mean \"PGC001\"?)"},
      {{"PGC0"}, {"setting-overriden"}, nullptr,
       "--ignore: \"setting-overriden\" selects no rule (did you mean \"setting-overridden\"?)"},
      {{}, {}, "select = [\"PGC9999\"]\n", "/project/.pgconflint.toml: select: \"PGC9999\" selects no rule"},
      {{}, {}, "ignore = [\"xyz\"]\n", "/project/.pgconflint.toml: ignore: \"xyz\" selects no rule"},
  };
  for (const auto& c : cases) {
    p.Write(".pgconflint.toml", c.config ? c.config : "");
    WorkspaceOptions o = On(p);
    o.select = c.select;
    o.ignore = c.ignore;
    Workspace linter(o);
    Analysis a;
    std::string error;
    EXPECT_FALSE(linter.Lint(main, &a, &error)) << c.expected;
    EXPECT_NE(error.find(c.expected), std::string::npos) << error;
  }
  // Prefixes, names, ALL and user rule codes select.
  p.Write(".pgconflint.toml", "select = [\"ALL\"]\nignore = [\"PGC2\", \"syntax-error\"]\n");
  Workspace fine(On(p));
  Analysis a;
  std::string error;
  EXPECT_TRUE(fine.Lint(main, &a, &error)) << error;
}

// extra-rules come from the repository: like includes, confined to the
// project configuration's directory unless allow-outside-includes says so.
TEST(WorkspaceTest, ExtraRulesOutsideTheProjectAreNotRead) {
  FakeDisk p;
  p.fs().Set("/home/user/secret.toml", "token = 'hunter2'\n");
  std::string main = p.Write("postgresql.conf", "work_mem = '4MB'\n");
  p.Write(".pgconflint.toml", "extra-rules = [\"/home/user/secret.toml\"]\n");
  Workspace confined(On(p));
  Analysis a;
  std::string error;
  EXPECT_FALSE(confined.Lint(main, &a, &error));
  EXPECT_NE(error.find("/home/user/secret.toml: outside /project: not read (--allow-outside-includes reads it)"),
            std::string::npos)
      << error;
  EXPECT_EQ(error.find("hunter2"), std::string::npos);
  // The repository's configuration cannot lift its own confinement.
  p.Write(".pgconflint.toml", "extra-rules = [\"/home/user/secret.toml\"]\nallow-outside-includes = true\n");
  Workspace lifted(On(p));
  EXPECT_FALSE(lifted.Lint(main, &a, &error));
  EXPECT_NE(error.find("outside /project: not read"), std::string::npos) << error;
  std::vector<std::string> notices = lifted.TakeNotices();
  ASSERT_EQ(notices.size(), 1u);
  EXPECT_NE(notices[0].find("allow-outside-includes = true in /project/.pgconflint.toml is ignored"), std::string::npos);
  // A configuration the user names from outside the current directory may: read (and refused
  // for what it is, not for where it is).
  p.fs().Set("/home/user/trusted.toml", "extra-rules = [\"/home/user/secret.toml\"]\nallow-outside-includes = true\n");
  WorkspaceOptions named = On(p);
  named.config_path = "/home/user/trusted.toml";
  Workspace allowed(named);
  EXPECT_FALSE(allowed.Lint(main, &a, &error));
  EXPECT_EQ(error.find("outside"), std::string::npos) << error;
  // --rules is the user's own choice: read wherever it is.
  p.Write(".pgconflint.toml", "");
  WorkspaceOptions o = On(p);
  p.fs().Set("/home/user/org.toml", "[[rule]]\ncode = \"ORG001\"\nname = \"x\"\nwhen = \"fsync == false\"\nmessage = \"m\"\n");
  o.rule_paths = {"/home/user/org.toml"};
  Workspace flags(o);
  EXPECT_TRUE(flags.Lint(main, &a, &error)) << error;
}

// An include outside the root's directory is read when the project
// configuration's directory holds it, or when allowed.
TEST(WorkspaceTest, TheTreeIsTheRootsDirectoryAndTheConfigurations) {
  FakeDisk p;
  p.Write("common/common.conf", "work_mem = '4MB'\n");
  p.fs().Set("/elsewhere/x.conf", "work_mem = '4MB'\n");
  std::string main = p.Write("pg/postgresql.conf", "include '../common/common.conf'\ninclude '/elsewhere/x.conf'\n");
  for (bool with_config : {false, true}) {
    if (with_config) p.Write(".pgconflint.toml", "");
    else p.fs().Remove("/project/.pgconflint.toml");
    Workspace linter(On(p));
    Analysis a;
    std::string error;
    ASSERT_TRUE(linter.Lint(main, &a, &error)) << error;
    std::vector<std::string> codes = CodesWithSeverity(a);
    EXPECT_EQ(std::count(codes.begin(), codes.end(), "PGC305:warning"), with_config ? 1 : 2) << with_config;
  }
  WorkspaceOptions o = On(p);
  o.allow_outside_includes = true;
  Workspace allowed(o);
  Analysis a;
  std::string error;
  ASSERT_TRUE(allowed.Lint(main, &a, &error)) << error;
  std::vector<std::string> codes = CodesWithSeverity(a);
  EXPECT_EQ(std::count(codes.begin(), codes.end(), "PGC305:warning"), 0);
  EXPECT_EQ(a.files.size(), 3u);
}

TEST(WorkspaceTest, SuppressionsOnTheLineTheNextSettingAndTheFile) {
  RuleSet rules;
  Profile profile;
  Analysis a = LintText("postgresql.conf",
                        "work_mem = 10  # pgconflint: disable=value-out-of-range # legacy test box\n"
                        "# pgconflint: disable=PGC204\n"
                        "shared_buffers = 16384\n"
                        "# pgconflint: disable-file=PGC303\n"
                        "port = 5432\nport = 5433\n"
                        "temp_buffers = '8MB'  # pgconflint: disable=PGC202\n",
                        *Catalog::ForMajor(18), rules, profile);
  std::vector<std::string> codes = CodesWithSeverity(a);
  EXPECT_EQ(codes, (std::vector<std::string>{"PGC901:warning"})) << "only the unused suppression on line 7";
  EXPECT_FALSE(a.fatal()) << "the suppressed refusal is not reported: the summary and the exit code agree";
}

TEST(WorkspaceTest, PgVersionDirectiveOnlyInRealComments) {
  FakeDisk p;
  std::string quoted = p.Write("a/postgresql.conf", "cluster_name = 'a # pgconflint: pg-version=14'\n");
  std::string real = p.Write("b/postgresql.conf", "# pgconflint: pg-version=14\ncluster_name = 'a'\n");
  Workspace ws(On(p));
  Analysis a;
  std::string error;
  ASSERT_TRUE(ws.Lint(quoted, &a, &error)) << error;
  EXPECT_EQ(ws.major().major, Catalog::DefaultMajor()) << "a directive inside a quoted value is no directive";
  ASSERT_TRUE(ws.Lint(real, &a, &error)) << error;
  EXPECT_EQ(ws.major().major, 14);
  EXPECT_EQ(ws.major().reason, "pg-version directive in " + real);
}

TEST(WorkspaceTest, EachFileIsReadOnceAcrossRootsAndAgainAfterForget) {
  // Counts reads of an overlay.
  class CountingFs : public OverlayFileSystem {
   public:
    CountingFs() : OverlayFileSystem(nullptr, "/p") {}
    // Reads through Read (the overlay would share its text without calling it).
    ReadStatus ReadShared(const std::string& p, SharedText* t, std::string* e) const override {
      return FileSystem::ReadShared(p, t, e);
    }
    ReadStatus Read(const std::string& path, std::string* text, std::string* error) const override {
      ++reads[path];
      return OverlayFileSystem::Read(path, text, error);
    }
    mutable std::map<std::string, int> reads;
  } fs;
  fs.Set("/p/postgresql.conf", "include 'shared.conf'\n");
  fs.Set("/p/other.conf", "include 'shared.conf'\n");
  fs.Set("/p/shared.conf", "work_mem = '4MB'\n");
  WorkspaceOptions o;
  o.fs = &fs;
  Workspace ws(o);
  Analysis a;
  std::string error;
  ASSERT_TRUE(ws.Lint("/p/postgresql.conf", &a, &error));
  ASSERT_TRUE(ws.Lint("/p/other.conf", &a, &error));
  EXPECT_EQ(fs.reads["/p/shared.conf"], 1);
  EXPECT_EQ(fs.reads["/p/postgresql.conf"], 1) << "the directive scan and the analysis share one read";
  fs.Set("/p/shared.conf", "wal_buffers = 64\n");
  ws.Forget("/p/shared.conf");
  ASSERT_TRUE(ws.Lint("/p/other.conf", &a, &error));
  EXPECT_EQ(fs.reads["/p/shared.conf"], 2);
  ASSERT_EQ(a.diagnostics.size(), 1u);
  EXPECT_EQ(std::string(a.diagnostics[0].rule->code), "PGC204");
}

TEST(WorkspaceTest, RootsIncludingAFragment) {
  FakeDisk p;
  p.Write("data/postgresql.conf", "include_dir 'conf.d'\ninclude 'tuning/t.conf'\n");
  std::string fragment = p.Write("data/conf.d/10-memory.conf", "work_mem = '8MB'\n");
  std::string nested = p.Write("data/tuning/t.conf", "include 'deeper/x.conf'\n");
  std::string deeper = p.Write("data/tuning/deeper/x.conf", "port = 5433\n");
  std::string stray = p.Write("data/conf.d/notes.txt", "not included\n");
  std::string elsewhere = p.Write("other/x.conf", "port = 1\n");
  Workspace ws(On(p));
  EXPECT_EQ(ws.RootsIncluding(fragment), std::vector<std::string>{"/project/data"});
  EXPECT_EQ(ws.RootsIncluding(nested), std::vector<std::string>{"/project/data"});
  EXPECT_EQ(ws.RootsIncluding(deeper), std::vector<std::string>{"/project/data"});
  EXPECT_TRUE(ws.RootsIncluding(stray).empty()) << "not PostgreSQL configuration";
  EXPECT_EQ(ws.RootsIncluding(elsewhere), std::vector<std::string>{elsewhere}) << "no root reads it: its own";
}

// The acceptance property of the file-system seam: over every corpus file,
// the real disk and an overlay holding the same bytes (and nothing else) give
// byte-identical JSON.
TEST(WorkspaceTest, OverlayAndRealDiskAgreeOnTheCorpus) {
  const fs::path corpus = fs::path(PGC_SOURCE_DIR) / ".." / "shared" / "corpus" / "real-world";
  if (!fs::is_directory(corpus)) GTEST_SKIP() << "no corpus next to the repository";
  RealFileSystem real;
  int compared = 0;
  for (const auto& entry : fs::directory_iterator(corpus)) {
    if (!entry.is_regular_file() || entry.path().filename() == "MANIFEST.tsv") continue;
    const std::string path = fs::canonical(entry.path()).string();
    auto render = [&](const FileSystem& disk, Analysis* a) {
      WorkspaceOptions o;
      o.fs = &disk;
      o.use_config = false;
      o.display_base = corpus.string();
      Workspace ws(o);
      std::string error;
      EXPECT_TRUE(ws.Lint(path, a, &error)) << error;
      std::ostringstream out;
      ReportOptions ro;
      ro.pg_version = ws.major().major;
      FindReporter("json")->render({*a}, ro, out);
      return out.str();
    };
    Analysis from_disk;
    std::string expected = render(real, &from_disk);
    OverlayFileSystem overlay(nullptr, real.CurrentDirectory());
    for (const LoadedFile& f : from_disk.files) {
      std::string text, error;
      ASSERT_EQ(real.Read(f.abs_path, &text, &error), ReadStatus::kOk) << f.abs_path;
      overlay.Set(f.abs_path, text);
    }
    Analysis from_overlay;
    EXPECT_EQ(render(overlay, &from_overlay), expected) << path;
    ++compared;
  }
  EXPECT_GT(compared, 100);
}

}  // namespace
}  // namespace pgconflint

namespace pgconflint {
namespace {

// Issue 9: the major comes from a data directory's PG_VERSION when nothing
// else names it, and the reason says so.
TEST(WorkspaceTest, MajorIsInferredFromPgVersion) {
  FakeDisk p;
  p.Write("data/PG_VERSION", "16\n");
  std::string main = p.Write("data/postgresql.conf", "work_mem = '4MB'\n");
  std::string other = p.Write("elsewhere/postgresql.conf", "work_mem = '4MB'\n");
  WorkspaceOptions o = On(p);
  o.use_config = false;
  Workspace linter(o);
  Analysis a;
  std::string error;
  ASSERT_TRUE(linter.Lint(main, &a, &error)) << error;
  EXPECT_EQ(linter.major().major, 16);
  EXPECT_EQ(linter.major().reason, "PG_VERSION in " + p.dir() + "/data");
  ASSERT_TRUE(linter.Lint(other, &a, &error)) << error;
  EXPECT_EQ(linter.major().major, Catalog::DefaultMajor());
  EXPECT_NE(linter.major().reason.find("the default"), std::string::npos);
}

// A rule file's rule that the selection excludes is said, once.
TEST(WorkspaceTest, ExcludedUserRuleIsANotice) {
  FakeDisk p;
  WorkspaceOptions o = WithOrgRule(p, {"PGC"});
  std::string main = p.Write("postgresql.conf", "fsync = off\n");
  Workspace linter(o);
  Analysis a;
  std::string error;
  ASSERT_TRUE(linter.Lint(main, &a, &error)) << error;
  std::vector<std::string> notices = linter.TakeNotices();
  ASSERT_EQ(notices.size(), 1u);
  EXPECT_NE(notices[0].find("ORG001"), std::string::npos) << notices[0];
  EXPECT_TRUE(linter.TakeNotices().empty());
}

}  // namespace
}  // namespace pgconflint
