// The harvested module catalogs and user catalog files.
#include "core/knowledge/extension_catalog.h"

#include <gtest/gtest.h>

namespace pgconflint {
namespace {

TEST(ExtensionCatalogTest, BuiltinCatalogsOfEveryMajor) {
  for (int major : Catalog::SupportedMajors()) {
    const ExtensionCatalog* c = ExtensionCatalog::ForMajor(major);
    ASSERT_NE(c, nullptr) << major;
    const ExtensionParameter* p = c->Find("PG_STAT_STATEMENTS.MAX");
    ASSERT_NE(p, nullptr) << major;
    EXPECT_EQ(p->param.context, Context::kPostmaster);
    EXPECT_FALSE(p->defined_by_load);
    EXPECT_STREQ(c->modules()[p->module].name, "pg_stat_statements");
    EXPECT_NE(c->FindModule("auto_explain"), nullptr);
    EXPECT_EQ(c->FindModule("Auto_Explain"), nullptr);  // library names are file names
    EXPECT_NE(c->ModuleForPrefix("pltclu"), nullptr);
    EXPECT_EQ(p->shared_memory_per_unit > 0, major >= 15) << major;
  }
}

TEST(ExtensionCatalogTest, UserCatalog) {
  std::string error;
  auto c = UserExtensionCatalog::Parse(R"(
[[module]]
name = "citus"
reserves-prefixes = true
[[module.parameter]]
name = "citus.shard_count"
type = "integer"
min = "1"
max = "64000"
default = "32"
[[module.parameter]]
name = "citus.log_level"
type = "enum"
values = ["debug", "info"]
default = "info"
)", "citus.toml", 18, &error);
  ASSERT_TRUE(c) << error;
  ExtensionSet set;
  set.builtin = ExtensionCatalog::ForMajor(18);
  set.user.push_back(c.get());
  const ExtensionParameter* p = set.Find("citus.shard_count");
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->param.type, VarType::kInteger);
  EXPECT_EQ(p->param.max, 64000);
  EXPECT_STREQ(set.ModuleOf(*p).name, "citus");
  const ExtensionPrefix* prefix = nullptr;
  ASSERT_NE(set.ModuleForPrefix("citus", &prefix), nullptr);
  EXPECT_TRUE(prefix->reserved);
  EXPECT_NE(set.Find("auto_explain.log_analyze"), nullptr);
}

TEST(ExtensionCatalogTest, UserCatalogErrorsNameTheLine) {
  std::string error;
  EXPECT_FALSE(UserExtensionCatalog::Parse("[[module]]\nname = \"x\"\ncolour = 1\n", "x.toml", 18, &error));
  EXPECT_EQ(error, "x.toml:3: unknown module key \"colour\"");
  EXPECT_FALSE(UserExtensionCatalog::Parse("[[module]]\nname = \"x\"\n[[module.parameter]]\nname = \"nodot\"\n",
                                           "x.toml", 18, &error));
  EXPECT_NE(error.find("x.toml:3:"), std::string::npos) << error;
  EXPECT_FALSE(UserExtensionCatalog::Parse("module = [", "x.toml", 18, &error));
}

}  // namespace
}  // namespace pgconflint
