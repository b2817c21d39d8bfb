// The effective configuration: every value EffectiveConfig::Derived computes,
// for 18 and for older majors, over small configurations on the fake disk.
// The numbers are those tests/integration/test_server_claims.py holds to real
// servers (started 18 servers, `postgres -C num_os_semaphores`, the
// MAX_BACKENDS boundaries of its fatal-claim fixtures) and those of
// docs/postgresql-semantics.md#derived-values.
#include "core/model/effective.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "core/conf/analyze.h"
#include "core/rules/rule_names.h"
#include "core/knowledge/value.h"
#include "fake_disk.h"
#include "test_support.h"

namespace pgconflint {
namespace {

using namespace test;

// One configuration of one major, analysed from the fake disk.
class Config {
 public:
  Config(int major, const std::string& text) : analysis_(Analyzed(major, text)), eff_(analysis_) {
    for (const Diagnostic& d : analysis_.diagnostics)
      EXPECT_FALSE(d.fatal()) << "the test's configuration is refused: " << d.message << "\n" << text;
  }
  Config(const Config&) = delete;
  Config& operator=(const Config&) = delete;

  const EffectiveConfig& eff() const { return eff_; }
  /// The derived value of `name`, which must exist.
  DerivedValue Get(const std::string& name) const {
    std::optional<DerivedValue> d = eff_.Derived(name);
    EXPECT_TRUE(d.has_value()) << name << " is not derived in " << eff_.catalog().major();
    return d.value_or(DerivedValue{ExprValue::Null(), ""});
  }
  double Number(const std::string& name) const { return Get(name).value.number; }
  std::string Note(const std::string& name) const { return Get(name).explanation; }

 private:
  static Analysis Analyzed(int major, const std::string& text) {
    static FakeDisk disk;
    AnalyzeOptions o;
    o.catalog = Catalog::ForMajor(major);
    o.fs = &disk.fs();
    return AnalyzeText("/project/postgresql.conf", text, o);
  }
  Analysis analysis_;
  EffectiveConfig eff_;
};

// --- MaxBackends ------------------------------------------------------------------
// MAX_BACKENDS is 262143. With the boot values of the other counts, 18 starts
// with max_connections = 262107 and refuses 262108 ("too many server processes
// configured"); 17 starts with 262120 and refuses 262121 ("too many backends
// configured"); the check hooks of 14-16 accept 262121 and refuse 262122.

TEST(EffectiveTest, MaxBackends18) {
  EXPECT_EQ(Config(18, "max_connections = 262107\n").Number("max_backends"), 262143);
  EXPECT_EQ(Config(18, "max_connections = 262108\n").Number("max_backends"), 262144);
  // Rows of test_server_claims.py: num_os_semaphores is MaxBackends + 38.
  EXPECT_EQ(Config(18, "max_connections = 50\nautovacuum_worker_slots = 4\nmax_worker_processes = 2\n"
                       "max_wal_senders = 1\n")
                .Number("max_backends"),
            97 - 38);
  EXPECT_EQ(Config(18, "max_connections = 10\nmax_worker_processes = 0\nmax_wal_senders = 0\n"
                       "autovacuum_worker_slots = 1\n")
                .Number("max_backends"),
            51 - 38);
  // In 18 the slots count, not autovacuum_max_workers.
  EXPECT_EQ(Config(18, "max_connections = 10\nautovacuum_worker_slots = 1\nautovacuum_max_workers = 1\n"
                       "max_worker_processes = 0\nmax_wal_senders = 0\n")
                .Number("max_backends"),
            13);
  EXPECT_EQ(Config(18, "max_connections = 100\n").Note("max_backends"),
            "max_connections + autovacuum_worker_slots + max_worker_processes + max_wal_senders + 2 = 136");
}

TEST(EffectiveTest, MaxBackends17) {
  EXPECT_EQ(Config(17, "max_connections = 262120\n").Number("max_backends"), 262143);
  EXPECT_EQ(Config(17, "max_connections = 262121\n").Number("max_backends"), 262144);
  EXPECT_EQ(Config(17, "max_connections = 10\nautovacuum_max_workers = 2\nmax_worker_processes = 3\n"
                       "max_wal_senders = 4\n")
                .Number("max_backends"),
            10 + 2 + 3 + 4 + 2);
}

TEST(EffectiveTest, MaxBackends14To16) {
  for (int major : {14, 15, 16}) {
    EXPECT_EQ(Config(major, "max_connections = 262121\n").Number("max_backends"), 262143) << major;
    Config c(major, "max_connections = 10\nautovacuum_max_workers = 2\nmax_worker_processes = 3\nmax_wal_senders = 4\n");
    EXPECT_EQ(c.Number("max_backends"), 10 + 2 + 3 + 4 + 1) << major;
    EXPECT_EQ(c.Note("max_backends"),
              "max_connections + autovacuum_max_workers + max_worker_processes + max_wal_senders + 1 = 20");
  }
}

// --- io_max_concurrency = -1 (18) --------------------------------------------------

TEST(EffectiveTest, IoMaxConcurrencyFromSharedBuffers18) {
  struct Row {
    const char* conf;
    double expect;
  };
  const Row rows[] = {
      {"shared_buffers = '87MB'\nmax_connections = 100\n", 64},  // 11136 / 174 = 64 exactly
      {"shared_buffers = '86MB'\nmax_connections = 100\n", 63},  // 11008 / 174
      {"shared_buffers = '48MB'\nmax_connections = 50\nautovacuum_worker_slots = 4\nmax_worker_processes = 2\n"
       "max_wal_senders = 1\n",
       63},  // 6144 / 97
      {"shared_buffers = '2MB'\nmax_connections = 10\nmax_worker_processes = 0\nmax_wal_senders = 0\n"
       "autovacuum_worker_slots = 1\n",
       5},  // 256 / 51
      {"shared_buffers = '128kB'\nmax_connections = 5\n", 1},   // 16 / 79 = 0, at least 1
      {"shared_buffers = '1GB'\nmax_connections = 100\n", 64},  // at most 64
      {"shared_buffers = '32MB'\nio_max_concurrency = -1\n", 23},
  };
  for (const Row& r : rows) EXPECT_EQ(Config(18, r.conf).Number("io_max_concurrency"), r.expect) << r.conf;
  // test_server_claims.py reads MaxBackends from this note.
  EXPECT_EQ(Config(18, "shared_buffers = '87MB'\nmax_connections = 100\n").Note("io_max_concurrency"),
            "-1: min(64, max(1, shared_buffers 11136 buffers / (MaxBackends 136 + 38 auxiliary processes)))");
  Config set(18, "shared_buffers = '32MB'\nio_max_concurrency = 8\n");
  EXPECT_EQ(set.Number("io_max_concurrency"), 8);
  EXPECT_EQ(set.Note("io_max_concurrency"), "set explicitly");
  for (int major : {14, 17}) EXPECT_FALSE(Config(major, "").eff().Derived("io_max_concurrency")) << major;
}

// --- wal_buffers = -1 ----------------------------------------------------------------

TEST(EffectiveTest, WalBuffersBetweenEightBlocksAndASegment) {
  for (int major : {14, 18}) {
    const double block = Catalog::ForMajor(major)->build().wal_block_size;
    const double segment = static_cast<double>(Catalog::ForMajor(major)->build().wal_segment_size);
    auto wal = [&](const char* conf) {
      Config c(major, conf);
      EXPECT_EQ(c.Get("wal_buffers").value.dim, Dim::kBytes);
      return c.Number("wal_buffers");
    };
    EXPECT_EQ(wal("shared_buffers = '100MB'\nmax_connections = 300\n"), 3200 * kKB) << major;  // 400 blocks
    EXPECT_EQ(wal("shared_buffers = '32MB'\nwal_buffers = -1\n"), 1 * kMB) << major;
    EXPECT_EQ(wal("shared_buffers = '512MB'\n"), 16 * kMB) << major << ": one segment";
    EXPECT_EQ(wal("shared_buffers = '1GB'\n"), segment) << major << ": at most one segment";
    EXPECT_EQ(wal("shared_buffers = '2MB'\n"), 8 * block) << major;   // 256 / 32 = 8
    EXPECT_EQ(wal("shared_buffers = '128kB'\n"), 8 * block) << major;  // 16 / 32 = 0, at least 8
    EXPECT_EQ(wal("wal_buffers = 2\n"), 4 * block) << major << ": the check hook raises it to 4";
    EXPECT_EQ(wal("wal_buffers = 100\n"), 100 * block) << major;
    EXPECT_EQ(Config(major, "wal_buffers = 100\n").Note("wal_buffers"), "set explicitly");
  }
  EXPECT_EQ(Config(18, "shared_buffers = '100MB'\n").Note("wal_buffers"),
            "-1: shared_buffers/32 = 400 pages, between 8 and one WAL segment (2048)");
}

// --- io_combine_limit (17, 18) ---------------------------------------------------------

TEST(EffectiveTest, IoCombineLimitCappedByIoMaxCombineLimitIn18) {
  Config capped(18, "io_combine_limit = '256kB'\nio_max_combine_limit = '128kB'\n");
  EXPECT_EQ(capped.Number("io_combine_limit"), 128 * kKB);
  EXPECT_EQ(capped.Note("io_combine_limit"), "capped by io_max_combine_limit (128kB)");
  Config below(18, "io_combine_limit = '64kB'\nio_max_combine_limit = '128kB'\n");
  EXPECT_EQ(below.Number("io_combine_limit"), 64 * kKB);
  EXPECT_EQ(below.Note("io_combine_limit"), "as configured");
  // 17 has no io_max_combine_limit: the configured value is used.
  Config c17(17, "io_combine_limit = '256kB'\n");
  EXPECT_EQ(c17.Number("io_combine_limit"), 256 * kKB);
  EXPECT_EQ(c17.Note("io_combine_limit"), "as configured");
  for (int major : {14, 15, 16}) EXPECT_FALSE(Config(major, "").eff().Derived("io_combine_limit")) << major;
}

// --- autovacuum_work_mem = -1 ------------------------------------------------------------

TEST(EffectiveTest, AutovacuumWorkMemFallsBackToMaintenanceWorkMem) {
  for (int major : {14, 18}) {
    Config fallback(major, "maintenance_work_mem = '512MB'\nautovacuum_work_mem = -1\n");
    EXPECT_EQ(fallback.Number("autovacuum_work_mem"), 512 * kMB) << major;
    EXPECT_EQ(fallback.Note("autovacuum_work_mem"), "-1: maintenance_work_mem");
    Config set(major, "maintenance_work_mem = '512MB'\nautovacuum_work_mem = '1GB'\n");
    EXPECT_EQ(set.Number("autovacuum_work_mem"), 1024 * kMB) << major;
    EXPECT_EQ(set.Note("autovacuum_work_mem"), "as configured");
  }
  // test_server_claims.py's hook cases: below 1MB the server raises it up to 16, below 64kB from 17.
  EXPECT_EQ(Config(14, "autovacuum_work_mem = 1000\n").Number("autovacuum_work_mem"), 1024 * kKB);
  EXPECT_EQ(Config(18, "autovacuum_work_mem = 1000\n").Number("autovacuum_work_mem"), 1000 * kKB);
  EXPECT_EQ(Config(18, "autovacuum_work_mem = 10\n").Number("autovacuum_work_mem"), 64 * kKB);
}

// --- vacuum_buffer_usage_limit (16+) ------------------------------------------------------

TEST(EffectiveTest, VacuumBufferUsageLimitCappedAtAnEighthOfSharedBuffers) {
  for (int major : {16, 18}) {
    Config capped(major, "shared_buffers = '128MB'\nvacuum_buffer_usage_limit = '32MB'\n");
    EXPECT_EQ(capped.Number("vacuum_buffer_usage_limit"), 16 * kMB) << major;
    EXPECT_EQ(capped.Note("vacuum_buffer_usage_limit"), "capped at shared_buffers/8");
    Config exact(major, "shared_buffers = '128MB'\nvacuum_buffer_usage_limit = '16MB'\n");
    EXPECT_EQ(exact.Number("vacuum_buffer_usage_limit"), 16 * kMB) << major;
    EXPECT_EQ(exact.Note("vacuum_buffer_usage_limit"), "as configured");
    Config none(major, "vacuum_buffer_usage_limit = 0\n");
    EXPECT_EQ(none.Number("vacuum_buffer_usage_limit"), 0) << major;
    EXPECT_EQ(none.Note("vacuum_buffer_usage_limit"), "0: no ring (VACUUM may use all of shared_buffers)");
  }
  for (int major : {14, 15}) EXPECT_FALSE(Config(major, "").eff().Derived("vacuum_buffer_usage_limit")) << major;
}

// --- Parallel workers ---------------------------------------------------------------------

TEST(EffectiveTest, ParallelWorkerCeilings) {
  for (int major : {14, 18}) {
    Config c(major, "max_worker_processes = 4\nmax_parallel_workers = 8\nmax_parallel_workers_per_gather = 6\n"
                    "max_parallel_maintenance_workers = 2\n");
    EXPECT_EQ(c.Number("max_parallel_workers"), 4) << major;
    EXPECT_EQ(c.Note("max_parallel_workers"), "capped by max_worker_processes");
    EXPECT_EQ(c.Number("max_parallel_workers_per_gather"), 4) << major;
    EXPECT_EQ(c.Note("max_parallel_workers_per_gather"), "capped by max_parallel_workers");
    EXPECT_EQ(c.Number("max_parallel_maintenance_workers"), 2) << major;
    EXPECT_EQ(c.Note("max_parallel_maintenance_workers"), "as configured");
    Config d(major, "max_worker_processes = 16\nmax_parallel_workers = 3\nmax_parallel_workers_per_gather = 2\n"
                    "max_parallel_maintenance_workers = 5\n");
    EXPECT_EQ(d.Number("max_parallel_workers"), 3) << major;
    EXPECT_EQ(d.Note("max_parallel_workers"), "as configured");
    EXPECT_EQ(d.Number("max_parallel_workers_per_gather"), 2) << major;
    EXPECT_EQ(d.Number("max_parallel_maintenance_workers"), 3) << major << ": capped by max_parallel_workers";
  }
}

// --- autovacuum_max_workers and io_workers (18) -----------------------------------------------

TEST(EffectiveTest, AutovacuumMaxWorkersCappedBySlots18) {
  Config capped(18, "autovacuum_max_workers = 8\nautovacuum_worker_slots = 4\n");
  EXPECT_EQ(capped.Number("autovacuum_max_workers"), 4);
  EXPECT_EQ(capped.Note("autovacuum_max_workers"), "capped by autovacuum_worker_slots");
  Config within(18, "autovacuum_max_workers = 4\nautovacuum_worker_slots = 4\n");
  EXPECT_EQ(within.Number("autovacuum_max_workers"), 4);
  EXPECT_EQ(within.Note("autovacuum_max_workers"), "as configured");
  for (int major : {14, 17}) EXPECT_FALSE(Config(major, "").eff().Derived("autovacuum_max_workers")) << major;
}

TEST(EffectiveTest, IoWorkersRunOnlyWithTheWorkerMethod18) {
  Config sync(18, "io_method = sync\nio_workers = 5\n");
  EXPECT_EQ(sync.Number("io_workers"), 0);
  EXPECT_EQ(sync.Note("io_workers"), "io_method is sync: no I/O workers run");
  Config worker(18, "io_method = worker\nio_workers = 5\n");
  EXPECT_EQ(worker.Number("io_workers"), 5);
  EXPECT_EQ(worker.Note("io_workers"), "as configured");
  // The boot values: io_method's is worker, so io_workers' boot value runs.
  const Catalog& c18 = *Catalog::ForMajor(18);
  ASSERT_EQ(std::string(c18.Find("io_method")->boot_val), "worker");
  EXPECT_EQ(Config(18, "").Number("io_workers"), strtod(c18.Find("io_workers")->boot_val, nullptr));
  EXPECT_FALSE(Config(17, "").eff().Derived("io_workers"));
}

// --- The list of derived names ------------------------------------------------------------

// DerivedNames() is exactly the names Derived() answers for: `show` lists
// them and looks each up in the major's catalog (max_backends aside, which is
// no parameter, and the shared memory sizes, which 14 computes without a
// parameter to show them).
TEST(EffectiveTest, DerivedNamesFollowTheMajorsCatalog) {
  for (int major : Catalog::SupportedMajors()) {
    Config c(major, "");
    const Catalog& cat = *Catalog::ForMajor(major);
    std::vector<std::string> names = c.eff().DerivedNames();
    EXPECT_TRUE(std::is_sorted(names.begin(), names.end())) << major;
    EXPECT_NE(std::find(names.begin(), names.end(), "max_backends"), names.end()) << major;
    for (const std::string& n : names) {
      EXPECT_TRUE(c.eff().Derived(n).has_value()) << major << ": " << n << " is listed but not derived";
      const bool computed_without_parameter =
          n == "max_backends" || (major == 14 && n.rfind("shared_memory_size", 0) == 0);
      EXPECT_TRUE(computed_without_parameter || cat.Find(n)) << major << ": " << n << " is no parameter";
    }
    for (const Parameter& p : cat.parameters()) {
      bool listed = std::find(names.begin(), names.end(), p.name) != names.end();
      EXPECT_EQ(c.eff().Derived(p.name).has_value(), listed) << major << ": " << p.name;
    }
  }
}

TEST(EffectiveTest, OtherNamesAreNotDerived) {
  Config c(18, "work_mem = '8MB'\n");
  EXPECT_FALSE(c.eff().Derived("work_mem"));
  EXPECT_FALSE(c.eff().Derived("no_such_parameter"));
  EXPECT_FALSE(c.eff().Derived(""));
}

}  // namespace
}  // namespace pgconflint

namespace pgconflint {
namespace {

// Rule files are validated against rule_names.h's list of derived values;
// every name there must have a value in some major, and every value a name.
TEST(EffectiveTest, DerivedNamesAreTheNamesRulesMayRead) {
  std::set<std::string> computed;
  for (int major : Catalog::SupportedMajors()) {
    AnalyzeOptions o;
    o.catalog = Catalog::ForMajor(major);
    static const OverlayFileSystem empty(nullptr, "/");
    o.fs = &empty;
    Analysis a = AnalyzeText("/p/postgresql.conf", "", o);
    EffectiveConfig eff(a);
    for (const std::string& n : eff.DerivedNames()) computed.insert(n);
  }
  std::set<std::string> listed(DerivedValueNames().begin(), DerivedValueNames().end());
  EXPECT_EQ(computed, listed);
}

TEST(EffectiveTest, AdjustedWhenTheServerUsesAnotherValue) {
  Config c(18, "io_max_concurrency = -1\nwork_mem = 64MB\n");
  std::optional<DerivedValue> io = c.eff().Adjusted("io_max_concurrency");
  ASSERT_TRUE(io);
  EXPECT_EQ(io->value.kind, ExprValue::Kind::kNumber);
  // The default 128MB of shared_buffers over the default processes: past the cap of 64.
  EXPECT_EQ(io->value.number, 64) << io->explanation;
  EXPECT_EQ(io->explanation.rfind("-1", 0), 0u) << io->explanation;
  EXPECT_FALSE(c.eff().Adjusted("work_mem"));  // not derived
  EXPECT_FALSE(c.eff().Adjusted("no_such_parameter"));
}

TEST(EffectiveTest, AdjustedIoCombineLimitOnlyOverTheCap) {
  const Catalog& cat = *Catalog::ForMajor(18);
  const Parameter* cap = cat.Find("io_max_combine_limit");
  ASSERT_NE(cap, nullptr);
  const double cap_bytes = strtod(cap->boot_val, nullptr) * cap->unit_amount;
  // 1MB is over the default cap; the cap itself is not.
  ASSERT_LT(cap_bytes, kMB);
  Config over(18, "io_combine_limit = 1MB\n");
  std::optional<DerivedValue> d = over.eff().Adjusted("io_combine_limit");
  ASSERT_TRUE(d);
  EXPECT_EQ(d->value.number, cap_bytes);
  EXPECT_EQ(d->value.dim, Dim::kBytes);
  Config at_cap(18, "io_combine_limit = " + FormatWithUnit(strtod(cap->boot_val, nullptr), *cap) + "\n");
  EXPECT_FALSE(at_cap.eff().Adjusted("io_combine_limit"));
}

TEST(EffectiveTest, NotAdjustedInAMajorWithoutTheParameter) {
  Config c(17, "");
  EXPECT_FALSE(c.eff().Adjusted("io_max_concurrency"));
}

}  // namespace
}  // namespace pgconflint
