// The recommender's computation. Formulas are commented where they are
// defined; storage starting points and their reasons come from
// knowledge/storage.toml (core/knowledge/storage_facts.h).
#include "core/advice/recommend.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <set>
#include <sstream>
#include <utility>

#include "core/model/analysis.h"
#include "core/model/effective.h"
#include "core/rules/expr.h"
#include "core/model/memory_model.h"
#include "core/base/quantity.h"
#include "core/advice/recommend_internal.h"
#include "core/sql/sql_quote.h"
#include "core/knowledge/value.h"
#include "core/base/strings.h"

namespace pgconflint {

namespace recommend_internal {

std::string Num(double v) { return FormatNumber(v); }

std::string Size(double bytes) { return FormatConfSize(std::max(bytes, 64 * 1024.0)); }

}  // namespace recommend_internal

namespace {

using recommend_internal::kGB;
using recommend_internal::FloorMB;
using recommend_internal::kMB;
using recommend_internal::MaxSize;
using recommend_internal::Num;
using recommend_internal::Size;
// hash_mem_multiplier as recommended (its default since 15).
constexpr double kHashMemMultiplier = 2.0;
// Below this work_mem the recommender lowers the connections it assumed
// (never the ones the profile gives).
constexpr double kWorkMemFloor = 4 * kMB;
// The smallest work_mem PostgreSQL accepts.
constexpr double kWorkMemMin = 64 * 1024.0;
// The least RAM recommend sizes for: a 256MB container still gets sane
// values (shared_buffers 64MB, work_mem within the model).
constexpr double kMinRam = 256 * kMB;
// Keep room for clients beyond the 3 superuser-reserved slots.
constexpr int kMinConnections = 10;

// A range end as people read it: whole GB from 10GB, half GB from 1GB, two
// significant digits of MB below. `up` rounds up (a lower end), else down.
double RangeRound(double bytes, bool up) {
  auto round = [&](double v, double step) { return (up ? std::ceil(v / step - 1e-9) : std::floor(v / step + 1e-9)) * step; };
  if (bytes >= 10 * kGB) return round(bytes / kGB, 1) * kGB;
  if (bytes >= kGB) return round(bytes / kGB, 0.5) * kGB;
  double mb = bytes / kMB;
  if (mb >= 10) return round(mb, std::pow(10, std::floor(std::log10(mb)) - 1)) * kMB;
  return up ? std::ceil(mb) * kMB : std::max(64 * 1024.0, std::floor(mb) * kMB);
}

std::string BoundText(double bytes) {
  if (bytes >= kGB && std::fmod(bytes, kGB) != 0) return Num(bytes / kGB) + "GB";  // "1.5GB"
  return Size(bytes);
}

// min .. max of a memory cell, rounded to readable sizes toward the value,
// so that the range still holds it.
std::pair<std::string, std::string> MemoryRange(double lo, double value, double hi) {
  double l = std::min(RangeRound(lo, true), value), h = std::max(RangeRound(hi, false), value);
  return {l == value ? Size(value) : BoundText(l), h == value ? Size(value) : BoundText(h)};
}

// An analysis of settings alone, without a file or the check pipeline: the
// effective model (core/model/effective.h) derives values from it exactly as from
// a configuration file, so no formula of the server is repeated here.
Analysis SettingsOnly(const Catalog& cat, const std::vector<std::pair<std::string, std::string>>& settings) {
  Analysis a;
  a.catalog = &cat;
  for (const auto& [name, value] : settings) {
    const Parameter* p = cat.Find(name);
    if (!p) continue;
    ParsedValue v = ParseValue(cat, *p, value);
    if (!v.ok()) continue;
    Setting s{};
    s.name = name;
    s.param = p;
    s.raw = s.text = value;
    s.value = v.normalized;
    s.applied = true;
    s.number = v.number;
    a.settings.push_back(std::move(s));
  }
  return a;
}

// The machine's sizes, decided before any cell is written.
struct Machine {
  double shared_buffers, effective_cache, maintenance, autovacuum_mem, max_wal;
  int autovacuum_workers, worker_processes, parallel_workers, per_gather, parallel_maintenance;
  int reserved_slots;  // superuser_reserved_connections + reserved_connections (16+), at their defaults
  int parallel_from = 0;  // the parallel workers before SolveWorkMem lowered them for RAM (0: not lowered)
  MemoryModel memory;  // solved: work_mem fits the RAM for the connections
};

// One CPU runs no parallel query: a worker would only take turns with its
// leader.
void SizeProcesses(const Profile& p, Machine* m) {
  const int cpus = *p.cpus;
  m->autovacuum_workers = std::clamp(cpus / 4, 3, 10);
  m->worker_processes = std::max(8, cpus);
  m->parallel_workers = cpus == 1 ? 0 : std::max(2, std::min(cpus, m->worker_processes));
  bool olap = *p.workload == Workload::kOlap;
  m->per_gather = std::min(m->parallel_workers, olap ? std::clamp(cpus / 2, 2, 8) : std::clamp(cpus / 4, 1, 4));
  m->parallel_maintenance = std::min(m->parallel_workers, std::clamp(cpus / 4, 1, 4));
}

// max_wal_size: the WAL the workload writes at its assumed peak per CPU for
// checkpoint_timeout, times (1 + checkpoint_completion_target 0.9), since a
// checkpoint is requested once max_wal_size / (1 + target) of WAL is
// written: then checkpoints start on time, not on WAL volume.
double MaxWalSize(const Catalog& cat, const Profile& p, const WorkloadFacts& w) {
  const Parameter* timeout = cat.Find("checkpoint_timeout");
  double seconds = ParseValue(cat, *timeout, w.checkpoint_timeout).number;  // base unit s
  double wal = w.peak_wal_mb_per_second_per_cpu * kMB * *p.cpus * seconds * 1.9;
  return std::clamp(std::floor(wal / kGB) * kGB, 1 * kGB, 64 * kGB);
}

// The fixed memory: shared_buffers at the workload's share of RAM (the
// documentation's 25% for a dedicated server), maintenance memory,
// wal_buffers automatic.
void SizeFixedMemory(const Catalog& cat, const Profile& p, const WorkloadFacts& w, Machine* m) {
  const double ram = *p.ram_bytes;
  m->shared_buffers = std::min(FloorMB(ram * w.shared_buffers_fraction), MaxSize(cat, "shared_buffers"));
  m->effective_cache = std::min(std::max(m->shared_buffers, FloorMB(ram * w.effective_cache_fraction)),
                                MaxSize(cat, "effective_cache_size"));
  // Maintenance memory: RAM/16 for a manual VACUUM or index build (its
  // parallel workers share it), and at most an eighth of RAM for all
  // autovacuum workers together.
  m->maintenance = std::clamp(FloorMB(ram / 16), 16 * kMB, 2 * kGB);
  // At most RAM/8 for all of them, whatever the floor: a small machine with
  // many CPUs (a container) has many autovacuum workers and little RAM.
  m->autovacuum_mem = std::max(
      kMB, std::min(std::clamp(FloorMB(ram / 32), 16 * kMB, 1 * kGB), FloorMB(ram / 8 / m->autovacuum_workers)));
  m->max_wal = MaxWalSize(cat, p, w);
  MemoryModel& mm = m->memory;
  mm.shared_buffers = m->shared_buffers;
  // wal_buffers stays automatic (-1): what the server makes of it.
  Analysis sb = SettingsOnly(cat, {{"shared_buffers", Size(m->shared_buffers)}});
  mm.wal_buffers = EffectiveConfig(sb).Derived("wal_buffers")->value.number;
  mm.parallel_workers = m->parallel_workers;
  mm.autovacuum_workers = m->autovacuum_workers;
  mm.autovacuum_work_mem = m->autovacuum_mem;
  mm.maintenance_work_mem = m->maintenance;
  mm.hash_mem_multiplier = kHashMemMultiplier;
  mm.nodes_per_query = NodesPerQuery(p);
}

std::string Mem(double b) { return ExprValue::Number(b, Dim::kBytes).Display(); }

// work_mem: what is left of RAM (less headroom and a 5% margin) after the
// fixed memory, shared by every backend's sort/hash nodes with room for hash
// tables at hash_mem_multiplier: the memory-overcommit model solved for
// work_mem. Connections the profile gives are never lowered: below 4MB of
// work_mem the recommendation says so and what the choices are, and below
// PostgreSQL's minimum it refuses with the numbers. Connections it assumed
// are lowered instead, down to kMinConnections.
bool SolveWorkMem(const Profile& p, int requested, bool explicit_connections, Machine* m,
                  std::vector<std::string>* assumptions, std::string* error) {
  MemoryModel& mm = m->memory;
  const double usable = MemoryBudget(p) * 0.95;
  mm.connections = requested;
  double wm = mm.WorkMemWithin(usable);
  if (wm < kWorkMemFloor && !explicit_connections) {
    int conns = requested;
    while (conns > kMinConnections && mm.WorkMemWithin(usable) < kWorkMemFloor) mm.connections = --conns;
    if (conns < requested)
      assumptions->push_back(std::to_string(requested) + " connections (" +
                           (p.configured_connections ? "the configuration's" : "the workload's default") +
                           ") leave less than "
                           "4MB of work_mem each: max_connections lowered to " + std::to_string(conns) +
                           "; give --connections to keep more, and put a pooler (PgBouncer) in front of more clients");
    wm = mm.WorkMemWithin(usable);
  }
  // Parallel workers are the recommender's own choice too: on little RAM and
  // many CPUs (a small container on a large host) they would squeeze work_mem
  // below 4MB, so they are lowered next, down to none.
  // Counted against every slot of max_connections, as the output of a run
  // without the configuration counts them: the plan from that output then
  // lowers them as far (its clients are max_connections less the reserved).
  MemoryModel slots = mm;
  if (!explicit_connections && p.configured_connections) slots.connections += m->reserved_slots;
  if (slots.WorkMemWithin(usable) < kWorkMemFloor && slots.parallel_workers > 0) {
    const int from = m->parallel_workers;
    while (slots.parallel_workers > 0 && slots.WorkMemWithin(usable) < kWorkMemFloor) slots.parallel_workers -= 1;
    m->parallel_from = from;
    m->parallel_workers = static_cast<int>(slots.parallel_workers);
    mm.parallel_workers = slots.parallel_workers;
    m->per_gather = std::min(m->per_gather, m->parallel_workers);
    m->parallel_maintenance = std::min(m->parallel_maintenance, m->parallel_workers);
    assumptions->push_back(std::to_string(from) + " parallel workers (one per CPU) leave less than 4MB of work_mem "
                           "each: max_parallel_workers lowered to " + std::to_string(m->parallel_workers));
  }
  wm = mm.WorkMemWithin(usable);
  if (wm < kWorkMemMin) {
    MemoryModel at_min = mm;
    at_min.work_mem = kWorkMemMin;
    *error = std::to_string(static_cast<int>(mm.connections)) + " connections do not fit in " +
             Mem(*p.ram_bytes) + " of RAM: with work_mem at its minimum 64kB the worst case is " +
             Mem(at_min.HashTotal()) + " (" + at_min.Breakdown() + ", hash tables at hash_mem_multiplier " +
             Num(kHashMemMultiplier) + ") against " + Mem(usable) + " usable; choices: fewer connections behind a "
             "pooler (PgBouncer), more RAM, or a smaller --headroom or --nodes-per-query";
    return false;
  }
  wm = std::min(wm, 2 * kGB);
  mm.work_mem = wm >= kMB ? FloorMB(wm) : std::floor(wm / 1024) * 1024;
  if (wm < kWorkMemFloor) {
    double fit = std::floor((usable - mm.Fixed()) /
                            (kWorkMemFloor * mm.nodes_per_query * kHashMemMultiplier)) - mm.parallel_workers;
    assumptions->push_back(
        "warning: " + std::to_string(static_cast<int>(mm.connections)) + " connections (" +
        (explicit_connections        ? "--connections"
         : p.configured_connections ? "the configuration's"
                                    : "the fewest recommend assumes") +
        ") fit only with work_mem = " +
        Size(mm.work_mem) + ", below the 4MB default: sorts and hashes spill to disk sooner. "
        "Choices: accept the smaller work_mem (raise it per role or query where it matters), " +
        (fit >= 1 ? "or put a pooler (PgBouncer) in front and give --connections " + Num(fit) +
                        ", where work_mem stays at 4MB"
                  : std::string("or more RAM: with the ") + std::to_string(static_cast<int>(mm.parallel_workers)) +
                        " parallel workers even one connection would have less than 4MB"));
  }
  if (mm.HashTotal() > usable + 1) {  // a broken invariant of WorkMemWithin
    *error = "internal error: the work_mem solution does not fit the memory model";
    return false;
  }
  return true;
}

void MemoryCells(const Profile& p, const WorkloadFacts& w, const Machine& m,
                 const std::function<void(Cell)>& cell) {
  const double ram = *p.ram_bytes;
  const MemoryModel& mm = m.memory;
  const double sb = m.shared_buffers, wm = mm.work_mem, maint = m.maintenance, avmem = m.autovacuum_mem;
  const double sbf = w.shared_buffers_fraction, ecf = w.effective_cache_fraction;
  // With --connections, the clients plus the reserved slots (the memory
  // model counts the clients); else the workload's connections, all counted.
  const bool clients = p.connections || p.configured_connections;  // counted without the reserved slots
  cell({"max_connections", std::to_string(static_cast<int>(mm.connections) + (clients ? m.reserved_slots : 0)),
        "", "",
        clients ? std::string(p.connections ? "the expected concurrent connections (--connections)"
                                            : "the configuration's client connections") +
                      " plus the " + std::to_string(m.reserved_slots) +
                      " slots reserved for superusers and privileged roles; more clients belong behind a pooler"
                : "the workload's expected concurrent connections; more clients belong behind a pooler",
        "formula"});
  // The same band shared-buffers-share (PGC602) accepts: 40% of the
  // workload's share up to 40% of RAM.
  auto [sb_lo, sb_hi] = MemoryRange(ram * sbf * 0.6, sb, ram * std::min(0.4, sbf * 1.6));
  cell({"shared_buffers", Size(sb), sb_lo, sb_hi,
        Num(std::round(sb / ram * 1000) / 10) + "% of RAM: " +
            (*p.workload == Workload::kDesktop ? "a desktop leaves memory to other programs"
                                               : "the documentation's starting point for a dedicated server"),
        "docs-resource"});
  auto [ec_lo, ec_hi] = MemoryRange(std::max(sb, ram * ecf * 2 / 3), m.effective_cache, ram * ecf);
  cell({"effective_cache_size", Size(m.effective_cache), ec_lo, ec_hi,
        "shared_buffers plus the page cache the OS keeps; a planner estimate, allocates nothing", "docs-query"});
  cell({"work_mem", Size(wm), Size(std::max(kWorkMemMin, wm / 4)), Size(wm),
        "RAM left after the fixed memory, shared by " + std::to_string(static_cast<int>(mm.connections)) +
            " connections + " + std::to_string(static_cast<int>(mm.parallel_workers)) + " parallel workers x " +
            Num(mm.nodes_per_query) + " sort/hash node" + (mm.nodes_per_query == 1 ? "" : "s") +
            ", with room for hash tables at hash_mem_multiplier " + Num(mm.hash_mem_multiplier) +
            " (the memory-overcommit model)",
        "formula"});
  cell({"hash_mem_multiplier", "2.0", "", "", "the default since 15; work_mem leaves room for hash tables this large",
        "docs-resource"});
  cell({"maintenance_work_mem", Size(maint), Size(std::max(16 * kMB, maint / 2)),
        Size(std::max(maint, std::min(2 * kGB, FloorMB(ram / 8)))),
        "RAM/16, 16MB to 2GB: a VACUUM or CREATE INDEX (its parallel workers share it)", "formula"});
  cell({"autovacuum_work_mem", Size(avmem), Size(std::min(avmem, 64 * kMB)), Size(avmem),
        "RAM/32, 16MB to 1GB, and at most RAM/8 for all " + std::to_string(m.autovacuum_workers) +
            " autovacuum workers",
        "formula"});
  cell({"wal_buffers", "-1", "", "",
        "automatic: shared_buffers/32, at most one WAL segment (" +
            FormatExactUnit(static_cast<int64_t>(std::llround(mm.wal_buffers / 8192)), 8192, Dim::kBytes) + " here)", "docs-wal"});
}

void WalAndProcessCells(const Catalog& cat, const Profile& p, const WorkloadFacts& w, const Machine& m,
                        const std::function<void(Cell)>& cell) {
  const double max_wal = m.max_wal;
  cell({"min_wal_size", Size(max_wal / 4), "80MB", Size(max_wal), "a quarter of max_wal_size: recycled segments for bursts",
        "docs-wal"});
  cell({"max_wal_size", Size(max_wal), Size(max_wal), Size(std::min(max_wal * 4, 256 * kGB)),
        "the WAL of " + w.checkpoint_timeout + " at an assumed peak of " + Num(w.peak_wal_mb_per_second_per_cpu) +
            "MB/s per CPU (" + WorkloadName(*p.workload) + ") x 1.9 (checkpoint_completion_target), 1GB to 64GB: "
            "checkpoints start on time, not on WAL volume; needs that much free disk for pg_wal, and "
            "pg_stat_checkpointer (pg_stat_bgwriter before 17) shows requested checkpoints if the peak is higher",
        "docs-wal"});
  cell({"checkpoint_timeout", w.checkpoint_timeout, "5min", "30min", "fewer, smoother checkpoints; longer crash recovery",
        "docs-wal"});
  cell({"checkpoint_completion_target", "0.9", "", "",
        "spread checkpoint writes over 90% of the interval (the default since 14)", "docs-wal"});
  cell({"max_worker_processes", std::to_string(m.worker_processes), "", "",
        "one per CPU, at least the default 8: parallel workers need a free slot", "formula"});
  const std::string lowered = m.parallel_from ? "lowered from " + std::to_string(m.parallel_from) +
                                                    " for RAM: more would leave work_mem below 4MB"
                                              : "";
  // Lowered for RAM, the value is a ceiling: fewer workers fit as well (the
  // plan from a configuration with fewer connections lands a few higher).
  cell({"max_parallel_workers", std::to_string(m.parallel_workers), m.parallel_from ? "0" : "",
        m.parallel_from ? std::to_string(m.parallel_workers) : "",
        !lowered.empty() ? lowered
        : *p.cpus == 1   ? "one CPU: no parallel query (a worker would only take turns with its leader)"
                         : "the CPUs (at least 2), within max_worker_processes",
        "formula"});
  cell({"max_parallel_workers_per_gather", std::to_string(m.per_gather), "", "",
        *p.cpus == 1                    ? "one CPU: no parallel query"
        : m.parallel_workers == 0       ? "no parallel workers: " + lowered
        : *p.workload == Workload::kOlap ? "analytic queries use up to half the CPUs"
                                         : "short queries: a few workers per query at most",
        "formula"});
  cell({"max_parallel_maintenance_workers", std::to_string(m.parallel_maintenance), "", "",
        *p.cpus == 1              ? "one CPU: no parallel index builds or VACUUM"
        : m.parallel_workers == 0 ? "no parallel workers: " + lowered
                                  : "parallel index builds and VACUUM",
        "formula"});
  cell({"autovacuum_max_workers", std::to_string(m.autovacuum_workers), "", "", "a quarter of the CPUs, 3 to 10",
        "formula"});
  if (cat.major() >= 18)
    cell({"autovacuum_worker_slots", std::to_string(std::max(16, m.autovacuum_workers)), "", "",
          "slots reserved at start; autovacuum_max_workers can be raised by reload up to this", "formula"});
  cell({"track_io_timing", "on", "", "",
        "pg_stat_io's read and write times and EXPLAIN (ANALYZE, BUFFERS) I/O timings need it: measuring the I/O "
        "settings depends on it; check the clock's overhead with pg_test_timing first",
        "docs-stats"});
}

// The settings of the machine and autovacuum blocks, as an analysis.
Analysis Recommended(const Catalog& cat, const Recommendation& r) {
  std::vector<std::pair<std::string, std::string>> settings;
  for (const std::vector<Cell>* block : {&r.machine, &r.autovacuum})
    for (const Cell& c : *block) settings.emplace_back(c.parameter, c.value);
  return SettingsOnly(cat, settings);
}

// The machine and autovacuum blocks decide io_max_concurrency (shared
// buffers per process slot, autovacuum's slots among them): read it from the
// effective model rather than repeating its formula.
double ResolvedIoMaxConcurrency(const Catalog& cat, const Recommendation& r) {
  Analysis a = Recommended(cat, r);
  if (auto d = EffectiveConfig(a).Derived("io_max_concurrency")) return d->value.number;
  return 1000;  // before 18: no cap
}

}  // namespace

const Cell* RecommendedCell(const Recommendation& r, const std::string& parameter) {
  auto find = [&](const std::vector<Cell>& v) -> const Cell* {
    for (const Cell& c : v)
      if (c.parameter == parameter) return &c;
    return nullptr;
  };
  if (const Cell* c = find(r.machine)) return c;
  if (r.selected >= 0)
    if (const Cell* c = find(r.matrix[r.selected].cells)) return c;
  return find(r.autovacuum);
}

std::string TablespaceStatement(const std::string& name, const std::vector<const Cell*>& options) {
  return "ALTER TABLESPACE " + QuoteIdentifier(name) + " SET (" +
         CommaList(options, [](const Cell* c) { return c->parameter + " = " + c->value; }) + ");";
}

bool ProfileSufficient(const Profile& in, std::string* error) {
  if (!in.ram_bytes || !in.cpus) {
    *error = "recommend needs the machine's RAM and CPUs: add --ram (e.g. 64GB) and --cpus, or set them in "
             "[profile] of .pgconflint.toml";
    return false;
  }
  if (*in.ram_bytes < kMinRam) {
    *error = "recommend needs at least 256MB of RAM: below it the fixed memory (shared_buffers, and the autovacuum "
             "and maintenance memory at their 16MB floors) leaves almost nothing for the connections";
    return false;
  }
  return true;
}

int ReservedSlots(const Catalog& cat) {
  int slots = 0;
  for (const char* name : {"superuser_reserved_connections", "reserved_connections"})
    if (const Parameter* param = cat.Find(name)) slots += std::atoi(param->boot_val);
  return slots;
}

bool Recommend(const Profile& in, const Catalog& cat, Recommendation* out, std::string* error) {
  if (!ProfileSufficient(in, error)) return false;
  const StorageFacts& facts = BuiltinStorageFacts();
  Recommendation& r = *out;
  r = Recommendation();
  r.major = cat.major();
  r.profile = in;
  Profile& p = r.profile;
  if (!p.workload) {
    p.workload = Workload::kMixed;
    r.assumptions.push_back("workload not given: assumed mixed (--workload oltp|olap|mixed|web|desktop)");
  }
  auto wf = facts.workloads.find(WorkloadName(*p.workload));
  if (wf == facts.workloads.end()) {
    *error = "knowledge/storage.toml has no [workload." + WorkloadName(*p.workload) + "]";
    return false;
  }
  const WorkloadFacts& w = wf->second;
  int requested = p.connections.value_or(p.configured_connections.value_or(w.connections));
  if (!p.connections && p.configured_connections)
    r.assumptions.push_back("connections not given: " + std::to_string(requested) +
                            ", the configuration's max_connections " + std::to_string(requested + ReservedSlots(cat)) +
                            " less the " + std::to_string(ReservedSlots(cat)) +
                            " reserved slots (--connections plans another number)");
  else if (!p.connections)
    r.assumptions.push_back("connections not given: " + std::to_string(requested) + " for the " +
                            WorkloadName(*p.workload) + " workload (--connections)");
  Machine m;
  SizeProcesses(p, &m);
  SizeFixedMemory(cat, p, w, &m);
  m.reserved_slots = ReservedSlots(cat);
  if (!SolveWorkMem(p, requested, p.connections.has_value(), &m, &r.assumptions, error)) return false;
  auto cell = [&](Cell c) {
    if (cat.Find(c.parameter)) r.machine.push_back(std::move(c));  // else not in this major
  };
  MemoryCells(p, w, m, cell);
  WalAndProcessCells(cat, p, w, m, cell);
  if (p.data_size_bytes && *p.data_size_bytes <= m.effective_cache)
    r.data_in_memory = "the data (" + Mem(*p.data_size_bytes) + ") fits in memory (effective_cache_size " +
                       Mem(m.effective_cache) + ")";
  recommend_internal::AddAutovacuum(cat, p.storage ? p.storage->type() : facts.types[facts.default_type], &r);
  const double io_max = ResolvedIoMaxConcurrency(cat, r);
  recommend_internal::AddStorage(cat, io_max, &r);
  if (!p.storage) recommend_internal::CapDefaultIoConcurrency(cat, io_max, &r);
  const double nodes = NodesPerQuery(p);
  r.assumptions.push_back("memory model: " + Num(nodes) + " sort/hash node" + (nodes == 1 ? "" : "s") +
                          " per backend, " + Num(Headroom(p) * 100) + "% of RAM kept for the OS" +
                          (p.nodes_per_query && p.headroom ? " (--nodes-per-query, --headroom)"
                                                           : " (" + WorkloadName(*p.workload) + ": " + w.memory_why +
                                                                 "; --nodes-per-query, --headroom)"));
  if (!p.storage) r.assumptions.push_back("storage not given: showing every storage row (--storage)");
  recommend_internal::ClampCells(cat, p.os, &r);
  recommend_internal::AddHugePages(Recommended(cat, r), &r);
  for (const auto& [key, text] : facts.sources) r.sources.push_back(key + ": " + text);
  return true;
}

std::string RecommendationHeader(const Recommendation& r) {
  const Profile& p = r.profile;
  std::ostringstream o;
  o << "PostgreSQL " << r.major << ", " << *p.cpus << (*p.cpus == 1 ? " CPU, " : " CPUs, ")
    << ExprValue::Number(*p.ram_bytes, Dim::kBytes).Display()
    << " RAM, " << WorkloadName(*p.workload);
  if (p.storage) o << ", " << StorageName(*p.storage);
  for (const auto& [n, s] : p.tablespaces) o << ", tablespace " << OneLine(n) << " on " << StorageName(s);
  return o.str();
}

std::string RangeText(const Cell& c) {
  if (c.min.empty() && c.max.empty()) return "";
  if (c.max.empty()) return "or " + c.min;
  return c.min + " .. " + c.max;
}

}  // namespace pgconflint
