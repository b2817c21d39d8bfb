// The recommender. Formulas are commented where they are defined; storage
// starting points and their reasons come from knowledge/storage.toml.
#include "core/recommend.h"

#include <nlohmann/json.hpp>
#include <toml++/toml.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

#include "core/effective.h"
#include "core/expr.h"
#include "core/workspace.h"
#include "core/value.h"

namespace pgconflint {
namespace generated {
extern const char kstorage_toml[];
}

namespace {

constexpr double kMB = 1024.0 * 1024;
constexpr double kGB = kMB * 1024;

const toml::table& StorageFacts() {
  static const toml::table t = toml::parse(generated::kstorage_toml);  // embedded: a broken file fails the build's tests
  return t;
}

// A size in postgresql.conf spelling, rounded down to whole MB (or kB below 1MB).
std::string Size(double bytes) {
  double mb = std::floor(bytes / kMB);
  if (mb >= 1) {
    long long v = static_cast<long long>(mb);
    if (v % (1024 * 1024) == 0) return std::to_string(v / (1024 * 1024)) + "TB";
    if (v % 1024 == 0) return std::to_string(v / 1024) + "GB";
    return std::to_string(v) + "MB";
  }
  return std::to_string(static_cast<long long>(std::max(64.0, std::floor(bytes / 1024)))) + "kB";
}

double FloorMB(double bytes) { return std::floor(bytes / kMB) * kMB; }

std::string Num(double v) {
  char buf[32];
  if (v == std::floor(v)) snprintf(buf, sizeof buf, "%.0f", v);
  else snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

std::string TomlValue(const toml::node* n) {
  if (!n) return "";
  if (auto s = n->value<std::string>()) return *s;
  if (n->is_integer()) return std::to_string(*n->value<int64_t>());
  if (auto d = n->value<double>()) {
    char buf[32];
    snprintf(buf, sizeof buf, "%.1f", *d);
    std::string r = buf;
    if (std::fabs(*d * 10 - std::round(*d * 10)) > 1e-9) r = Num(*d);
    return r;
  }
  return "";
}

Cell StorageCell(const toml::table& row, const char* param) {
  Cell c;
  c.parameter = param;
  const toml::table* t = row[param].as_table();
  if (!t) return c;
  c.value = TomlValue(t->get("start"));
  c.min = TomlValue(t->get("min"));
  c.max = TomlValue(t->get("max"));
  c.why = TomlValue(t->get("why"));
  c.source = TomlValue(t->get("source"));
  return c;
}

double CellNumber(const Cell& c) { return strtod(c.value.c_str(), nullptr); }

// Bytes of a size cell ("256kB").
double CellBytes(const std::string& v) {
  ExprValue e;
  return ParseQuantity(v, &e) ? e.number : 0;
}

// Where io_uring's lower per-request overhead can pay: requests that wait on
// a network or a controller (not seek-bound disks, per the HDD row).
bool HighLatency(Storage s) { return s == Storage::kNetworkBlock || s == Storage::kRaidSan; }

std::string Quoted(const std::string& param, const std::string& v, const Catalog& cat) {
  const Parameter* p = cat.Find(param);
  bool bare = p && (p->type == VarType::kReal || (p->type == VarType::kInteger && p->unit_kind == UnitKind::kNone) ||
                    p->type == VarType::kBool || p->type == VarType::kEnum);
  return bare ? v : "'" + v + "'";
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

bool Recommend(const Profile& in, const Catalog& cat, Recommendation* out, std::string* error) {
  if (!in.ram_bytes || !in.cpus) {
    *error = "recommend needs the machine's RAM and CPUs: add --ram (e.g. 64GB) and --cpus, or set them in "
             "[profile] of .pgconflint.toml";
    return false;
  }
  if (*in.ram_bytes < kGB) {
    *error = "recommend needs at least 1GB of RAM";
    return false;
  }
  const toml::table& facts = StorageFacts();
  Recommendation& r = *out;
  r = Recommendation();
  r.major = cat.major();
  r.profile = in;
  Profile& p = r.profile;
  if (!p.workload) {
    p.workload = Workload::kMixed;
    r.assumptions.push_back("workload not given: assumed mixed (--workload oltp|olap|mixed|web|desktop)");
  }
  const toml::table& w = *facts["workload"][WorkloadName(*p.workload)].as_table();
  int requested = p.connections.value_or(static_cast<int>(w["connections"].value<int64_t>().value_or(100)));
  if (!p.connections)
    r.assumptions.push_back("connections not given: " + std::to_string(requested) + " for the " +
                            WorkloadName(*p.workload) + " workload (--connections)");
  const double ram = *p.ram_bytes;
  const int cpus = *p.cpus;
  const bool pg18 = cat.major() >= 18;

  // --- Machine block. shared_buffers: the documentation's 25% of RAM starting
  // point (a smaller share for a desktop).
  double sb = FloorMB(ram * w["shared_buffers_fraction"].value<double>().value_or(0.25));
  double ecs = std::max(sb, FloorMB(ram * w["effective_cache_fraction"].value<double>().value_or(0.75)));
  // maintenance_work_mem: RAM/16 between 64MB and 2GB; autovacuum workers get
  // their own, smaller budget (RAM/32, 64MB..1GB) since several run at once.
  int av_workers = std::clamp(cpus / 4, 3, 10);
  int mwp = std::max(8, cpus);
  int mpw = std::max(2, std::min(cpus, mwp));
  bool olap = *p.workload == Workload::kOlap;
  int per_gather = std::min(mpw, olap ? std::clamp(cpus / 2, 2, 8) : std::clamp(cpus / 4, 1, 4));
  int pmw = std::min(mpw, std::clamp(cpus / 4, 1, 4));
  // Maintenance memory: RAM/16 for a manual VACUUM or index build (its
  // parallel workers share it), and at most an eighth of RAM for all
  // autovacuum workers together.
  double maint = std::clamp(FloorMB(ram / 16), 16 * kMB, 2 * kGB);
  double avmem = std::clamp(FloorMB(std::min(ram / 32, ram / 8 / av_workers)), 16 * kMB, 1 * kGB);
  // wal_buffers stays automatic (-1): shared_buffers/32, at most one WAL segment.
  double wal = std::clamp(std::floor(sb / cat.build().block_size / 32), 8.0,
                          static_cast<double>(cat.build().wal_segment_size) / cat.build().wal_block_size) *
               cat.build().wal_block_size;
  const double temp = 8 * kMB;  // temp_buffers default, counted per connection
  const double hmm = 2.0;
  const double nodes = p.nodes_per_query;
  // work_mem: what is left of RAM (less headroom and a 5% margin) after the
  // fixed memory, shared by every connection's sort/hash nodes. This is the
  // memory-overcommit rule's worst case solved for work_mem.
  double usable = ram * (1 - p.headroom) * 0.95;
  double fixed = sb + wal + av_workers * avmem + maint;
  int conns = requested;
  auto work_mem_for = [&](int c) { return (usable - fixed - c * temp) / (c * nodes * hmm); };
  double wm = work_mem_for(conns);
  if (wm < 4 * kMB) {
    int fit = static_cast<int>(std::floor((usable - fixed) / (4 * kMB * nodes * hmm + temp)));
    fit = std::max(fit, 10);
    if (fit < conns) {
      r.assumptions.push_back(std::to_string(conns) + " connections do not fit in RAM with 4MB of work_mem each: "
                              "max_connections lowered to " + std::to_string(fit) +
                              "; put a connection pooler (PgBouncer) in front for more clients");
      conns = fit;
    }
    wm = work_mem_for(conns);
  }
  wm = std::clamp(wm, 64.0 * 1024, 2 * kGB);
  wm = wm >= kMB ? FloorMB(wm) : std::floor(wm / 1024) * 1024;
  // The floors above can still overcommit a small machine: lower the
  // connections until the worst case fits, but keep room for clients beyond
  // the 3 superuser-reserved slots.
  constexpr int kMinConnections = 10;
  while (conns > kMinConnections && fixed + conns * (wm * nodes * hmm + temp) > usable) --conns;
  if (fixed + conns * (wm * nodes * hmm + temp) > usable) {
    *error = "this machine cannot hold " + std::to_string(kMinConnections) +
             " connections with the fixed memory PostgreSQL needs (" + Size(fixed) + "): add RAM, or lower --headroom " +
             "or --nodes-per-query";
    return false;
  }
  double max_wal = std::clamp(std::floor(ram * w["max_wal_size_fraction_of_ram"].value<double>().value_or(0.0625) / kGB) * kGB,
                              1 * kGB, 64 * kGB);
  auto cell = [&](const std::string& param, const std::string& value, const std::string& why,
                  const std::string& min = "", const std::string& max = "", const std::string& source = "formula") {
    if (!cat.Find(param)) return;  // not in this major
    r.machine.push_back({param, value, min, max, why, source});
  };
  cell("max_connections", std::to_string(conns), "expected concurrent connections; more clients belong behind a pooler");
  const double sbf = w["shared_buffers_fraction"].value<double>().value_or(0.25);
  const double ecf = w["effective_cache_fraction"].value<double>().value_or(0.75);
  cell("shared_buffers", Size(sb),
       Num(std::round(sb / ram * 100)) + "% of RAM: " +
           (*p.workload == Workload::kDesktop ? "a desktop leaves memory to other programs"
                                              : "the documentation's starting point for a dedicated server"),
       Size(ram * sbf * 0.6), Size(ram * std::min(0.4, sbf * 1.6)), "docs-resource");
  cell("effective_cache_size", Size(ecs), "shared_buffers plus the page cache the OS keeps; a planner estimate, allocates nothing",
       Size(std::max(sb, ram * ecf * 2 / 3)), Size(ram * ecf), "docs-query");
  cell("work_mem", Size(wm), "RAM left after the fixed memory, shared by " + std::to_string(conns) + " connections x " +
       Num(nodes) + " sort/hash nodes x hash_mem_multiplier " + Num(hmm) + " (the memory-overcommit model)",
       Size(std::max(64.0 * 1024, wm / 4)), Size(wm), "formula");
  cell("hash_mem_multiplier", "2.0", "the default since 15; raise it rather than work_mem when hash joins spill", "", "", "docs-resource");
  cell("maintenance_work_mem", Size(maint), "RAM/16, 16MB to 2GB: a VACUUM or CREATE INDEX (its parallel workers share it)",
       Size(std::max(16 * kMB, maint / 2)), Size(std::max(maint, std::min(2 * kGB, FloorMB(ram / 8)))));
  cell("autovacuum_work_mem", Size(avmem), "RAM/32 (at most RAM/8 for all " + std::to_string(av_workers) + " autovacuum workers), 16MB to 1GB",
       Size(std::min(avmem, 64 * kMB)), Size(avmem));
  cell("wal_buffers", "-1", "automatic: shared_buffers/32, at most one WAL segment (" + Size(wal) + " here)", "", "", "docs-wal");
  cell("min_wal_size", Size(max_wal / 4), "a quarter of max_wal_size: recycled segments for bursts", "80MB", Size(max_wal), "docs-wal");
  cell("max_wal_size", Size(max_wal), "room for checkpoints to be triggered by time, not WAL volume (more is fine where the disk allows)",
       Size(max_wal), Size(max_wal * 4), "docs-wal");
  cell("checkpoint_timeout", TomlValue(w.get("checkpoint_timeout")), "fewer, smoother checkpoints; longer crash recovery", "5min", "30min", "docs-wal");
  cell("checkpoint_completion_target", "0.9", "spread checkpoint writes over 90% of the interval (the default since 14)", "", "", "docs-wal");
  cell("max_worker_processes", std::to_string(mwp), "one per CPU, at least the default 8: parallel workers need a free slot");
  cell("max_parallel_workers", std::to_string(mpw), "the CPUs (at least 2), within max_worker_processes");
  cell("max_parallel_workers_per_gather", std::to_string(per_gather),
       olap ? "analytic queries use up to half the CPUs" : "short queries: a few workers per query at most");
  cell("max_parallel_maintenance_workers", std::to_string(pmw), "parallel index builds and VACUUM");
  cell("autovacuum_max_workers", std::to_string(av_workers), "a quarter of the CPUs, 3 to 10");
  if (pg18) cell("autovacuum_worker_slots", std::to_string(std::max(16, av_workers)), "slots reserved at start; autovacuum_max_workers can be raised by reload up to this");

  // The machine block decides io_max_concurrency; read it from the effective
  // model rather than repeating its formula.
  std::string conf;
  for (const Cell& c : r.machine) conf += c.parameter + " = " + Quoted(c.parameter, c.value, cat) + "\n";
  AnalyzeOptions ao;
  ao.catalog = &cat;
  Analysis machine_analysis = AnalyzeText("recommend.conf", conf, ao);
  EffectiveConfig eff(machine_analysis);
  double io_max = 1000;
  if (auto d = eff.Derived("io_max_concurrency")) io_max = d->value.number;

  // --- Storage matrix.
  const Storage all[] = {Storage::kHdd, Storage::kSataSsd, Storage::kNvme, Storage::kRaidSan, Storage::kNetworkBlock, Storage::kColdObject};
  for (Storage s : all) {
    const toml::table* row = facts["storage"][StorageName(s)].as_table();
    if (!row) continue;
    StorageRow sr;
    sr.storage = s;
    sr.title = TomlValue(row->get("title"));
    sr.scheduler = TomlValue(row->get("scheduler"));
    sr.mount = TomlValue(row->get("mount"));
    for (const char* param : {"effective_io_concurrency", "maintenance_io_concurrency"}) {
      Cell c = StorageCell(*row, param);
      if (CellNumber(c) > io_max) {
        c.why += "; capped at the resolved io_max_concurrency (" + Num(io_max) + ")";
        c.value = Num(io_max);
      }
      // More than io_max_concurrency gains nothing (io-concurrency-above-max).
      if (!c.max.empty() && strtod(c.max.c_str(), nullptr) > io_max) c.max = Num(io_max);
      if (!c.min.empty() && strtod(c.min.c_str(), nullptr) > io_max) c.min = Num(io_max);
      sr.cells.push_back(c);
    }
    sr.cells.push_back(StorageCell(*row, "random_page_cost"));
    sr.cells.push_back(StorageCell(*row, "seq_page_cost"));
    if (pg18) {
      Cell method = StorageCell(*row, "io_method");
      bool uring = p.io_uring.value_or(false) && HighLatency(s) && (!p.os || *p.os == "linux");
      if (uring) {
        method.value = "io_uring";
        method.min = "worker";
        method.why = "io_uring is available and the storage is high-latency: the candidate to measure, with worker as the rollback";
      }
      sr.cells.push_back(method);
      if (!uring) {
        int low = std::min(3, 2 * cpus);
        int workers = std::clamp((cpus + 3) / 4, low, 32);
        sr.cells.push_back({"io_workers", std::to_string(workers), std::to_string(low),
                            std::to_string(std::max(workers, std::min(32, cpus))),
                            "about one I/O worker per 4 CPUs, at least 3: more workers than CPUs only add context switches",
                            "measured-combine"});
      }
    }
    if (cat.Find("io_combine_limit")) {
      Cell combine = StorageCell(*row, "io_combine_limit");
      double limit_bytes = std::min(CellBytes(combine.value), CellBytes(cat.major() >= 18 ? "1MB" : "256kB"));
      combine.value = Size(limit_bytes).substr(0, Size(limit_bytes).size());
      if (limit_bytes < kMB) combine.value = std::to_string(static_cast<long long>(limit_bytes / 1024)) + "kB";
      sr.cells.push_back(combine);
      if (pg18)
        sr.cells.push_back({"io_max_combine_limit", std::max(CellBytes(combine.value), 128 * 1024.0) >= 256 * 1024 ? combine.value : "128kB",
                            "", "", "must be at least io_combine_limit, or reads are silently capped (restart to change)",
                            "reference-aio"});
    }
    if (s == Storage::kHdd || s == Storage::kRaidSan || s == Storage::kNetworkBlock)
      sr.notes.push_back("never mount with nobarrier / barrier=0 or data=writeback: a power loss can then corrupt "
                         "committed data (ext4(5), xfs(5))");
    r.matrix.push_back(std::move(sr));
    if (p.storage && *p.storage == s) r.selected = static_cast<int>(r.matrix.size() - 1);
  }

  // --- Tablespaces: the four options a tablespace accepts, from its storage row.
  for (const auto& [name, storage] : p.tablespaces) {
    TablespaceAdvice t;
    t.name = name;
    t.storage = storage;
    const StorageRow* row = nullptr;
    for (const StorageRow& sr : r.matrix)
      if (sr.storage == storage) row = &sr;
    std::string opts;
    for (const Cell& c : row->cells) {
      if (c.parameter != "effective_io_concurrency" && c.parameter != "maintenance_io_concurrency" &&
          c.parameter != "random_page_cost" && c.parameter != "seq_page_cost")
        continue;
      t.options.push_back(c);
      opts += (opts.empty() ? "" : ", ") + c.parameter + " = " + c.value;
    }
    // Always a quoted identifier (quotes doubled): safe for keywords such as
    // "table" and for any case; equal to the unquoted name when it is lower-case.
    std::string ident = "\"";
    for (char ch : name) ident += ch == '"' ? std::string("\"\"") : std::string(1, ch);
    ident += "\"";
    t.sql = "ALTER TABLESPACE " + ident + " SET (" + opts + ");";
    r.tablespaces.push_back(std::move(t));
  }

  // --- Autovacuum: global settings and per-table-size storage parameters.
  Storage data_storage = p.storage.value_or(Storage::kSataSsd);
  bool fast = data_storage == Storage::kNvme || data_storage == Storage::kSataSsd || data_storage == Storage::kRaidSan;
  r.autovacuum.push_back({"autovacuum_vacuum_cost_limit", fast ? "2000" : "800", "", "",
                          "the I/O budget per round; the default 200 (via vacuum_cost_limit) is sized for spinning disks",
                          "docs-vacuum"});
  r.autovacuum.push_back({"autovacuum_vacuum_cost_delay", "2ms", "", "", "the default since 12 (seed articles that say 20ms describe 11 and earlier)", "docs-vacuum"});
  double max_threshold = pg18 ? 1e8 : 0;  // autovacuum_vacuum_max_threshold's boot value in 18
  struct SizeClass {
    const char* label;
    double rows;
    double sf_oltp, sf_mixed, isf_bulk;
  };
  const SizeClass classes[] = {{"~1M rows", 1e6, 0.05, 0.1, 0.1},
                               {"~10M rows", 1e7, 0.02, 0.05, 0.05},
                               {"~100M rows", 1e8, 0.005, 0.01, 0.01},
                               {"~1B rows", 1e9, 0.001, 0.002, 0.002}};
  auto trigger = [&](double threshold, double sf, double rows) {
    double t = threshold + sf * rows;
    return max_threshold > 0 ? std::min(t, max_threshold) : t;
  };
  for (const SizeClass& c : classes) {
    for (const char* wl : {"oltp", "mixed", "bulk-load"}) {
      TableClass tc;
      tc.label = std::string(c.label) + ", " + wl;
      tc.rows = c.rows;
      tc.workload = wl;
      std::string wls = wl;
      double sf = wls == "oltp" ? c.sf_oltp : c.sf_mixed;
      tc.options.push_back({"autovacuum_vacuum_scale_factor", Num(sf), "", "", "vacuum after ~" + Num(sf * 100) + "% of rows changed", "docs-vacuum"});
      tc.options.push_back({"autovacuum_vacuum_threshold", "1000", "", "", "base count of dead tuples", "docs-vacuum"});
      if (wls == "bulk-load") {
        tc.options.push_back({"autovacuum_vacuum_insert_scale_factor", Num(c.isf_bulk), "", "",
                              "insert-only tables still need vacuum to freeze and set visibility", "docs-vacuum"});
        tc.options.push_back({"autovacuum_vacuum_insert_threshold", "10000", "", "", "base count of inserted tuples", "docs-vacuum"});
      }
      if (c.rows >= 1e8)
        tc.options.push_back({"autovacuum_vacuum_cost_limit", fast ? "4000" : "1000", "", "",
                              "large tables need a larger budget to finish between triggers", "docs-vacuum"});
      tc.vacuum_trigger = trigger(1000, sf, c.rows);
      tc.default_trigger = trigger(50, 0.2, c.rows);
      std::string opts;
      for (const Cell& o : tc.options) opts += (opts.empty() ? "" : ", ") + o.parameter + " = " + o.value;
      tc.sql = "ALTER TABLE <table> SET (" + opts + ");";
      r.tables.push_back(std::move(tc));
    }
  }
  r.assumptions.push_back("memory model: " + Num(nodes) + " sort/hash nodes per query, " +
                          Num(p.headroom * 100) + "% of RAM kept for the OS (--nodes-per-query, --headroom)");
  if (!p.storage) r.assumptions.push_back("storage not given: showing every storage row (--storage)");
  for (const auto& [k, v] : *facts["sources"].as_table())
    r.sources.push_back(std::string(k.str()) + ": " + TomlValue(&v));
  return true;
}

// --- Rendering ---------------------------------------------------------------

namespace {

std::string RangeText(const Cell& c) {
  if (c.min.empty() && c.max.empty()) return "";
  if (c.max.empty()) return "or " + c.min;
  return c.min + " .. " + c.max;
}

std::vector<const StorageRow*> Rows(const Recommendation& r, bool all) {
  std::vector<const StorageRow*> rows;
  for (size_t i = 0; i < r.matrix.size(); ++i)
    if (all || r.selected < 0 || static_cast<int>(i) == r.selected) rows.push_back(&r.matrix[i]);
  return rows;
}

std::string Header(const Recommendation& r) {
  const Profile& p = r.profile;
  std::ostringstream o;
  o << "PostgreSQL " << r.major << ", " << *p.cpus << " CPUs, " << ExprValue::Number(*p.ram_bytes, Dim::kBytes).Display()
    << " RAM, " << WorkloadName(*p.workload);
  if (p.storage) o << ", " << StorageName(*p.storage);
  for (const auto& [n, s] : p.tablespaces) o << ", tablespace " << n << " on " << StorageName(s);
  return o.str();
}

std::string Pad(std::string s, size_t n) {
  size_t w = 0;
  for (unsigned char ch : s) w += (ch & 0xC0) != 0x80;
  if (w < n) s += std::string(n - w, ' ');
  return s;
}

}  // namespace

std::string AlterSystemStatement(const Parameter& param, const std::string& value) {
  auto quote = [](const std::string& s) {
    std::string out = "'";
    for (char ch : s) out += ch == '\'' ? std::string("''") : std::string(1, ch);
    return out + "'";
  };
  std::string v;
  if (param.list_input && value.find(',') != std::string::npos) {
    // Each item quoted on its own: one quoted string would become one item.
    size_t start = 0;
    while (start <= value.size()) {
      size_t comma = value.find(',', start);
      std::string item = value.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
      item.erase(0, item.find_first_not_of(' '));
      item.erase(item.find_last_not_of(' ') + 1);
      v += (v.empty() ? "" : ", ") + quote(item);
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
  } else {
    v = quote(value);
  }
  return "ALTER SYSTEM SET " + std::string(param.name) + " = " + v + ";";
}

std::string RenderRecommendation(const Recommendation& r, RecommendFormat format, bool all) {
  std::ostringstream o;
  const Catalog& cat = *Catalog::ForMajor(r.major);
  std::vector<const StorageRow*> rows = Rows(r, all);
  if (format == RecommendFormat::kJson) {
    using J = nlohmann::ordered_json;
    auto cells = [](const std::vector<Cell>& v) {
      J a = J::array();
      for (const Cell& c : v)
        a.push_back({{"parameter", c.parameter}, {"value", c.value}, {"min", c.min.empty() ? J(nullptr) : J(c.min)},
                     {"max", c.max.empty() ? J(nullptr) : J(c.max)}, {"why", c.why}, {"source", c.source}});
      return a;
    };
    J j;
    j["version"] = 1;
    j["pg_version"] = r.major;
    const Profile& p = r.profile;
    j["profile"] = {{"ram", ExprValue::Number(*p.ram_bytes, Dim::kBytes).Display()}, {"cpus", *p.cpus},
                    {"workload", WorkloadName(*p.workload)},
                    {"storage", p.storage ? J(StorageName(*p.storage)) : J(nullptr)}};
    j["assumptions"] = r.assumptions;
    J matrix = J::array();
    for (const StorageRow* row : rows)
      matrix.push_back({{"storage", StorageName(row->storage)}, {"title", row->title}, {"settings", cells(row->cells)},
                        {"scheduler", row->scheduler}, {"mount", row->mount}, {"notes", row->notes}});
    j["storage"] = std::move(matrix);
    j["machine"] = cells(r.machine);
    J ts = J::array();
    for (const TablespaceAdvice& t : r.tablespaces)
      ts.push_back({{"name", t.name}, {"storage", StorageName(t.storage)}, {"options", cells(t.options)}, {"sql", t.sql}});
    j["tablespaces"] = std::move(ts);
    j["autovacuum"] = cells(r.autovacuum);
    J tables = J::array();
    for (const TableClass& t : r.tables)
      tables.push_back({{"class", t.label}, {"rows", t.rows}, {"workload", t.workload}, {"options", cells(t.options)},
                        {"vacuum_trigger", t.vacuum_trigger}, {"default_trigger", t.default_trigger}, {"sql", t.sql}});
    j["tables"] = std::move(tables);
    j["sources"] = r.sources;
    return j.dump(2) + "\n";
  }
  if (format == RecommendFormat::kConf || format == RecommendFormat::kSql) {
    bool sql = format == RecommendFormat::kSql;
    const char* c = sql ? "-- " : "# ";
    o << c << "Recommended by pgconflint for " << Header(r) << ".\n";
    for (const std::string& a : r.assumptions) o << c << "assumption: " << a << "\n";
    auto emit = [&](const Cell& cell) {
      const Parameter* p = cat.Find(cell.parameter);
      if (!p) return;
      if (sql) {
        o << AlterSystemStatement(*p, cell.value) << "  -- " << cell.why << "\n";
      } else {
        std::string line = cell.parameter + " = " + Quoted(cell.parameter, cell.value, cat);
        o << Pad(line, 40) << " # " << cell.why;
        if (!RangeText(cell).empty()) o << " (range " << RangeText(cell) << ")";
        o << "\n";
      }
    };
    o << "\n" << c << "Machine\n";
    for (const Cell& cell : r.machine) emit(cell);
    if (r.selected >= 0) {
      o << "\n" << c << "Storage: " << r.matrix[r.selected].title << "\n";
      for (const Cell& cell : r.matrix[r.selected].cells) emit(cell);
    } else {
      o << "\n" << c << "Storage: not given (--storage); the storage settings keep their defaults\n";
    }
    o << "\n" << c << "Autovacuum\n";
    for (const Cell& cell : r.autovacuum) emit(cell);
    if (sql) {
      if (!r.tablespaces.empty()) o << "\n-- Tablespaces (only these four options exist per tablespace)\n";
      for (const TablespaceAdvice& t : r.tablespaces) o << t.sql << "  -- " << StorageName(t.storage) << "\n";
      o << "\n-- Per table, by size (templates: replace <table>)\n";
      for (const TableClass& t : r.tables) o << "-- " << t.label << ": " << t.sql << "\n";
      o << "\nSELECT pg_reload_conf();\n-- Parameters with context postmaster need a restart: "
           "SELECT name FROM pg_settings WHERE pending_restart;\n";
    } else if (!r.tablespaces.empty()) {
      o << "\n# Tablespaces: run `pgconflint recommend --format sql` for their ALTER TABLESPACE statements\n";
    }
    return o.str();
  }
  bool md = format == RecommendFormat::kMarkdown;
  o << (md ? "## " : "") << "Recommendation for " << Header(r) << "\n\n";
  for (const std::string& a : r.assumptions) o << (md ? "- " : "  ") << "assumption: " << a << "\n";
  if (!r.assumptions.empty()) o << "\n";
  // The storage matrix: one row per storage type, one column per parameter.
  std::vector<std::string> params;
  for (const StorageRow* row : rows)
    for (const Cell& c : row->cells)
      if (std::find(params.begin(), params.end(), c.parameter) == params.end()) params.push_back(c.parameter);
  auto value_of = [](const StorageRow* row, const std::string& p) {
    for (const Cell& c : row->cells)
      if (c.parameter == p) return c.value + (c.min.empty() && c.max.empty() ? "" : " (" + RangeText(c) + ")");
    return std::string("-");
  };
  o << (md ? "### " : "") << "Storage matrix\n\n";
  if (md) {
    o << "| storage |";
    for (const std::string& p : params) o << " " << p << " |";
    o << "\n|---|";
    for (size_t i = 0; i < params.size(); ++i) o << "---|";
    o << "\n";
    for (const StorageRow* row : rows) {
      o << "| " << StorageName(row->storage) << (r.selected >= 0 && row == &r.matrix[r.selected] ? " (selected)" : "") << " |";
      for (const std::string& p : params) o << " " << value_of(row, p) << " |";
      o << "\n";
    }
  } else {
    for (const std::string& p : params) {
      o << "  " << Pad(p, 28);
      for (const StorageRow* row : rows) o << Pad(value_of(row, p), 25);
      o << "\n";
    }
    o << "  " << Pad("", 28);
    for (const StorageRow* row : rows) o << Pad(StorageName(row->storage), 25);
    o << "\n";
  }
  o << "\n" << (md ? "### " : "") << "Why, per storage type\n\n";
  for (const StorageRow* row : rows) {
    o << (md ? "#### " : "  ") << row->title << "\n" << (md ? "\n" : "");
    for (const Cell& c : row->cells) o << (md ? "- `" : "    ") << c.parameter << (md ? "`" : "") << " = " << c.value << ": " << c.why << " [" << c.source << "]\n";
    o << (md ? "- " : "    ") << "OS: I/O scheduler " << row->scheduler << "; mount " << row->mount << "\n";
    for (const std::string& n : row->notes) o << (md ? "- **" : "    ") << "warning: " << n << (md ? "**" : "") << "\n";
    o << "\n";
  }
  o << (md ? "### " : "") << "Machine\n\n";
  if (md) o << "| parameter | value | range | why |\n|---|---|---|---|\n";
  for (const Cell& c : r.machine) {
    if (md) o << "| " << c.parameter << " | " << c.value << " | " << RangeText(c) << " | " << c.why << " |\n";
    else o << "  " << Pad(c.parameter, 34) << Pad(c.value, 10) << c.why << "\n";
  }
  if (!r.tablespaces.empty()) {
    o << "\n" << (md ? "### " : "") << "Tablespaces\n\n";
    for (const TablespaceAdvice& t : r.tablespaces) o << (md ? "- `" : "  ") << t.sql << (md ? "`" : "") << "\n";
  }
  o << "\n" << (md ? "### " : "") << "Autovacuum\n\n";
  for (const Cell& c : r.autovacuum) o << (md ? "- " : "  ") << c.parameter << " = " << c.value << ": " << c.why << "\n";
  o << "\n" << (md ? "" : "  ") << "Per table size (trigger = threshold + scale_factor x rows"
    << (r.major >= 18 ? ", capped by autovacuum_vacuum_max_threshold 100M" : "") << "):\n\n";
  if (md) o << "| class | dead tuples before vacuum | with defaults | statement |\n|---|---|---|---|\n";
  for (const TableClass& t : r.tables) {
    if (md) o << "| " << t.label << " | " << Num(t.vacuum_trigger) << " | " << Num(t.default_trigger) << " | `" << t.sql << "` |\n";
    else o << "  " << Pad(t.label, 26) << Pad(Num(t.vacuum_trigger), 12) << "(default " << Pad(Num(t.default_trigger) + ")", 13) << t.sql << "\n";
  }
  o << "\n" << (md ? "### " : "") << "Sources\n\n";
  for (const std::string& s : r.sources) o << (md ? "- " : "  ") << s << "\n";
  return o.str();
}

std::string RenderPlan(const Recommendation& r, const Analysis& current, bool md) {
  const Catalog& cat = *current.catalog;
  EffectiveConfig eff(current);
  struct Step {
    const Cell* cell;
    const Parameter* param;
    std::string now;
  };
  std::vector<Step> session, reload, restart;
  auto consider = [&](const Cell& c) {
    const Parameter* p = cat.Find(c.parameter);
    if (!p) return;
    std::optional<std::string> now = eff.Configured(c.parameter);
    ExprValue cur = TypedValue(*p, now.value_or(""));
    // Within the recommended range: leave it alone (never "raise everything").
    auto as_num = [&](const std::string& v) -> std::optional<double> {
      if (v.empty()) return std::nullopt;
      ParsedValue pv = ParseValue(cat, *p, v);
      if (!pv.ok()) return std::nullopt;
      return TypedValue(*p, pv.normalized).number;
    };
    ParsedValue want = ParseValue(cat, *p, c.value);
    if (!want.ok()) return;
    if (cur.kind == ExprValue::Kind::kNumber) {
      std::optional<double> lo = as_num(c.min), hi = as_num(c.max), target = as_num(c.value);
      double low = lo.value_or(target.value_or(0)), high = hi.value_or(target.value_or(0));
      if (cur.number >= std::min(low, high) && cur.number <= std::max(low, high)) return;
      if (c.parameter == "wal_buffers" && cur.number == -1) return;
    } else if (now && (*now == want.normalized || (!c.min.empty() && *now == c.min))) {
      return;
    }
    std::string shown = now.value_or("");
    if (p->type == VarType::kInteger && p->unit_kind != UnitKind::kNone) shown = FormatWithUnit(strtod(shown.c_str(), nullptr), *p);
    Step s{&c, p, shown};
    if (p->context == Context::kPostmaster) restart.push_back(s);
    else if (p->context == Context::kUser) session.push_back(s);
    else reload.push_back(s);
  };
  for (const Cell& c : r.machine) consider(c);
  if (r.selected >= 0)
    for (const Cell& c : r.matrix[r.selected].cells) consider(c);
  for (const Cell& c : r.autovacuum) consider(c);
  // A setting capped by a restart-only parameter that the plan raises only
  // takes effect after that restart: move it there.
  static const std::pair<const char*, const char*> kCappedBy[] = {
      {"max_parallel_workers", "max_worker_processes"},
      {"max_parallel_workers_per_gather", "max_worker_processes"},
      {"max_parallel_maintenance_workers", "max_worker_processes"},
      {"autovacuum_max_workers", "autovacuum_worker_slots"},
      {"io_combine_limit", "io_max_combine_limit"},
  };
  auto in_restart = [&](const char* n) {
    return std::any_of(restart.begin(), restart.end(), [&](const Step& s) { return s.cell->parameter == n; });
  };
  for (auto* group : {&session, &reload}) {
    for (auto it = group->begin(); it != group->end();) {
      bool capped = false;
      for (const auto& [dep, cap] : kCappedBy) capped |= it->cell->parameter == dep && in_restart(cap);
      if (capped) {
        restart.push_back(*it);
        it = group->erase(it);
      } else {
        ++it;
      }
    }
  }
  std::ostringstream o;
  const char* h = md ? "## " : "";
  o << h << "Rollout plan for " << current.root << " (" << Header(r) << ")\n\n";
  if (current.fatal())
    o << "First: PostgreSQL would refuse to start with this configuration; fix what `pgconflint check` reports "
         "as fatal before any step below.\n\n";
  if (session.empty() && reload.empty() && restart.empty() && r.tablespaces.empty()) {
    o << "Every setting is already within the recommended range.\n";
    return o.str();
  }
  int step = 1;
  auto list = [&](const std::vector<Step>& v) {
    for (const Step& s : v)
      o << "   " << s.param->name << ": " << s.now << " -> " << s.cell->value << "  (" << s.cell->why << ")\n";
  };
  std::string names;
  auto name_list = [&](const std::vector<Step>& v) {
    std::string n;
    for (const Step& s : v) n += (n.empty() ? "'" : ", '") + std::string(s.param->name) + "'";
    return n;
  };
  if (!session.empty()) {
    o << h << step++ << ". Try per session first (no server change), on the queries that matter:\n";
    list(session);
    o << "   SQL:\n";
    for (const Step& s : session) o << "     SET " << s.param->name << " = " << Quoted(s.param->name, s.cell->value, cat) << ";\n";
    o << "   verify: EXPLAIN (ANALYZE, BUFFERS) of the query before and after, and a pg_stat_io snapshot:\n"
         "     SELECT backend_type, object, context, reads, read_bytes, read_time FROM pg_stat_io WHERE reads > 0;\n\n";
  }
  if (!r.tablespaces.empty()) {
    o << h << step++ << ". Per tablespace (takes effect for new queries, no reload):\n";
    for (const TablespaceAdvice& t : r.tablespaces) o << "     " << t.sql << "\n";
    o << "   verify: SELECT spcname, spcoptions FROM pg_tablespace;\n\n";
  }
  if (!session.empty() || !reload.empty()) {
    o << h << step++ << ". Make it permanent with a reload:\n";
    list(reload);
    for (const auto* v : {&session, &reload})
      for (const Step& s : *v) o << "     " << AlterSystemStatement(*s.param, s.cell->value) << "\n";
    o << "     SELECT pg_reload_conf();\n   verify: SELECT name, setting, unit, source FROM pg_settings WHERE name IN ("
      << name_list(session) << (session.empty() || reload.empty() ? "" : ", ") << name_list(reload) << ");\n\n";
  }
  if (!restart.empty()) {
    o << h << step++ << ". In a restart window (context postmaster):\n";
    list(restart);
    for (const Step& s : restart) o << "     " << AlterSystemStatement(*s.param, s.cell->value) << "\n";
    o << "   before the restart: SELECT name, pending_restart FROM pg_settings WHERE pending_restart;\n"
         "   restart (pg_ctl restart, or your service manager), then verify:\n";
    for (const Step& s : restart) o << "     SHOW " << s.param->name << ";\n";
    if (r.major >= 18)
      o << "     SELECT name, setting FROM pg_settings WHERE name IN ('io_max_concurrency', 'io_combine_limit', "
           "'io_max_combine_limit');  -- the effective values: `pgconflint show` explains them\n";
    o << "\n";
  }
  o << "Roll back any step by restoring its previous value (shown left of the arrow); measure each step before the next.\n";
  return o.str();
}

}  // namespace pgconflint
