// Encodings, positions, URIs and parameter reading.
#include "lsp/protocol.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "core/base/file_system.h"

namespace pgconflint::lsp {
namespace {

TEST(ProtocolTest, NegotiatesThePositionEncoding) {
  EXPECT_EQ(NegotiateEncoding(json::object()), ColumnUnit::kUtf16);
  EXPECT_EQ(NegotiateEncoding({{"general", {{"positionEncodings", {"utf-16"}}}}}), ColumnUnit::kUtf16);
  EXPECT_EQ(NegotiateEncoding({{"general", {{"positionEncodings", {"utf-16", "utf-32"}}}}}), ColumnUnit::kCodePoint);
  EXPECT_EQ(NegotiateEncoding({{"general", {{"positionEncodings", {"utf-32", "utf-8", "utf-16"}}}}}),
            ColumnUnit::kUtf8);
  EXPECT_EQ(NegotiateEncoding({{"general", {{"positionEncodings", {"latin-1"}}}}}), ColumnUnit::kUtf16);
  EXPECT_EQ(NegotiateEncoding({{"offsetEncoding", {"utf-8", "utf-16"}}}), ColumnUnit::kUtf8);
  EXPECT_EQ(NegotiateEncoding({{"general", "nonsense"}}), ColumnUnit::kUtf16);
  EXPECT_STREQ(EncodingName(ColumnUnit::kCodePoint), "utf-32");
}

// "é" is 2 bytes, 1 UTF-16 unit, 1 code point; the emoji 4 bytes, 2 units, 1 code point.
TEST(ProtocolTest, PositionsCountInTheNegotiatedUnit) {
  SourceFile f("x", "# é 😀\nwork_mem = x\n");
  const uint32_t w = static_cast<uint32_t>(f.text().find("work"));
  const uint32_t end_of_emoji = static_cast<uint32_t>(f.text().find('\n'));
  EXPECT_EQ(PositionJson(f, end_of_emoji, ColumnUnit::kUtf8), json({{"line", 0}, {"character", 9}}));
  EXPECT_EQ(PositionJson(f, end_of_emoji, ColumnUnit::kUtf16), json({{"line", 0}, {"character", 6}}));
  EXPECT_EQ(PositionJson(f, end_of_emoji, ColumnUnit::kCodePoint), json({{"line", 0}, {"character", 5}}));
  EXPECT_EQ(PositionJson(f, w, ColumnUnit::kUtf16), json({{"line", 1}, {"character", 0}}));
  for (ColumnUnit u : {ColumnUnit::kUtf8, ColumnUnit::kUtf16, ColumnUnit::kCodePoint})
    EXPECT_EQ(OffsetOfPosition(f, PositionJson(f, end_of_emoji, u), u), end_of_emoji);
}

TEST(ProtocolTest, PositionsOutsideTheTextAreClamped) {
  SourceFile f("x", "ab\ncd\n");
  EXPECT_EQ(OffsetOfPosition(f, {{"line", -5}, {"character", -1}}, ColumnUnit::kUtf16), 0u);
  EXPECT_EQ(OffsetOfPosition(f, {{"line", 0}, {"character", 99}}, ColumnUnit::kUtf16), 2u);
  EXPECT_EQ(OffsetOfPosition(f, {{"line", 99999999999}, {"character", 0}}, ColumnUnit::kUtf16), 6u);
  EXPECT_THROW(OffsetOfPosition(f, {{"line", "0"}, {"character", 0}}, ColumnUnit::kUtf16), RpcError);
  EXPECT_THROW(OffsetOfPosition(f, {{"line", 1.5}, {"character", 0}}, ColumnUnit::kUtf16), RpcError);
  Range r = RangeOf(f, {{"start", {{"line", 1}, {"character", 1}}}, {"end", {{"line", 0}, {"character", 1}}}},
                    ColumnUnit::kUtf16);
  EXPECT_EQ(r.begin, 1u);  // swapped
  EXPECT_EQ(r.end, 4u);
}

TEST(ProtocolTest, UrisAndPaths) {
  EXPECT_EQ(PathToUri("/etc/postgresql/17/main/postgresql.conf"), "file:///etc/postgresql/17/main/postgresql.conf");
  EXPECT_EQ(PathToUri("/tmp/a b/é%.conf"), "file:///tmp/a%20b/%C3%A9%25.conf");
  std::string path;
  ASSERT_TRUE(UriToPath("file:///tmp/a%20b/%C3%A9%25.conf", &path));
  EXPECT_EQ(path, "/tmp/a b/é%.conf");
  ASSERT_TRUE(UriToPath("FILE://localhost/x//y/../z", &path));
  EXPECT_EQ(path, "/x/z");
  EXPECT_FALSE(UriToPath("untitled:Untitled-1", &path));
  EXPECT_FALSE(UriToPath("file://server/share/x", &path));
  EXPECT_FALSE(UriToPath("file:///bad%2", &path));
  EXPECT_FALSE(UriToPath("file:///nul%00byte", &path));
  EXPECT_FALSE(UriToPath("", &path));
}

TEST(ProtocolTest, MissingOrMistypedParametersAreInvalidParams) {
  json params = {{"textDocument", {{"uri", 7}}}, {"n", 3}, {"list", {1, 2}}};
  try {
    String(Object(params, "textDocument"), "uri");
    FAIL();
  } catch (const RpcError& e) {
    EXPECT_EQ(e.code, kInvalidParams);
    EXPECT_STREQ(e.what(), "uri: expected a string");
  }
  EXPECT_THROW(Object(params, "missing"), RpcError);
  EXPECT_THROW(Object(json::array(), "x"), RpcError);
  EXPECT_EQ(Integer(params, "n"), 3);
  EXPECT_EQ(Array(params, "list").size(), 2u);
  EXPECT_EQ(Find(params, "missing"), nullptr);
  EXPECT_EQ(StringOr(params, "n", "fallback"), "fallback");
}

TEST(ProtocolTest, DumpReplacesInvalidUtf8) {
  EXPECT_EQ(Dump(json("a\xff" "b")), "\"a\xEF\xBF\xBD" "b\"");
}

// The writer's text is what Dump writes for the same value: keys in the
// order given (callers give them in name order, as a json object holds them),
// strings escaped alike, whatever their bytes.
RC_GTEST_PROP(ProtocolProperty, JsonWriterWritesWhatDumpWrites, (std::string text, int64_t n)) {
  JsonWriter w;
  w.BeginObject().Key("a").String(text).Key("b").BeginArray().Int(n).String(text).EndArray();
  w.Key("c").BeginObject().EndObject().Key("d").BeginArray().EndArray().EndObject();
  json value = {{"a", text}, {"b", {n, text}}, {"c", json::object()}, {"d", json::array()}};
  RC_ASSERT(w.Take() == Dump(value));
}

// context.only asks for a kind by naming it or a parent of it; an action
// without a kind only when no kinds are named.
TEST(ProtocolTest, ActionKindsAreAskedByThemselvesOrAParent) {
  for (const char* kind : {"quickfix", "source.fixAll.pgconflint", ""}) {
    EXPECT_TRUE(ActionKindWanted(nullptr, kind)) << kind;
    const json not_a_list = "quickfix";
    EXPECT_TRUE(ActionKindWanted(&not_a_list, kind)) << kind;
  }
  const json quickfix = json::array({"quickfix"});
  EXPECT_TRUE(ActionKindWanted(&quickfix, "quickfix"));
  EXPECT_FALSE(ActionKindWanted(&quickfix, "quickfixes"));
  EXPECT_FALSE(ActionKindWanted(&quickfix, "source.fixAll.pgconflint"));
  EXPECT_FALSE(ActionKindWanted(&quickfix, ""));
  const json source = json::array({7, "source"});
  EXPECT_TRUE(ActionKindWanted(&source, "source.fixAll.pgconflint"));
  EXPECT_FALSE(ActionKindWanted(&source, "quickfix"));
  const json part = json::array({"source.fix"});
  EXPECT_FALSE(ActionKindWanted(&part, "source.fixAll.pgconflint"));
  const json fix_all = json::array({"source.fixAll"});
  EXPECT_TRUE(ActionKindWanted(&fix_all, "source.fixAll.pgconflint"));
}

TEST(ProtocolTest, JsonWriterRangesAreRangeJson) {
  const SourceFile file("/x.conf", "# \xc3\xa9\xf0\x9f\x98\x80\nwork_mem = 1\n");
  for (ColumnUnit unit : {ColumnUnit::kUtf8, ColumnUnit::kUtf16, ColumnUnit::kCodePoint}) {
    JsonWriter w;
    w.Range(file, {2, 14}, unit);
    EXPECT_EQ(w.Take(), Dump(RangeJson(file, {2, 14}, unit)));
  }
}

RC_GTEST_PROP(ProtocolProperty, PathsRoundTripThroughUris, (std::string name)) {
  std::string path = "/d/" + name;
  if (path.find('\0') != std::string::npos) return;
  std::string back;
  RC_ASSERT(UriToPath(PathToUri(path), &back));
  RC_ASSERT(back == CanonicalizePath(path));
}

}  // namespace
}  // namespace pgconflint::lsp
