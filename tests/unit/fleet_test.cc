// `check --live` over a fleet: a server whose snapshot throws (a bug,
// memory running out) is that server's error, named and said without its
// password, and the other servers go on.
#include "cli/fleet.h"

#include <gtest/gtest.h>

#include <new>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/model/secrets.h"
#include "core/server/snapshot.h"

namespace pgconflint::cli {
namespace {

// Throws for host=boom (with the connection string, password and all, in
// its message); the other servers cannot be reached.
class FleetThrowingTaker : public SnapshotTaker {
 public:
  bool Take(const std::string& conninfo, std::string* json, std::string* label, std::string* error) const override {
    if (conninfo.find("host=boom") != std::string::npos) throw std::runtime_error("lost " + conninfo);
    if (conninfo.find("host=oom") != std::string::npos) throw std::bad_alloc();
    *label = conninfo;
    *error = conninfo + ": could not connect";
    json->clear();
    return false;
  }
};

TEST(FleetTest, AServerWhoseSnapshotThrowsIsThatServersError) {
  FleetThrowingTaker taker;
  LiveCheckOptions o;
  const std::string boom = "host=boom user=app password=hunter2";
  o.conninfos = {boom, "host=oom", "host=db2"};
  o.jobs = 3;  // each server on a thread of its own
  o.taker = &taker;
  std::vector<Analysis> analyses;
  std::vector<ServerRow> rows;
  int major = 0;
  EXPECT_EQ(CheckServers(CommonOptions(), o, {}, &analyses, &rows, &major), kExitInternal);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].server, MaskSecrets(boom));
  EXPECT_EQ(rows[0].server.find("hunter2"), std::string::npos) << rows[0].server;
  EXPECT_EQ(rows[0].error.find("hunter2"), std::string::npos) << rows[0].error;
  EXPECT_EQ(rows[0].error.rfind(rows[0].server + ": lost host=boom user=app password=", 0), 0u) << rows[0].error;
  EXPECT_EQ(rows[1].server, "host=oom");
  EXPECT_EQ(rows[1].error, "host=oom: out of memory");
  EXPECT_EQ(rows[2].server, "host=db2");
  EXPECT_EQ(rows[2].error, "host=db2: could not connect");
  EXPECT_TRUE(analyses.empty());
  EXPECT_EQ(major, 0);
}

}  // namespace
}  // namespace pgconflint::cli
