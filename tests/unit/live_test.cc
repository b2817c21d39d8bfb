// What live mode prints of a connection string: never a password.
#include "live/live.h"

#include <gtest/gtest.h>

namespace pgconflint::live {
namespace {

TEST(LiveTest, UnreachableServerIsAnErrorWithoutThePassword) {
  LibpqSnapshotTaker taker({1, 1000});
  std::string json, label, error;
  EXPECT_FALSE(taker.Take("host=127.0.0.1 port=1 user=x password=s3cret connect_timeout=1", &json, &label, &error));
  EXPECT_EQ(error.find("s3cret"), std::string::npos) << error;
  EXPECT_EQ(label.find("s3cret"), std::string::npos) << label;
  EXPECT_FALSE(error.empty());
}

// libpq's own messages echo what it cannot parse; the error never does.
TEST(LiveTest, LibpqMessagesAreScrubbed) {
  LibpqSnapshotTaker taker({1, 1000});
  for (const char* conninfo : {"postgresql://app:hunter2%zz@127.0.0.1:1/x", "postgresql://app:hunter2@[::1/x",
                               "postgresql://app:hunter2@127.0.0.1:1/x?sslmode=bogus&password=hunter2",
                               "host=127.0.0.1 port=1 PASSWORD=hunter2 connect_timeout=1",
                               "host=127.0.0.1 port=1 password='hunter2 x' sslmode=bogus"}) {
    std::string json, label, error;
    EXPECT_FALSE(taker.Take(conninfo, &json, &label, &error)) << conninfo;
    EXPECT_FALSE(error.empty()) << conninfo;
    EXPECT_EQ(error.find("hunter2"), std::string::npos) << conninfo << ": " << error;
    EXPECT_EQ(label.find("hunter2"), std::string::npos) << conninfo << ": " << label;
  }
}

}  // namespace
}  // namespace pgconflint::live
