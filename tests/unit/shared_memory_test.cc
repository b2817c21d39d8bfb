// The shared memory model (core/model/shared_memory.h): the term counts of
// small configurations, worked out by hand from the facts the model states,
// and the whole model against every point the harvest measured on real
// servers (knowledge/shared_memory.json: the fitted points and the points
// only checked), within the error the file records.
#include "core/model/shared_memory.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <map>
#include <sstream>

#include "core/conf/analyze.h"
#include "core/knowledge/shared_memory_facts.h"
#include "fake_disk.h"
#include "test_support.h"

namespace pgconflint {
namespace {

Analysis ShmemAnalyzed(int major, const std::string& text) {
  static FakeDisk disk;
  AnalyzeOptions o;
  o.catalog = Catalog::ForMajor(major);
  o.fs = &disk.fs();
  return AnalyzeText("/project/postgresql.conf", text, o);
}

std::map<std::string, double> Counts(int major, const std::string& text) {
  Analysis a = ShmemAnalyzed(major, text);
  std::map<std::string, double> out;
  for (const ShmemTerm& t : SharedMemoryTerms(EffectiveConfig(a))) out[t.name] = t.count;
  return out;
}

TEST(SharedMemoryTerms, DefaultsOf18) {
  std::map<std::string, double> c = Counts(18, "");
  // MaxBackends 100 + 16 autovacuum slots + 8 workers + 10 WAL senders + 2 = 136.
  EXPECT_EQ(c["buffers"], 16384);
  EXPECT_EQ(c["checkpointer_requests"], 16384);
  EXPECT_EQ(c["lock_entries"], 64 * 136);
  // 8704 entries: 16384 buckets in 64 segments of 256, a directory of 256;
  // 17408: 32768 buckets in 128 segments.
  EXPECT_EQ(c["lock_table_pointers"], (256 + 64 * 256) + (256 + 128 * 256));
  EXPECT_EQ(c["buffer_table_pointers"], 256 + 128 * 256);  // 16512 entries: 32768 buckets
  EXPECT_EQ(c["wal_buffers"], 512);                        // -1: shared_buffers / 32
  EXPECT_EQ(c["transaction_slots"], 32);                   // 0: 16384 / 512
  EXPECT_EQ(c["multixact_member_slots"], 32);
  // io_max_concurrency -1: min(64, 16384 / (136 + 38) = 94) = 64 handles per
  // slot, each with io_max_combine_limit 16 iovecs.
  EXPECT_EQ(c["aio_handles"], 64 * 174);
  EXPECT_EQ(c["aio_iovecs"], 64 * 174 * 16);
  EXPECT_EQ(c["fast_path_lock_groups"], 4 * (136 + 38));  // 64 locks: 4 groups of 16
  EXPECT_EQ(c["hot_standby_slots"], 136);
  EXPECT_EQ(c.count("old_snapshot_minutes"), 0u);
}

TEST(SharedMemoryTerms, SlruCachesFollowSharedBuffers) {
  // Up to 16: commit status min(128, max(4, NBuffers/512)), commit timestamps
  // min(256, max(4, NBuffers/256)).
  EXPECT_EQ(Counts(16, "shared_buffers = 16MB\n")["transaction_slots"], 4);
  EXPECT_EQ(Counts(16, "shared_buffers = 16MB\n")["commit_timestamp_slots"], 8);
  EXPECT_EQ(Counts(16, "shared_buffers = 8GB\n")["transaction_slots"], 128);
  EXPECT_EQ(Counts(16, "shared_buffers = 8GB\n")["commit_timestamp_slots"], 256);
  EXPECT_EQ(Counts(14, "shared_buffers = 8GB\n")["commit_timestamp_slots"], 16);  // 14: min(16, max(4, NBuffers/1024))
  // 17+: banks of 16, between 16 and 1024; an explicit transaction_buffers is
  // capped at 65536.
  EXPECT_EQ(Counts(17, "shared_buffers = 16383\n")["transaction_slots"], 16);
  EXPECT_EQ(Counts(17, "shared_buffers = 100GB\n")["subtransaction_slots"], 1024);
  EXPECT_EQ(Counts(17, "transaction_buffers = 131072\n")["transaction_slots"], 65536);
  EXPECT_EQ(Counts(17, "notify_buffers = 64\n")["notify_slots"], 64);
}

TEST(SharedMemoryTerms, OldSnapshotMapUpTo16) {
  EXPECT_EQ(Counts(15, "old_snapshot_threshold = 60\n")["old_snapshot_minutes"], 60);
  EXPECT_EQ(Counts(15, "old_snapshot_threshold = 60\n")["old_snapshot_map"], 1);
  EXPECT_EQ(Counts(15, "old_snapshot_threshold = 0\n")["old_snapshot_map"], 0);
}

TEST(SharedMemoryTerms, CheckpointerQueueIsCapped) {
  EXPECT_EQ(Counts(15, "shared_buffers = 200GB\n")["checkpointer_requests"], 10000000);
}

TEST(HugePages, AsTheServerCountsThem) {
  const double page = 2 * 1024 * 1024;
  EXPECT_EQ(HugePagesShown(1138163712, page), 543);   // 542.7 pages: 542 + 1
  EXPECT_EQ(HugePagesMapped(1138163712, page), 543);
  EXPECT_EQ(HugePagesShown(4 * page, page), 5);       // a whole number of pages shows one more
  EXPECT_EQ(HugePagesMapped(4 * page, page), 4);
}

TEST(HugePages, PageSizeFromTheParameterElseTheProfile) {
  Profile p;
  Analysis none = ShmemAnalyzed(18, "");
  EXPECT_EQ(HugePageSizeOf(EffectiveConfig(none), p), kDefaultHugePageSize);
  p.huge_page_size_bytes = 1024.0 * 1024 * 1024;
  EXPECT_EQ(HugePageSizeOf(EffectiveConfig(none), p), 1024.0 * 1024 * 1024);
  Analysis set = ShmemAnalyzed(18, "huge_page_size = 64kB\n");
  EXPECT_EQ(HugePageSizeOf(EffectiveConfig(set), p), 65536);
}

TEST(SharedMemory, LibrariesMakeALowerBound) {
  Analysis a = ShmemAnalyzed(18, "shared_preload_libraries = 'pg_stat_statements'\n");
  std::optional<SharedMemorySize> s = ComputeSharedMemory(EffectiveConfig(a));
  ASSERT_TRUE(s.has_value());
  EXPECT_TRUE(s->lower_bound());
  std::optional<DerivedValue> d = EffectiveConfig(a).Derived("shared_memory_size");
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->value.Display().rfind("at least ", 0), 0u) << d->value.Display();
}

TEST(SharedMemory, OutsideLinuxTheServerShowsMinusOne) {
  Analysis a = ShmemAnalyzed(18, "");
  EffectiveConfig eff(a);
  Profile p;
  p.os = "macos";
  eff.set_profile(&p);
  EXPECT_EQ(eff.Derived("shared_memory_size_in_huge_pages")->value.number, -1);
}

// Every measured point of knowledge/shared_memory.json, through the model.
TEST(SharedMemory, MatchesEveryHarvestedPoint) {
  std::ifstream f(std::string(PGC_SOURCE_DIR) + "/knowledge/shared_memory.json");
  ASSERT_TRUE(f.good());
  nlohmann::json doc = nlohmann::json::parse(f);
  int majors = 0;
  for (const auto& m : doc["majors"]) {
    const int major = m["major"];
    if (!Catalog::ForMajor(major)) continue;
    ++majors;
    const ShmemFacts* facts = ShmemFactsFor(major);
    ASSERT_NE(facts, nullptr) << major;
    int checked = 0, exact = 0;
    for (const auto& point : m["points"]) {
      std::ostringstream text;
      for (const auto& [name, value] : point["settings"].items())
        text << name << " = '" << (value.is_string() ? value.get<std::string>() : value.dump()) << "'\n";
      Analysis a = ShmemAnalyzed(major, text.str());
      std::optional<SharedMemorySize> s = ComputeSharedMemory(EffectiveConfig(a));
      ASSERT_TRUE(s.has_value());
      const double measured = point["bytes"];
      EXPECT_LE(std::fabs(s->bytes - measured), facts->max_error) << major << ": " << text.str();
      // Within 1MB, as shared_memory_size.
      EXPECT_LE(std::fabs(s->megabytes() - std::ceil(measured / 1048576)), 1) << major << ": " << text.str();
      exact += s->bytes == measured;
      ++checked;
    }
    EXPECT_GE(checked, 20) << major;
    EXPECT_GE(exact, checked / 2) << major;
  }
  EXPECT_EQ(majors, static_cast<int>(Catalog::SupportedMajors().size()));
}

}  // namespace
}  // namespace pgconflint
