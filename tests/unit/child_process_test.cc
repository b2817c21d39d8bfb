// The editor server's requests to a live server, through a child process:
// the request and reply encodings, and the child's lifecycle with stand-in
// helpers (a shell that answers, one that dies, one that never answers and
// is cancelled). tests/integration/test_live_editor.py runs the real helper
// against real servers.
#include "live/child_process.h"

#include <gtest/gtest.h>

#include "live/helper.h"

namespace pgconflint::live {
namespace {

LiveRequest SampleRequest() {
  LiveRequest r;
  r.conninfo = "host=db user=app password=hunter2";
  r.statement = "SELECT pg_reload_conf()";
  r.connect_timeout_s = 3;
  r.statement_timeout_ms = 1500;
  return r;
}

TEST(ChildProcessTest, RequestsAndRepliesRoundTrip) {
  LiveRequest back;
  std::string error;
  ASSERT_TRUE(DecodeRequest(EncodeRequest(SampleRequest()), &back, &error)) << error;
  EXPECT_EQ(back.conninfo, SampleRequest().conninfo);
  EXPECT_EQ(back.statement, SampleRequest().statement);
  EXPECT_EQ(back.connect_timeout_s, 3);
  EXPECT_EQ(back.statement_timeout_ms, 1500);
  EXPECT_FALSE(DecodeRequest("{\"conninfo\": 1}", &back, &error));
  EXPECT_FALSE(DecodeRequest("garbage", &back, &error));

  LiveReply reply;
  reply.executed = true;
  reply.label = "app@db:5432/app";
  reply.error = "";
  reply.snapshot = "{\"pgconflint_snapshot\": 1}\n";
  LiveReply got;
  ASSERT_TRUE(DecodeReply(EncodeReply(reply), &got, &error)) << error;
  EXPECT_TRUE(got.executed);
  EXPECT_EQ(got.label, reply.label);
  EXPECT_EQ(got.snapshot, reply.snapshot);
  EXPECT_FALSE(DecodeReply("{\"executed\": true}", &got, &error));  // no line end: cut short
  EXPECT_FALSE(DecodeReply("[]\n{}", &got, &error));
}

// A stand-in helper: /bin/sh running `script` (which reads the request on its stdin).
ChildProcessLiveClient Shell(const std::string& script) { return ChildProcessLiveClient({"/bin/sh", "-c", script}); }

TEST(ChildProcessTest, TheHelpersReplyIsTheAnswer) {
  // The helper echoes the request's statement back as its label: the request reached it whole.
  ChildProcessLiveClient client = Shell(
      "req=$(cat); printf '{\"executed\": true, \"statement_error\": \"\", \"label\": \"%s\", \"error\": \"\"}\\n{\"s\": "
      "1}' "
      "\"$(printf %s \"$req\" | sed 's/.*\"statement\":\"\\([^\"]*\\)\".*/\\1/')\"");
  std::atomic<bool> cancel{false};
  LiveReply r = client.Ask(SampleRequest(), cancel);
  EXPECT_EQ(r.error, "");
  EXPECT_TRUE(r.executed);
  EXPECT_EQ(r.label, "SELECT pg_reload_conf()");
  EXPECT_EQ(r.snapshot, "{\"s\": 1}");
}

TEST(ChildProcessTest, ADeadHelperIsAnError) {
  std::atomic<bool> cancel{false};
  LiveReply r = Shell("cat >/dev/null; exit 7").Ask(SampleRequest(), cancel);
  EXPECT_NE(r.error.find("exited with status 7"), std::string::npos) << r.error;
  EXPECT_TRUE(r.snapshot.empty());
  // The label is the connection string masked, never the password.
  EXPECT_EQ(r.label.find("hunter2"), std::string::npos) << r.label;
  r = ChildProcessLiveClient({"/nonexistent/pgconflint"}).Ask(SampleRequest(), cancel);
  EXPECT_NE(r.error.find("cannot start the live helper"), std::string::npos) << r.error;
  // One that does not read its request: the request's write fails quietly (no SIGPIPE).
  r = Shell("exit 9").Ask(SampleRequest(), cancel);
  EXPECT_NE(r.error.find("exited with status 9"), std::string::npos) << r.error;
}

// A helper that never answers is killed once the request is cancelled (the
// deadline works the same way, later).
TEST(ChildProcessTest, ACancelledRequestKillsTheHelper) {
  std::atomic<bool> cancel{true};
  LiveReply r = Shell("cat >/dev/null; exec sleep 600").Ask(SampleRequest(), cancel);
  EXPECT_EQ(r.error, "cancelled");
}

// The helper's errors are scrubbed of the connection string's secrets once
// more on this side.
TEST(ChildProcessTest, SecretsAreScrubbedFromTheHelpersErrors) {
  std::atomic<bool> cancel{false};
  LiveReply r = Shell("cat >/dev/null; printf '{\"executed\": false, \"statement_error\": \"near hunter2\", "
                      "\"label\": \"host=db password=hunter2\", \"error\": \"bad token hunter2\"}\\n'")
                    .Ask(SampleRequest(), cancel);
  EXPECT_EQ(r.error.find("hunter2"), std::string::npos) << r.error;
  EXPECT_EQ(r.statement_error.find("hunter2"), std::string::npos) << r.statement_error;
  EXPECT_EQ(r.label.find("hunter2"), std::string::npos) << r.label;
  EXPECT_FALSE(r.error.empty());
}

TEST(ChildProcessTest, TheDeadlineCoversTheWholeRequest) {
  LiveRequest r = SampleRequest();
  EXPECT_EQ(RequestDeadline(r).count(), 2 * 3000 + 4 * (1500 + 2000));
}

}  // namespace
}  // namespace pgconflint::live
