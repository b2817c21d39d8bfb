// .gitignore patterns as git reads them: anchoring, directories only,
// negation, "**", and deeper files after shallower ones.
#include "core/base/git_ignore.h"

#include <gtest/gtest.h>

namespace pgconflint {
namespace {

TEST(GitIgnoreTest, PatternsAsGitReadsThem) {
  GitIgnore g;
  g.Add("/repo", "# build trees\n/build/\n/build-*/\n*.bak\n  \ncache/\n!keep.bak\ndocs/**/out\n\\#odd\n");
  EXPECT_TRUE(g.Ignored("/repo/build", true));
  EXPECT_FALSE(g.Ignored("/repo/build", false)) << "'build/' names a directory";
  EXPECT_FALSE(g.Ignored("/repo/src/build", true)) << "anchored by its leading '/'";
  EXPECT_TRUE(g.Ignored("/repo/build-asan", true));
  EXPECT_TRUE(g.Ignored("/repo/a/b/old.bak", false)) << "no '/': the name at any depth";
  EXPECT_FALSE(g.Ignored("/repo/a/keep.bak", false)) << "re-included by the later '!'";
  EXPECT_TRUE(g.Ignored("/repo/x/cache", true));
  EXPECT_TRUE(g.Ignored("/repo/docs/out", true)) << "'**' is zero directories too";
  EXPECT_TRUE(g.Ignored("/repo/docs/a/b/out", true));
  EXPECT_FALSE(g.Ignored("/repo/docs/a/b/output", true));
  EXPECT_TRUE(g.Ignored("/repo/#odd", false)) << "an escaped '#' is a pattern, not a comment";
  EXPECT_FALSE(g.Ignored("/elsewhere/x.bak", false)) << "outside the .gitignore's directory";
  EXPECT_FALSE(g.Ignored("/repo", true));
}

TEST(GitIgnoreTest, ADeeperFileDecidesLast) {
  GitIgnore g;
  g.Add("/repo", "*.conf\r\n");
  g.Add("/repo/deploy", "!postgresql.conf\nsub/x.conf\n");
  EXPECT_TRUE(g.Ignored("/repo/other/postgresql.conf", false));
  EXPECT_FALSE(g.Ignored("/repo/deploy/a/postgresql.conf", false)) << "re-included below deploy/";
  EXPECT_TRUE(g.Ignored("/repo/deploy/sub/x.conf", false)) << "anchored to deploy/";
  EXPECT_TRUE(g.Ignored("/repo/deploy-x/postgresql.conf", false)) << "deploy-x is not below deploy";
}

}  // namespace
}  // namespace pgconflint
