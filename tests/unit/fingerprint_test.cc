// Fingerprints survive inserted and moved lines, and tell findings apart.
#include "core/fingerprint.h"

#include <gtest/gtest.h>

#include <set>

#include "core/analyze.h"
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

}  // namespace
}  // namespace pgconflint
