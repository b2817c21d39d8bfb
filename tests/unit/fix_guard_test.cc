// check --fix writes nothing the server would refuse: a file whose fixes
// leave a refusal it did not have keeps its bytes.
#include <gtest/gtest.h>

#include "cli/fix.h"
#include "core/workspace/workspace.h"

namespace pgconflint::cli {
namespace {

TEST(FixGuardTest, AFixThatLeavesARefusalIsNotWritten) {
  OverlayFileSystem fs(nullptr, "/d");
  fs.Set("/d/postgresql.conf", "work_mem = '4MB'\nport = 5432\nport = 5433\n");
  WorkspaceOptions o;
  o.fs = &fs;
  o.use_config = false;
  o.pg_version = 18;
  Workspace ws(o);
  std::vector<Analysis> analyses(1);
  std::string error;
  auto lint = [&] { return ws.ForgetAll(), ws.Lint("/d/postgresql.conf", &analyses[0], &error); };
  ASSERT_TRUE(lint()) << error;
  // A safe fix as a buggy rule could offer it: a value PostgreSQL refuses.
  Diagnostic bad = analyses[0].diagnostics.front();
  bad.fixes = {MakeFix("write 'bogus'", FixSafety::kSafe, {0, {11, 16}}, "'bogus'")};
  analyses[0].diagnostics = {bad};
  testing::internal::CaptureStderr();
  FixOutcome r = ApplySafeFixes(FixMode::kDiff, &fs, "", lint, &analyses);
  std::string said = testing::internal::GetCapturedStderr();
  EXPECT_EQ(r.files, 0) << "nothing is written";
  std::string text;
  fs.Read("/d/postgresql.conf", &text, &error);
  EXPECT_EQ(text, "work_mem = '4MB'\nport = 5432\nport = 5433\n");
  EXPECT_NE(said.find("were not applied"), std::string::npos) << said;
}

TEST(FixGuardTest, SafeFixesThatLeaveNoNewRefusalAreApplied) {
  OverlayFileSystem fs(nullptr, "/d");
  fs.Set("/d/postgresql.conf", "port = 5432\nport = 5433\n");
  WorkspaceOptions o;
  o.fs = &fs;
  o.use_config = false;
  o.pg_version = 18;
  Workspace ws(o);
  std::vector<Analysis> analyses(1);
  std::string error;
  auto lint = [&] { return ws.ForgetAll(), ws.Lint("/d/postgresql.conf", &analyses[0], &error); };
  ASSERT_TRUE(lint()) << error;
  testing::internal::CaptureStdout();
  FixOutcome r = ApplySafeFixes(FixMode::kDiff, &fs, "", lint, &analyses);
  testing::internal::GetCapturedStdout();
  EXPECT_EQ(r.files, 1);
  EXPECT_EQ(r.fixes, 1);  // the dead duplicate line goes
}

}  // namespace
}  // namespace pgconflint::cli
