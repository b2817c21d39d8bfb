// The base protocol's framing: messages split anywhere, several in one read,
// malformed header blocks skipped, oversized bodies skipped as they stream
// past, and arbitrary bytes never a crash.
#include "lsp/transport.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

namespace pgconflint::lsp {
namespace {

std::vector<ReaderEvent> FeedAll(MessageReader* r, std::string_view bytes, size_t chunk = 0) {
  std::vector<ReaderEvent> out;
  if (chunk == 0) chunk = bytes.size() ? bytes.size() : 1;
  for (size_t i = 0; i < bytes.size(); i += chunk) r->Feed(bytes.substr(i, chunk), &out);
  return out;
}

std::vector<std::string> Bodies(const std::vector<ReaderEvent>& events) {
  std::vector<std::string> out;
  for (const ReaderEvent& e : events) out.push_back(e.kind == ReaderEvent::Kind::kMessage ? e.body : "ERROR " + e.error);
  return out;
}

TEST(MessageReaderTest, ReadsMessagesSplitAnywhere) {
  std::string stream = Frame("{\"a\":1}") + Frame("{\"b\":\"é\"}") + Frame("");
  for (size_t chunk = 1; chunk <= stream.size(); ++chunk) {
    MessageReader r;
    EXPECT_EQ(Bodies(FeedAll(&r, stream, chunk)), (std::vector<std::string>{"{\"a\":1}", "{\"b\":\"é\"}", ""}))
        << "chunk " << chunk;
    EXPECT_FALSE(r.pending());
  }
}

TEST(MessageReaderTest, HeadersAreCaseInsensitiveAndContentTypeIsIgnored) {
  MessageReader r;
  auto events = FeedAll(&r, "content-length: 2\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{}"
                            "CONTENT-LENGTH:2\n\n[]");
  EXPECT_EQ(Bodies(events), (std::vector<std::string>{"{}", "[]"}));
}

TEST(MessageReaderTest, AMalformedHeaderBlockIsReportedOnceAndTheNextMessageRead) {
  MessageReader r;
  auto events = FeedAll(&r, "Content-Type: x\r\n\r\n" + std::string("Content-Length: nine\r\n\r\n") +
                                "garbage without colon\r\n\r\n" + Frame("{}") + "Content-Length: x\r\n\r\n" + Frame("[]"));
  ASSERT_EQ(events.size(), 4u);
  EXPECT_NE(events[0].error.find("without Content-Length"), std::string::npos);
  EXPECT_EQ(events[1].body, "{}");
  EXPECT_NE(events[2].error.find("not a number"), std::string::npos);
  EXPECT_EQ(events[3].body, "[]");
}

// The body of a message whose header is malformed is read as the start of
// the next header block: the reader takes that block from its last
// Content-Length, so every later message comes back (it never answered
// again after one bad header).
TEST(MessageReaderTest, TheBodyOfABadMessageDoesNotSwallowTheNext) {
  const std::string body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"shutdown\"}";
  for (const std::string& bad : {std::string("Content-Length: abc\r\n\r\n"),
                                 std::string("Content-Length: 99999999999999999999999\r\n\r\n"),
                                 std::string("Content-Type: x\r\n\r\n"), std::string("no colon here\r\n\r\n"),
                                 std::string("Content-Length: 4\0\r\n\r\n", 22)}) {
    SCOPED_TRACE(bad);
    for (size_t chunk : {1u, 7u, 1000u}) {
      MessageReader r;
      auto events = FeedAll(&r, bad + body + Frame("{}") + Frame("[1]") + bad + std::string(20000, 'y') + Frame("[2]"),
                            chunk);
      std::vector<std::string> bodies;
      int errors = 0;
      for (const ReaderEvent& e : events) {
        if (e.kind == ReaderEvent::Kind::kMessage) bodies.push_back(e.body);
        else ++errors;
      }
      EXPECT_EQ(bodies, (std::vector<std::string>{"{}", "[1]", "[2]"})) << "chunk " << chunk;
      EXPECT_EQ(errors, 2) << "one report per bad message, chunk " << chunk;
    }
  }
}

TEST(MessageReaderTest, AnEndlessHeaderIsCutOff) {
  MessageReader r;
  auto events = FeedAll(&r, std::string(20000, 'x'), 100);
  ASSERT_FALSE(events.empty());
  EXPECT_NE(events[0].error.find("header block longer"), std::string::npos);
}

TEST(MessageReaderTest, AnOversizedBodyIsSkippedKeepingItsStart) {
  MessageReader r(100);
  std::string big = "{\"method\":\"textDocument/didOpen\",\"text\":\"" + std::string(10000, 'x') + "\"}";
  auto events = FeedAll(&r, Frame(big) + Frame("{}"), 333);
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].kind, ReaderEvent::Kind::kError);
  EXPECT_NE(events[0].error.find("over the limit of 100 bytes"), std::string::npos);
  EXPECT_EQ(events[0].body, big.substr(0, kSkippedPrefixSize));
  EXPECT_EQ(events[1].body, "{}");
}

TEST(MessageReaderTest, ATruncatedMessageIsPending) {
  MessageReader r;
  auto events = FeedAll(&r, "Content-Length: 10\r\n\r\n{\"a\"");
  EXPECT_TRUE(events.empty());
  EXPECT_TRUE(r.pending());
}

TEST(OutputTest, MemoryOutputKeepsBodiesInOrder) {
  MemoryOutput out;
  out.Send("a");
  out.Send("b");
  EXPECT_EQ(out.Take(), (std::vector<std::string>{"a", "b"}));
  EXPECT_TRUE(out.Take().empty());
}

RC_GTEST_PROP(MessageReaderProperty, FramedBodiesComeBackWhateverTheChunks, (std::vector<std::string> bodies)) {
  std::string stream;
  for (const std::string& b : bodies) stream += Frame(b);
  const size_t chunk = *rc::gen::inRange<size_t>(1, 64);
  MessageReader r;
  RC_ASSERT(Bodies(FeedAll(&r, stream, chunk)) == bodies);
}

RC_GTEST_PROP(MessageReaderProperty, AfterAnyGarbageTheNextMessagesComeBack, (std::string garbage)) {
  // Garbage that holds no header name of its own, then framed messages: from
  // the second on, all come back (the first may be taken as garbage's end).
  for (char& c : garbage)
    if (c == 'c' || c == 'C') c = 'x';
  MessageReader r;
  const size_t chunk = *rc::gen::inRange<size_t>(1, 64);
  std::vector<ReaderEvent> events = FeedAll(&r, garbage + Frame("[0]") + Frame("[1]") + Frame("[2]"), chunk);
  std::vector<std::string> bodies;
  for (const ReaderEvent& e : events)
    if (e.kind == ReaderEvent::Kind::kMessage) bodies.push_back(e.body);
  RC_ASSERT(bodies.size() >= 2u);
  RC_ASSERT(bodies[bodies.size() - 2] == "[1]");
  RC_ASSERT(bodies.back() == "[2]");
}

RC_GTEST_PROP(MessageReaderProperty, ArbitraryBytesNeverCrash, (std::string bytes)) {
  MessageReader r(64);
  std::vector<ReaderEvent> events = FeedAll(&r, bytes, 7);
  for (const ReaderEvent& e : events) RC_ASSERT(e.body.size() <= std::max<size_t>(64, kSkippedPrefixSize));
}

}  // namespace
}  // namespace pgconflint::lsp
