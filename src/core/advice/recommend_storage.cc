// The recommender's storage part: the matrix of starting points per storage
// type (knowledge/storage.toml, capped by what the machine resolves), the
// per-tablespace options, and autovacuum sized for the data directory's
// storage and per table size.
#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "core/rules/expr.h"
#include "core/advice/recommend_internal.h"
#include "core/knowledge/value.h"
#include "core/base/strings.h"

namespace pgconflint::recommend_internal {

double BootValue(const Catalog& cat, const char* name) {
  const Parameter* p = cat.Find(name);
  return p ? strtod(p->boot_val, nullptr) : 0;
}

namespace {

// Bytes of a size ("256kB").
double SizeBytes(const std::string& v) {
  ExprValue e;
  return ParseQuantity(v, &e) ? e.number : 0;
}

// Whether storage carries reporting, large scans next to short queries: an
// OLAP server's data directory, and under an OLAP or mixed workload a
// tablespace (where a mixed server keeps the reports' tables apart).
bool CarriesReports(const Profile& p, bool tablespace) {
  return p.workload && (*p.workload == Workload::kOlap || (tablespace && *p.workload == Workload::kMixed));
}

// The storage type's starting point for `param` on this machine: the start
// measured on small machines where this one is as small, else the start for
// storage that carries reporting where it does, else the plain start.
Cell StartingCell(const StorageType& t, const char* param, int cpus, bool reporting) {
  const StartingPoint& s = t.settings.at(param);
  Cell c{param, s.start, s.min, s.max, s.why, s.source};
  const StartVariant* v = s.small_cpus > 0 && cpus <= s.small_cpus ? &s.small
                          : reporting && !s.reporting.start.empty() ? &s.reporting
                                                                     : nullptr;
  if (v) {
    c.value = v->start;
    c.why = v->why;
    c.source = v->source;
  }
  return c;
}

// io_workers: the storage type's workers per CPU, never below the server's
// default unless the storage type's minimum comes from a measurement on a
// machine this small, at most one per CPU above that minimum and the type's
// maximum (at most 32, MAX_IO_WORKERS).
Cell IoWorkersCell(const StorageType& t, const Catalog& cat, int cpus) {
  const bool measured = t.io_workers_min > 0 && (t.io_workers_min_up_to_cpus == 0 || cpus <= t.io_workers_min_up_to_cpus);
  const int low = std::clamp(measured ? t.io_workers_min : static_cast<int>(BootValue(cat, "io_workers")),
                             1, t.io_workers_max);
  int high = std::clamp(cpus, low, t.io_workers_max);
  int workers = std::clamp(static_cast<int>(std::ceil(cpus * t.io_workers_per_cpu - 1e-9)), low, high);
  return {"io_workers", std::to_string(workers), std::to_string(low), std::to_string(high), t.io_workers_why,
          t.io_workers_source};
}

// io_method, and io_workers when the workers run (18 and later).
void AddIoMethod(const StorageType& t, const Catalog& cat, const Profile& p, std::vector<Cell>* cells) {
  Cell method = StartingCell(t, "io_method", *p.cpus, false);
  bool uring = IoUringAllowed(p) && t.high_latency;
  if (uring) {
    method.value = "io_uring";
    method.min = "worker";
    method.why = "io_uring is available and the storage is high-latency: the candidate to measure, with worker as the rollback";
  }
  cells->push_back(method);
  if (!uring) cells->push_back(IoWorkersCell(t, cat, *p.cpus));
}

// io_combine_limit within what the major allows, and io_max_combine_limit
// (18) at least as large.
void AddCombineLimit(const StorageType& t, const Catalog& cat, int cpus, std::vector<Cell>* cells) {
  Cell combine = StartingCell(t, "io_combine_limit", cpus, false);
  double limit_bytes = std::min(SizeBytes(combine.value), SizeBytes(cat.major() >= 18 ? "1MB" : "256kB"));
  combine.value = limit_bytes < kMB ? std::to_string(static_cast<long long>(limit_bytes / 1024)) + "kB" : Size(limit_bytes);
  cells->push_back(combine);
  if (cat.major() >= 18)
    cells->push_back({"io_max_combine_limit",
                      std::max(SizeBytes(combine.value), 128 * 1024.0) >= 256 * 1024 ? combine.value : "128kB", "", "",
                      "must be at least io_combine_limit, or reads are silently capped (restart to change)",
                      "docs-aio"});
}

// When the data fits in memory, reads rarely reach the storage: the
// asynchronous I/O settings keep PostgreSQL's defaults, and random reads
// cost about what sequential ones do (the documentation of random_page_cost).
void KeepIoDefaults(const Catalog& cat, const std::string& reason, std::vector<Cell>* cells) {
  for (Cell& c : *cells) {
    const Parameter* p = cat.Find(c.parameter);
    if (c.parameter == "random_page_cost") {
      c.max = c.value;
      c.min = c.value = "1.1";
      c.why = reason + ": reads are served from memory, where random ones cost about what sequential ones do";
      c.source = "docs-query";
      continue;
    }
    if (!p || c.parameter == "seq_page_cost" || c.parameter == "io_max_combine_limit") continue;
    c.value = p->type == VarType::kInteger && p->unit_kind != UnitKind::kNone
                  ? FormatWithUnit(strtod(p->boot_val, nullptr), *p)
                  : std::string(p->boot_val);
    c.min = c.max = "";
    c.why = reason + ": reads rarely reach the storage, so this asynchronous I/O setting changes little; "
                     "PostgreSQL's default is kept";
    c.source = "docs-resource";
  }
}

// The row of storage type `s`: for the data directory, or (tablespace) for a
// tablespace on it.
StorageRow RowFor(Storage s, const Catalog& cat, const Recommendation& r, double io_max, bool tablespace) {
  const StorageType& t = s.type();
  const Profile& p = r.profile;
  const bool reporting = CarriesReports(p, tablespace);
  StorageRow row{s, t.title, {}, t.scheduler, t.mount, t.notes};
  for (const char* param : {"effective_io_concurrency", "maintenance_io_concurrency"})
    row.cells.push_back(IoConcurrencyCell(t, param, p, tablespace, io_max));
  row.cells.push_back(StartingCell(t, "random_page_cost", *p.cpus, reporting));
  row.cells.push_back(StartingCell(t, "seq_page_cost", *p.cpus, reporting));
  if (cat.major() >= 18) AddIoMethod(t, cat, p, &row.cells);
  if (cat.Find("io_combine_limit")) AddCombineLimit(t, cat, *p.cpus, &row.cells);
  if (!r.data_in_memory.empty()) KeepIoDefaults(cat, r.data_in_memory, &row.cells);
  return row;
}

// The four options a tablespace accepts, from its storage type's row for a
// tablespace.
TablespaceAdvice TablespaceFor(const std::string& name, Storage storage, const Catalog& cat,
                               const Recommendation& r, double io_max) {
  TablespaceAdvice t{name, storage, {}, ""};
  const StorageRow row = RowFor(storage, cat, r, io_max, true);
  std::vector<const Cell*> options;
  for (const Cell& c : row.cells) {
    if (c.parameter != "effective_io_concurrency" && c.parameter != "maintenance_io_concurrency" &&
        c.parameter != "random_page_cost" && c.parameter != "seq_page_cost")
      continue;
    t.options.push_back(c);
  }
  for (const Cell& c : t.options) options.push_back(&c);
  t.sql = TablespaceStatement(name, options);
  return t;
}


struct SizeClass {
  const char* label;
  double rows;
  double sf_oltp, sf_mixed, isf_bulk;
};

TableClass TableClassFor(const SizeClass& c, const std::string& wl, const StorageType& data, double max_threshold,
                         const Catalog& cat) {
  auto trigger = [&](double threshold, double sf, double rows) {
    double t = threshold + sf * rows;
    return max_threshold > 0 ? std::min(t, max_threshold) : t;
  };
  TableClass tc;
  tc.label = std::string(c.label) + ", " + wl;
  tc.rows = c.rows;
  tc.workload = wl;
  double sf = wl == "oltp" ? c.sf_oltp : c.sf_mixed;
  tc.options.push_back({"autovacuum_vacuum_scale_factor", Num(sf), "", "", "vacuum after ~" + Num(sf * 100) + "% of rows changed", "docs-vacuum"});
  tc.options.push_back({"autovacuum_vacuum_threshold", "1000", "", "", "base count of dead tuples", "docs-vacuum"});
  if (wl == "bulk-load") {
    tc.options.push_back({"autovacuum_vacuum_insert_scale_factor", Num(c.isf_bulk), "", "",
                          "insert-only tables still need vacuum to freeze and set visibility", "docs-vacuum"});
    tc.options.push_back({"autovacuum_vacuum_insert_threshold", "10000", "", "", "base count of inserted tuples", "docs-vacuum"});
  }
  if (c.rows >= 1e8)
    tc.options.push_back({"autovacuum_vacuum_cost_limit", std::to_string(data.large_table_autovacuum_cost_limit), "", "",
                          "large tables need a larger budget to finish between triggers", "docs-vacuum"});
  tc.vacuum_trigger = trigger(1000, sf, c.rows);
  tc.default_trigger = trigger(BootValue(cat, "autovacuum_vacuum_threshold"),
                               BootValue(cat, "autovacuum_vacuum_scale_factor"), c.rows);
  tc.sql = "ALTER TABLE <table> SET (" +
           CommaList(tc.options, [](const Cell& o) { return o.parameter + " = " + o.value; }) + ");";
  return tc;
}

// io_method is server-wide: where a tablespace on high-latency storage
// carries the reporting load and the profile allows io_uring, io_uring is the
// candidate for the whole server, even when the data directory's storage
// alone would keep worker (its io_workers are then unused). Without
// --storage, the machine block carries it.
void ChooseServerIoMethod(const Catalog& cat, Recommendation* r) {
  const Profile& p = r->profile;
  if (cat.major() < 18 || !IoUringAllowed(p) || !r->data_in_memory.empty() || !CarriesReports(p, true)) return;
  auto high = std::find_if(r->tablespaces.begin(), r->tablespaces.end(),
                           [](const TablespaceAdvice& t) { return t.storage.type().high_latency; });
  if (high == r->tablespaces.end()) return;
  const TablespaceAdvice* reports = &*high;
  const StartingPoint& measured = reports->storage.type().settings.at("io_method");
  Cell method{"io_method", "io_uring", "worker", "",
              "io_uring is available and tablespace " + OneLine(reports->name) + " on " + StorageName(reports->storage) +
                  " storage (high-latency) carries the " + WorkloadName(*p.workload) +
                  " workload's reports: io_method is server-wide, so io_uring is the candidate to measure for the "
                  "whole server, with worker as the rollback",
              measured.source};
  if (r->selected < 0) {
    r->machine.push_back(std::move(method));
    return;
  }
  std::vector<Cell>& cells = r->matrix[r->selected].cells;
  auto it = std::find_if(cells.begin(), cells.end(), [](const Cell& c) { return c.parameter == "io_method"; });
  if (it == cells.end() || it->value == "io_uring") return;
  *it = std::move(method);
  cells.erase(std::remove_if(cells.begin(), cells.end(), [](const Cell& c) { return c.parameter == "io_workers"; }),
              cells.end());
}

}  // namespace

void AddStorage(const Catalog& cat, double io_max, Recommendation* r) {
  const Profile& p = r->profile;
  for (Storage s : Storage::All()) {
    r->matrix.push_back(RowFor(s, cat, *r, io_max, false));
    if (p.storage && *p.storage == s) r->selected = static_cast<int>(r->matrix.size() - 1);
  }
  for (const auto& [name, storage] : p.tablespaces)
    r->tablespaces.push_back(TablespaceFor(name, storage, cat, *r, io_max));
  ChooseServerIoMethod(cat, r);
}

void AddAutovacuum(const Catalog& cat, const StorageType& data, Recommendation* r) {
  r->autovacuum.push_back({"autovacuum_vacuum_cost_limit", std::to_string(data.autovacuum_cost_limit), "", "",
                           data.autovacuum_cost_limit_why + " (" + data.name + ")", "docs-vacuum-cost"});
  r->autovacuum.push_back({"autovacuum_vacuum_cost_delay", "2ms", "", "",
                           "the default since PostgreSQL 12; 20ms was the default in 11 and earlier", "release-12"});
  // From 18, autovacuum_vacuum_max_threshold caps the trigger (0: no cap).
  const double max_threshold = BootValue(cat, "autovacuum_vacuum_max_threshold");
  static const SizeClass kClasses[] = {{"~1M rows", 1e6, 0.05, 0.1, 0.1},
                                       {"~10M rows", 1e7, 0.02, 0.05, 0.05},
                                       {"~100M rows", 1e8, 0.005, 0.01, 0.01},
                                       {"~1B rows", 1e9, 0.001, 0.002, 0.002}};
  for (const SizeClass& c : kClasses)
    for (const char* wl : {"oltp", "mixed", "bulk-load"}) r->tables.push_back(TableClassFor(c, wl, data, max_threshold, cat));
}

}  // namespace pgconflint::recommend_internal

namespace pgconflint {

Cell IoConcurrencyCell(const StorageType& t, const char* param, const Profile& p, bool tablespace, double io_max) {
  return CappedIoConcurrency(
      recommend_internal::StartingCell(t, param, *p.cpus, recommend_internal::CarriesReports(p, tablespace)), io_max);
}

bool IoUringAllowed(const Profile& p) {
  return p.io_uring.value_or(false) && (!p.os || *p.os == "linux") &&
         (!p.build_features || p.build_features->count("liburing"));
}

// effective_io_concurrency and maintenance_io_concurrency: more than the
// resolved io_max_concurrency gains nothing (io-concurrency-above-max).
Cell CappedIoConcurrency(Cell c, double io_max) {
  if (strtod(c.value.c_str(), nullptr) > io_max) {
    c.why += "; capped at the resolved io_max_concurrency (" + recommend_internal::Num(io_max) + ")";
    c.value = recommend_internal::Num(io_max);
  }
  if (!c.max.empty() && strtod(c.max.c_str(), nullptr) > io_max) c.max = recommend_internal::Num(io_max);
  if (!c.min.empty() && strtod(c.min.c_str(), nullptr) > io_max) c.min = recommend_internal::Num(io_max);
  return c;
}

}  // namespace pgconflint
