// Fingerprints survive inserted and moved lines, and tell findings apart.
#include "core/model/fingerprint.h"

#include <gtest/gtest.h>

#include <set>

#include "core/conf/analyze.h"
#include "fake_disk.h"

namespace pgconflint {
namespace {

std::vector<std::string> Of(const std::string& text) {
  FakeDisk disk;
  disk.Write("pg/postgresql.conf", text);
  AnalyzeOptions o;
  o.catalog = Catalog::ForMajor(18);
  o.fs = &disk.fs();
  return Fingerprints(Analyze("/project/pg/postgresql.conf", o), "/project");
}

TEST(FingerprintTest, StableWhenLinesAreInsertedOrMoved) {
  std::vector<std::string> before = Of("shared_buffers = 64\nport = 1\nport = 2\n");
  std::vector<std::string> inserted =
      Of("# a new comment\n\nlisten_addresses = 'x'\nshared_buffers = 64\nport = 1\nport = 2\n");
  std::vector<std::string> moved = Of("port = 1\nport = 2\n\n\nshared_buffers = 64\n");
  ASSERT_EQ(before.size(), 2u);
  EXPECT_EQ(std::set<std::string>(before.begin(), before.end()),
            std::set<std::string>(inserted.begin(), inserted.end()));
  EXPECT_EQ(std::set<std::string>(before.begin(), before.end()), std::set<std::string>(moved.begin(), moved.end()));
}

TEST(FingerprintTest, RepeatedFindingsAreToldApartAndPathsAreRelative) {
  // Spelled differently, both lines are applied: two PGC204 for
  // shared_buffers (a count of 8kB blocks).
  std::vector<std::string> f = Of("SHARED_BUFFERS = 64\nshared_buffers = 65\nwal_buffers = 64\n");
  ASSERT_EQ(f.size(), 4u);  // PGC303, two PGC204 for shared_buffers, one for wal_buffers
  EXPECT_EQ(std::set<std::string>(f.begin(), f.end()).size(), 4u);
  for (const std::string& x : f) EXPECT_EQ(x.size(), 16u);
  // The same finding in another checkout directory has the same fingerprint.
  FakeDisk other("/elsewhere");
  other.Write("pg/postgresql.conf", "shared_buffers = 64\n");
  AnalyzeOptions o;
  o.catalog = Catalog::ForMajor(18);
  o.fs = &other.fs();
  EXPECT_EQ(Fingerprints(Analyze("/elsewhere/pg/postgresql.conf", o), "/elsewhere")[0], Of("shared_buffers = 64\n")[0]);
}

TEST(FingerprintTest, UniqueAcrossTheRootsOfOneReport) {
  // Two roots that include the same fragment report its finding twice: the
  // report's fingerprints still differ, while each root's own agree.
  FakeDisk disk;
  disk.Write("common/memory.conf", "wal_buffers = 64\n");
  // Both roots sit above the fragment: it is inside each one's tree.
  disk.Write("primary.conf", "include 'common/memory.conf'\n");
  disk.Write("replica.conf", "include 'common/memory.conf'\n");
  AnalyzeOptions o;
  o.catalog = Catalog::ForMajor(18);
  o.fs = &disk.fs();
  std::vector<Analysis> report;
  report.push_back(Analyze("/project/primary.conf", o));
  report.push_back(Analyze("/project/replica.conf", o));
  std::vector<std::vector<std::string>> f = ReportFingerprints(report, "/project");
  ASSERT_EQ(f.size(), 2u);
  ASSERT_EQ(f[0].size(), 1u);
  ASSERT_EQ(f[1].size(), 1u);
  EXPECT_NE(f[0][0], f[1][0]);
  EXPECT_EQ(f[0][0], Fingerprints(report[1], "/project")[0]);
  EXPECT_EQ(PathBelow("/project/a/x.conf", "/project"), "a/x.conf");
  EXPECT_EQ(PathBelow("/project/a/x.conf", "/project/"), "a/x.conf");
  EXPECT_EQ(PathBelow("/projects/x.conf", "/project"), "/projects/x.conf");
  EXPECT_EQ(PathBelow("/project/x.conf", ""), "/project/x.conf");
}

}  // namespace
}  // namespace pgconflint
