// Which authentication files a root has, and how a PATH is read.
#include "core/hba/hba_source.h"

#include <gtest/gtest.h>

#include "core/workspace/workspace.h"

namespace pgconflint {
namespace {

TEST(HbaSourceTest, RootFileTypes) {
  RootFileType t;
  EXPECT_TRUE(ParseRootFileType("ident", &t));
  EXPECT_EQ(t, RootFileType::kIdent);
  EXPECT_FALSE(ParseRootFileType("HBA", &t));
}

class HbaSourceWorkspaceTest : public testing::Test {
 protected:
  Analysis Lint(const std::string& root, RootFileType type = RootFileType::kAuto) {
    WorkspaceOptions o;
    o.fs = &fs_;
    o.use_config = false;
    o.file_type = type;
    Workspace ws(o);
    Analysis a;
    std::string error;
    EXPECT_TRUE(ws.Lint(root, &a, &error)) << error;
    return a;
  }
  OverlayFileSystem fs_;
};

TEST_F(HbaSourceWorkspaceTest, DataDirectoryReadsBothFiles) {
  fs_.Set("/data/postgresql.conf", "ssl = on\n");
  fs_.Set("/data/pg_hba.conf", "hostssl all all all cert map=m\n");
  fs_.Set("/data/pg_ident.conf", "m alice postgres\n");
  Analysis a = Lint("/data");
  ASSERT_TRUE(a.auth);
  EXPECT_GE(a.auth->hba_file, 0);
  EXPECT_GE(a.auth->ident_file, 0);
  EXPECT_EQ(a.files[a.auth->hba_file].kind, FileKind::kHba);
  EXPECT_TRUE(a.diagnostics.empty()) << a.diagnostics[0].message;
}

TEST_F(HbaSourceWorkspaceTest, HbaFileSettingNamesTheFile) {
  fs_.Set("/etc/pg/postgresql.conf", "hba_file = '/etc/pg/my_hba.conf'\n");
  fs_.Set("/etc/pg/my_hba.conf", "local all all bogus\n");
  Analysis a = Lint("/etc/pg/postgresql.conf");
  ASSERT_TRUE(a.auth);
  ASSERT_EQ(a.diagnostics.size(), 1u);
  EXPECT_STREQ(a.diagnostics[0].rule->code, "PGC831");
  // Without hba_file, a config file's defaults depend on how the server starts: nothing read.
  fs_.Set("/etc/pg/postgresql.conf", "work_mem = '8MB'\n");
  fs_.Set("/etc/pg/pg_hba.conf", "bogus\n");
  EXPECT_FALSE(Lint("/etc/pg/postgresql.conf").auth);
}

TEST_F(HbaSourceWorkspaceTest, APgHbaConfIsItsDataDirectorysWithOnlyItsFindings) {
  fs_.Set("/d/pg_hba.conf", "hostssl all all all scram-sha-256\n");
  Analysis a = Lint("/d/pg_hba.conf");
  EXPECT_TRUE(a.diagnostics.empty());  // alone, ssl is unknown: hostssl not judged
  fs_.Set("/d/postgresql.conf", "ssl = off\nwork_mem = 1\n");
  WorkspaceOptions o;
  o.fs = &fs_;
  o.use_config = false;
  Workspace ws(o);
  std::vector<LintTarget> targets = ws.TargetsFor("/d/pg_hba.conf");
  ASSERT_EQ(targets.size(), 1u);
  EXPECT_EQ(targets[0].root, "/d");
  EXPECT_EQ(targets[0].input.kind, InputKind::kHba);
  std::string error;
  ASSERT_TRUE(ws.Lint(targets[0].root, &a, &error)) << error;
  KeepFindingsOf(targets[0], &a);
  ASSERT_EQ(a.diagnostics.size(), 1u);  // the conf's own findings are not the file's
  EXPECT_STREQ(a.diagnostics[0].rule->code, "PGC838");
}

TEST_F(HbaSourceWorkspaceTest, FileTypeFlagReadsAnyName) {
  fs_.Set("/d/hba.txt", "local all all trust\nbogus\n");
  Analysis a = Lint("/d/hba.txt", RootFileType::kHba);
  ASSERT_TRUE(a.auth);
  EXPECT_EQ(a.auth->hba.size(), 2u);
  Analysis missing = Lint("/d/nope_hba.txt", RootFileType::kHba);
  EXPECT_NE(missing.failure, Analysis::Failure::kNone);
}

}  // namespace
}  // namespace pgconflint
