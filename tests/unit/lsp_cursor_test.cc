// Words, parameters, directives and settings under the cursor.
#include "lsp/cursor.h"

#include <gtest/gtest.h>

#include "core/workspace/workspace.h"

namespace pgconflint::lsp {
namespace {

Analysis LintCursor(const std::string& text) {
  static const RuleSet rules;
  return LintText("/d/postgresql.conf", text, *Catalog::ForMajor(Catalog::DefaultMajor()), rules, Profile());
}

TEST(CursorTest, WordsAroundAnOffset) {
  std::string_view t = "  work_mem = 64MB # pgconflint: disable=PGC201,value-rounded";
  Range r = WordAround(t, 5, IsNameChar);
  EXPECT_EQ(t.substr(r.begin, r.end - r.begin), "work_mem");
  r = WordAround(t, 10, IsNameChar);  // at the end of the name
  EXPECT_EQ(t.substr(r.begin, r.end - r.begin), "work_mem");
  r = WordAround(t, 11, IsNameChar);  // on a blank
  EXPECT_EQ(r.begin, r.end);
  size_t code = t.find("PGC201");
  r = WordAround(t, static_cast<uint32_t>(code + 3), IsRuleChar);
  EXPECT_EQ(t.substr(r.begin, r.end - r.begin), "PGC201");
  r = WordAround(t, static_cast<uint32_t>(t.size()), IsRuleChar);
  EXPECT_EQ(t.substr(r.begin, r.end - r.begin), "value-rounded");
  EXPECT_TRUE(IsNameChar('\xc3'));  // guc-file.l: bytes above 0x7f are letters
  EXPECT_EQ(WordAround("x", 99, IsNameChar).end, 1u);
}

TEST(CursorTest, OldNamesResolveToTheirParameter) {
  const Catalog& cat = *Catalog::ForMajor(Catalog::DefaultMajor());
  ASSERT_FALSE(cat.aliases().empty());
  const Alias& al = cat.aliases()[0];
  bool old_name = false;
  const Parameter* p = ParameterNamed(cat, al.old_name, &old_name);
  ASSERT_NE(p, nullptr);
  EXPECT_TRUE(old_name);
  EXPECT_EQ(AsciiLower(p->name), AsciiLower(al.new_name));
  EXPECT_EQ(ParameterNamed(cat, "WORK_MEM", &old_name), cat.Find("work_mem"));
  EXPECT_FALSE(old_name);
  EXPECT_EQ(ParameterNamed(cat, "no_such_parameter", &old_name), nullptr);
  EXPECT_EQ(ParameterNamed(cat, "", &old_name), nullptr);
}

TEST(CursorTest, DirectivesAndSettings) {
  Analysis a = LintCursor("port = 5432  # pgconflint: disable=PGC204\n#  pgconflint: pg-version=17\n## pgconflint: x\n# plain\n");
  const LoadedFile& f = a.files[0];
  const std::string& text = f.source.text();
  EXPECT_NE(DirectiveAt(f, static_cast<uint32_t>(text.find("PGC204"))), nullptr);
  EXPECT_NE(DirectiveAt(f, static_cast<uint32_t>(text.find("pg-version"))), nullptr);
  EXPECT_EQ(DirectiveAt(f, static_cast<uint32_t>(text.find(": x"))), nullptr);  // not a directive for the core either
  EXPECT_EQ(DirectiveAt(f, static_cast<uint32_t>(text.find("plain"))), nullptr);
  EXPECT_EQ(DirectiveAt(f, 1), nullptr);
  const Setting* s = SettingAt(a, 0, static_cast<uint32_t>(text.find("5432")));
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->name, "port");
  EXPECT_EQ(SettingAt(a, 0, static_cast<uint32_t>(text.find("plain"))), nullptr);
}

}  // namespace
}  // namespace pgconflint::lsp
