// The text helpers the output formats share (src/report/text.h). Here:
// JsonWithoutRawControls, which the JSON-based CI formats pass their output
// through; the escapes of the text formats are covered by report_test.cc and
// tests/integration/test_text_escaping.py.
#include "report/text.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace pgconflint {
namespace {

TEST(TextTest, JsonWithoutRawControlsEscapesDelAndC1AndKeepsTheDocument) {
  // DEL, U+0080, U+009B (CSI) and U+009F raw in a string, as nlohmann writes them.
  std::string value = "a\x7f" "b\xc2\x80" "c\xc2\x9b" "d\xc2\x9f" "e";
  std::string dumped = nlohmann::json{{"snippet", value}}.dump();
  ASSERT_NE(dumped.find('\x7f'), std::string::npos);
  std::string out = JsonWithoutRawControls(dumped);
  EXPECT_EQ(out, R"({"snippet":"a\u007fb\u0080c\u009bd\u009fe"})");
  EXPECT_EQ(nlohmann::json::parse(out)["snippet"], value) << "the same string";
}

TEST(TextTest, JsonWithoutRawControlsKeepsOtherUtf8) {
  // é (C3 A9), U+00A0 (C2 A0: a C2 lead byte that is no control), an emoji.
  std::string dumped = nlohmann::json{{"v", "caf\xc3\xa9 \xc2\xa0 \xf0\x9f\x90\x98"}}.dump();
  EXPECT_EQ(JsonWithoutRawControls(dumped), dumped);
  EXPECT_EQ(JsonWithoutRawControls(""), "");
}

}  // namespace
}  // namespace pgconflint
