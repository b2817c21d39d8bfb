// A unit in the wrong letter case, spelled as the server spells it.
#include "core/knowledge/unit_spelling.h"

#include <gtest/gtest.h>

#include "core/knowledge/catalog.h"

namespace pgconflint {
namespace {

const Parameter& Param(const char* name) { return *Catalog::ForMajor(18)->Find(name); }

TEST(UnitSpellingTest, OnlyTheCaseOfAUnitIsFixed) {
  struct Case {
    const char* parameter;
    const char* text;
    std::optional<std::string> fixed;
  };
  const Case cases[] = {
      {"shared_buffers", "2gb", "2GB"}, {"work_mem", "512 mb ", "512 MB "}, {"work_mem", "64KB", "64kB"},
      {"checkpoint_timeout", "10MIN", "10min"}, {"statement_timeout", "5 S", "5 s"}, {"statement_timeout", "1Ms", "1ms"},
      // Spelled right, no unit, a unit of the other kind, no such unit, no number.
      {"shared_buffers", "2GB", std::nullopt}, {"shared_buffers", "2", std::nullopt},
      {"shared_buffers", "2MIN", std::nullopt}, {"shared_buffers", "2gib", std::nullopt},
      {"shared_buffers", "gb", std::nullopt}};
  for (const Case& c : cases) EXPECT_EQ(UnitCaseFixed(Param(c.parameter), c.text), c.fixed) << c.parameter << " " << c.text;
}

}  // namespace
}  // namespace pgconflint
