// Derived values, computed as the server computes them: one function per
// derived name, listed in one table (kDerivations).
#include "core/model/effective.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "core/base/quantity.h"
#include "core/base/strings.h"
#include "core/knowledge/platform.h"
#include "core/knowledge/value.h"
#include "core/model/shared_memory.h"

namespace pgconflint {
namespace {

// NUM_AUXILIARY_PROCS in 18: 6 auxiliary processes + MAX_IO_WORKERS (32).
constexpr int kAuxiliaryProcs18 = 38;
// NUM_SPECIAL_WORKER_PROCS in 18 (autovacuum launcher, slotsync worker).
constexpr int kSpecialWorkerProcs18 = 2;
// io_max_concurrency's automatic value is capped at 64.
constexpr int kMaxAutoIoConcurrency = 64;

std::string N(double v) { return FormatWhole(v); }

}  // namespace

int AuxiliaryProcesses(int major) { return major >= 18 ? kAuxiliaryProcs18 : 0; }

ExprValue TypedValue(const Parameter& p, const std::string& value) {
  switch (p.type) {
    case VarType::kBool: return ExprValue::Bool(value == "on");
    case VarType::kEnum:
    case VarType::kString: return ExprValue::String(value);
    case VarType::kInteger:
    case VarType::kReal: {
      double v = strtod(value.c_str(), nullptr);
      // Sentinels (-1 = automatic/disabled) stay plain numbers.
      if (p.unit_kind == UnitKind::kNone || v < 0) return ExprValue::Number(v);
      return ExprValue::Number(v * p.unit_amount, UnitDim(p));
    }
  }
  return ExprValue::Null();
}

EffectiveConfig::EffectiveConfig(const Analysis& analysis) : analysis_(analysis) {}

EffectiveConfig::EffectiveConfig(const Analysis& analysis, const Scope& scope)
    : analysis_(analysis), scoped_(true), scope_(scope) {
  for (size_t i = 0; i < analysis.settings.size(); ++i) AddRow(i);
}

EffectiveConfig::EffectiveConfig(const Analysis& analysis, const Scope& scope, const std::vector<size_t>& rows)
    : analysis_(analysis), scoped_(true), scope_(scope) {
  for (size_t i : rows) AddRow(i);
}

void EffectiveConfig::AddRow(size_t i) {
  const Setting& s = analysis_.settings[i];
  const Origin& o = s.origin;
  if (!s.applied || !o.scoped()) return;
  if ((!o.database.empty() && o.database != scope_.database) || (!o.role.empty() && o.role != scope_.role)) return;
  rows_.push_back(i);
  // process_settings: database and role, then role, database, every session.
  int rank = !o.database.empty() && !o.role.empty() ? 3 : !o.role.empty() ? 2 : !o.database.empty() ? 1 : 0;
  std::string key = AsciiLower(s.param ? std::string_view(s.param->name) : std::string_view(s.name));
  auto [it, inserted] = by_scope_.try_emplace(key, rank, i);
  if (!inserted && rank >= it->second.first) it->second = {rank, i};
}

const Setting* EffectiveConfig::SettingFor(std::string_view name) const {
  if (!by_scope_.empty()) {
    auto it = by_scope_.find(AsciiLower(name));
    if (it != by_scope_.end()) return &analysis_.settings[it->second.second];
  }
  return analysis_.Effective(name);
}

std::optional<std::string> EffectiveConfig::Configured(std::string_view name) const {
  if (const Setting* s = SettingFor(name)) return s->value;
  const Parameter* p = catalog().Find(name);
  if (!p) return std::nullopt;
  return std::string(analysis_.os ? PlatformBootValue(*p, *analysis_.os, catalog().major()) : p->boot_val);
}

ExprValue EffectiveConfig::Typed(std::string_view name) const {
  const Parameter* p = catalog().Find(name);
  if (!p) return ExprValue::Null();
  std::optional<std::string> v = Configured(name);
  return v ? TypedValue(*p, *v) : ExprValue::Null();
}

namespace {

ExprValue Bytes(double v) { return ExprValue::Number(v, Dim::kBytes); }

// What a derivation reads: configured values in their base unit, the major
// and its build.
class Inputs {
 public:
  explicit Inputs(const EffectiveConfig& eff) : eff_(eff) {}
  double Number(std::string_view name) const {
    std::optional<std::string> v = eff_.Configured(name);
    return v ? strtod(v->c_str(), nullptr) : 0;
  }
  std::optional<std::string> Configured(std::string_view name) const { return eff_.Configured(name); }
  int major() const { return eff_.catalog().major(); }
  const BuildInfo& build() const { return eff_.catalog().build(); }
  const EffectiveConfig& eff() const { return eff_; }

 private:
  const EffectiveConfig& eff_;
};

// MaxBackends, as InitializeMaxBackends computes it.
DerivedValue MaxBackends(const Inputs& in) {
  double v;
  std::string explain;
  if (in.major() >= 18) {
    v = in.Number("max_connections") + in.Number("autovacuum_worker_slots") + in.Number("max_worker_processes") +
        in.Number("max_wal_senders") + kSpecialWorkerProcs18;
    explain = "max_connections + autovacuum_worker_slots + max_worker_processes + max_wal_senders + " +
              N(kSpecialWorkerProcs18);
  } else {
    // Up to 17: autovacuum_max_workers plus the launcher, and in 17 the slot
    // sync worker too (verified against real 14-17 servers by
    // test_server_claims.py).
    const int special = in.major() >= 17 ? 2 : 1;
    v = in.Number("max_connections") + in.Number("autovacuum_max_workers") + special +
        in.Number("max_worker_processes") + in.Number("max_wal_senders");
    explain = "max_connections + autovacuum_max_workers + max_worker_processes + max_wal_senders + " + N(special);
  }
  return DerivedValue{ExprValue::Number(v), explain + " = " + N(v)};
}

DerivedValue IoMaxConcurrency(const Inputs& in) {
  double configured = in.Number("io_max_concurrency");
  if (configured != -1) return DerivedValue{ExprValue::Number(configured), "set explicitly"};
  const double nbuffers = in.Number("shared_buffers");
  const double max_backends = MaxBackends(in).value.number;
  double v = std::floor(nbuffers / (max_backends + AuxiliaryProcesses(in.major())));
  v = std::clamp(v, 1.0, static_cast<double>(kMaxAutoIoConcurrency));
  return DerivedValue{ExprValue::Number(v), "-1: min(" + N(kMaxAutoIoConcurrency) + ", max(1, shared_buffers " +
                                                N(nbuffers) + " buffers / (MaxBackends " + N(max_backends) +
                                                " + " + N(kAuxiliaryProcs18) + " auxiliary processes)))"};
}

DerivedValue WalBuffers(const Inputs& in) {
  double configured = in.Number("wal_buffers");
  double wal_block = in.build().wal_block_size;
  if (configured != -1) return DerivedValue{Bytes(configured * wal_block), "set explicitly"};
  double cap = static_cast<double>(in.build().wal_segment_size) / wal_block;
  double pages = std::floor(in.Number("shared_buffers") / 32);
  double v = std::max(std::min(pages, cap), 8.0);
  return DerivedValue{Bytes(v * wal_block), "-1: shared_buffers/32 = " + N(pages) +
                                                " pages, between 8 and one WAL segment (" + N(cap) + ")"};
}

DerivedValue IoCombineLimit(const Inputs& in) {
  const double block = in.build().block_size;
  double v = in.Number("io_combine_limit");
  if (in.major() >= 18) {
    double cap = in.Number("io_max_combine_limit");
    if (cap < v)
      return DerivedValue{Bytes(cap * block),
                          "capped by io_max_combine_limit (" + FormatHuman(cap * block, Dim::kBytes) + ")"};
  }
  return DerivedValue{Bytes(v * block), "as configured"};
}

DerivedValue AutovacuumWorkMem(const Inputs& in) {
  double v = in.Number("autovacuum_work_mem");
  if (v == -1) return DerivedValue{Bytes(in.Number("maintenance_work_mem") * 1024), "-1: maintenance_work_mem"};
  return DerivedValue{Bytes(v * 1024), "as configured"};
}

DerivedValue VacuumBufferUsageLimit(const Inputs& in) {
  double v = in.Number("vacuum_buffer_usage_limit") * 1024;
  double cap = std::floor(in.Number("shared_buffers") / 8) * in.build().block_size;
  if (v > cap) return DerivedValue{Bytes(cap), "capped at shared_buffers/8"};
  return DerivedValue{Bytes(v), v == 0 ? "0: no ring (VACUUM may use all of shared_buffers)" : "as configured"};
}

// A worker count that cannot exceed `ceiling`, named in the explanation.
DerivedValue Capped(double v, double ceiling, const char* by) {
  return DerivedValue{ExprValue::Number(std::min(v, ceiling)), v > ceiling ? std::string("capped by ") + by
                                                                              : "as configured"};
}

// Parallel workers are background workers: at most max_worker_processes.
double ParallelWorkers(const Inputs& in) {
  return std::min(in.Number("max_parallel_workers"), in.Number("max_worker_processes"));
}

DerivedValue MaxParallelWorkers(const Inputs& in) {
  return Capped(in.Number("max_parallel_workers"), in.Number("max_worker_processes"), "max_worker_processes");
}

DerivedValue MaxParallelWorkersPerGather(const Inputs& in) {
  return Capped(in.Number("max_parallel_workers_per_gather"), ParallelWorkers(in), "max_parallel_workers");
}

DerivedValue MaxParallelMaintenanceWorkers(const Inputs& in) {
  return Capped(in.Number("max_parallel_maintenance_workers"), ParallelWorkers(in), "max_parallel_workers");
}

DerivedValue AutovacuumMaxWorkers(const Inputs& in) {
  return Capped(in.Number("autovacuum_max_workers"), in.Number("autovacuum_worker_slots"),
                "autovacuum_worker_slots");
}

DerivedValue IoWorkers(const Inputs& in) {
  std::optional<std::string> method = in.Configured("io_method");
  if (method && *method != "worker")
    return DerivedValue{ExprValue::Number(0), "io_method is " + *method + ": no I/O workers run"};
  return DerivedValue{ExprValue::Number(in.Number("io_workers")), "as configured"};
}

// A count, or "at least N" when the estimate leaves something out.
ExprValue Estimated(double v, bool lower_bound) {
  return lower_bound ? ExprValue::String("at least " + N(v)) : ExprValue::Number(v);
}

std::string Uncounted(const SharedMemorySize& size) {
  if (!size.lower_bound()) return "";
  return "; not counted: what " + CommaList(size.uncounted) + " add" + (size.uncounted.size() == 1 ? "s" : "");
}

DerivedValue SharedMemorySizeOf(const Inputs& in) {
  std::optional<SharedMemorySize> size = ComputeSharedMemory(in.eff());
  if (!size) return DerivedValue{ExprValue::Null(), "no measured model of PostgreSQL " + N(in.major())};
  // Whole megabytes as `postgres -C` prints them with their unit (a size in
  // bytes would display rounded: 65.4GB).
  const std::string mb = N(size->megabytes()) + "MB";
  return DerivedValue{ExprValue::String(size->lower_bound() ? "at least " + mb : mb),
                      "computed: the main shared memory area the server requests at start, " + N(size->bytes) +
                          " bytes rounded up to whole MB" + Uncounted(*size)};
}

DerivedValue HugePagesOf(const Inputs& in) {
  static const Profile kNoProfile;
  const Profile& profile = in.eff().profile() ? *in.eff().profile() : kNoProfile;
  if (profile.os && *profile.os != "linux")
    return DerivedValue{ExprValue::Number(-1), "computed: -1 outside Linux (the profile's os is " + *profile.os + ")"};
  std::optional<SharedMemorySize> size = ComputeSharedMemory(in.eff());
  if (!size) return DerivedValue{ExprValue::Null(), "no measured model of PostgreSQL " + N(in.major())};
  const double page = HugePageSizeOf(in.eff(), profile);
  const std::string whose = in.Number("huge_page_size") > 0 ? "huge_page_size"
                            : profile.huge_page_size_bytes ? "the profile's --huge-page-size"
                                                           : "assumed: Linux's default on x86-64, say --huge-page-size";
  return DerivedValue{Estimated(HugePagesShown(size->bytes, page), size->lower_bound()),
                      "computed for huge pages of " + FormatHuman(page, Dim::kBytes) + " (" + whose + "): " +
                          N(size->bytes) + " bytes / " + N(page) + ", plus one" + Uncounted(*size)};
}

// Every derived name, sorted: from which major the server derives it, and how.
// A name is derived only in the majors whose catalog has it, but for those
// derived in every major (`always`: max_backends is no parameter, and 14 has
// no shared_memory_size).
struct Derivation {
  const char* name;
  int first_major;
  DerivedValue (*derive)(const Inputs&);
  bool always = false;
};

constexpr Derivation kDerivations[] = {
    {"autovacuum_max_workers", 18, AutovacuumMaxWorkers},
    {"autovacuum_work_mem", 14, AutovacuumWorkMem},
    {"io_combine_limit", 17, IoCombineLimit},
    {"io_max_concurrency", 18, IoMaxConcurrency},
    {"io_workers", 18, IoWorkers},
    {"max_backends", 14, MaxBackends, true},
    {"max_parallel_maintenance_workers", 14, MaxParallelMaintenanceWorkers},
    {"max_parallel_workers", 14, MaxParallelWorkers},
    {"max_parallel_workers_per_gather", 14, MaxParallelWorkersPerGather},
    {"shared_memory_size", 14, SharedMemorySizeOf, true},
    {"shared_memory_size_in_huge_pages", 14, HugePagesOf, true},
    {"vacuum_buffer_usage_limit", 16, VacuumBufferUsageLimit},
    {"wal_buffers", 14, WalBuffers},
};

bool Applies(const Derivation& d, const Catalog& catalog) {
  return catalog.major() >= d.first_major && (d.always || catalog.Find(d.name) != nullptr);
}

}  // namespace

std::vector<std::string> EffectiveConfig::DerivedNames() const {
  std::vector<std::string> out;
  for (const Derivation& d : kDerivations)
    if (Applies(d, catalog())) out.push_back(d.name);
  return out;
}

std::optional<DerivedValue> EffectiveConfig::Derived(std::string_view name) const {
  for (const Derivation& d : kDerivations)
    if (name == d.name) return Applies(d, catalog()) ? std::optional(d.derive(Inputs(*this))) : std::nullopt;
  return std::nullopt;
}

std::optional<DerivedValue> EffectiveConfig::Adjusted(std::string_view name) const {
  const Parameter* p = catalog().Find(name);
  if (!p) return std::nullopt;
  std::optional<DerivedValue> d = Derived(name);
  std::optional<std::string> configured = Configured(name);
  if (!d || !configured) return std::nullopt;
  ExprValue c = TypedValue(*p, *configured);
  const ExprValue& v = d->value;
  bool same = c.kind == v.kind && (c.kind == ExprValue::Kind::kNumber ? c.number == v.number && c.dim == v.dim
                                                                      : c.Display() == v.Display());
  if (same) return std::nullopt;
  return d;
}

}  // namespace pgconflint
