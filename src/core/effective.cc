// Derived values, computed as the server computes them.
#include "core/effective.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "core/quantity.h"
#include "core/value.h"

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

const Setting* EffectiveConfig::SettingFor(std::string_view name) const { return analysis_.Effective(name); }

std::optional<std::string> EffectiveConfig::Configured(std::string_view name) const {
  if (const Setting* s = SettingFor(name)) return s->value;
  const Parameter* p = catalog().Find(name);
  if (!p) return std::nullopt;
  return std::string(p->boot_val);
}

ExprValue EffectiveConfig::Typed(std::string_view name) const {
  const Parameter* p = catalog().Find(name);
  if (!p) return ExprValue::Null();
  std::optional<std::string> v = Configured(name);
  return v ? TypedValue(*p, *v) : ExprValue::Null();
}

double EffectiveConfig::Number(std::string_view name) const {
  std::optional<std::string> v = Configured(name);
  return v ? strtod(v->c_str(), nullptr) : 0;
}

std::vector<std::string> EffectiveConfig::DerivedNames() const {
  std::vector<std::string> out = {"max_backends", "wal_buffers", "autovacuum_work_mem",
                                  "vacuum_buffer_usage_limit", "max_parallel_workers",
                                  "max_parallel_workers_per_gather", "max_parallel_maintenance_workers"};
  if (catalog().major() >= 18) {
    out.insert(out.end(), {"io_max_concurrency", "io_combine_limit", "autovacuum_max_workers", "io_workers"});
  } else if (catalog().major() == 17) {
    out.push_back("io_combine_limit");
  }
  // Only names of this major's catalog (vacuum_buffer_usage_limit is 16+);
  // max_backends is no parameter.
  std::erase_if(out, [&](const std::string& n) { return n != "max_backends" && !catalog().Find(n); });
  std::sort(out.begin(), out.end());
  return out;
}

std::optional<DerivedValue> EffectiveConfig::Derived(std::string_view name) const {
  const Catalog& cat = catalog();
  const int major = cat.major();
  const double block = cat.build().block_size;
  const double nbuffers = Number("shared_buffers");
  auto bytes = [](double v) { return ExprValue::Number(v, Dim::kBytes); };

  // MaxBackends, as InitializeMaxBackends computes it.
  double max_backends;
  std::string mb_explain;
  if (major >= 18) {
    max_backends = Number("max_connections") + Number("autovacuum_worker_slots") +
                   Number("max_worker_processes") + Number("max_wal_senders") + kSpecialWorkerProcs18;
    mb_explain = "max_connections + autovacuum_worker_slots + max_worker_processes + max_wal_senders + " +
                 N(kSpecialWorkerProcs18);
  } else {
    // Up to 17: autovacuum_max_workers plus the launcher, and in 17 the slot
    // sync worker too (verified against real 14-17 servers by
    // test_server_claims.py).
    const int special = major >= 17 ? 2 : 1;
    max_backends = Number("max_connections") + Number("autovacuum_max_workers") + special +
                   Number("max_worker_processes") + Number("max_wal_senders");
    mb_explain = "max_connections + autovacuum_max_workers + max_worker_processes + max_wal_senders + " + N(special);
  }

  if (name == "max_backends") return DerivedValue{ExprValue::Number(max_backends), mb_explain + " = " + N(max_backends)};

  if (name == "io_max_concurrency" && major >= 18) {
    double configured = Number("io_max_concurrency");
    if (configured != -1) return DerivedValue{ExprValue::Number(configured), "set explicitly"};
    double denom = max_backends + kAuxiliaryProcs18;
    double v = std::floor(nbuffers / denom);
    v = std::clamp(v, 1.0, static_cast<double>(kMaxAutoIoConcurrency));
    return DerivedValue{ExprValue::Number(v), "-1: min(" + N(kMaxAutoIoConcurrency) + ", max(1, shared_buffers " +
                                                  N(nbuffers) + " buffers / (MaxBackends " + N(max_backends) +
                                                  " + " + N(kAuxiliaryProcs18) + " auxiliary processes)))"};
  }
  if (name == "wal_buffers") {
    double configured = Number("wal_buffers");
    double wal_block = cat.build().wal_block_size;
    if (configured != -1) return DerivedValue{bytes(configured * wal_block), "set explicitly"};
    double cap = static_cast<double>(cat.build().wal_segment_size) / wal_block;
    double v = std::floor(nbuffers / 32);
    v = std::max(std::min(v, cap), 8.0);
    return DerivedValue{bytes(v * wal_block), "-1: shared_buffers/32 = " + N(std::floor(nbuffers / 32)) +
                                                 " pages, between 8 and one WAL segment (" + N(cap) + ")"};
  }
  if (name == "io_combine_limit" && major >= 17) {
    double v = Number("io_combine_limit");
    if (major >= 18) {
      double cap = Number("io_max_combine_limit");
      if (cap < v)
        return DerivedValue{bytes(cap * block), "capped by io_max_combine_limit (" + FormatHuman(cap * block, Dim::kBytes) + ")"};
    }
    return DerivedValue{bytes(v * block), "as configured"};
  }
  if (name == "autovacuum_work_mem") {
    double v = Number("autovacuum_work_mem");
    if (v == -1) return DerivedValue{bytes(Number("maintenance_work_mem") * 1024), "-1: maintenance_work_mem"};
    return DerivedValue{bytes(v * 1024), "as configured"};
  }
  if (name == "vacuum_buffer_usage_limit" && cat.Find("vacuum_buffer_usage_limit")) {
    double v = Number("vacuum_buffer_usage_limit") * 1024;
    double cap = std::floor(nbuffers / 8) * block;
    if (v > cap) return DerivedValue{bytes(cap), "capped at shared_buffers/8"};
    return DerivedValue{bytes(v), v == 0 ? "0: no ring (VACUUM may use all of shared_buffers)" : "as configured"};
  }
  double mwp = Number("max_worker_processes");
  double mpw = std::min(Number("max_parallel_workers"), mwp);
  if (name == "max_parallel_workers")
    return DerivedValue{ExprValue::Number(mpw), mpw < Number("max_parallel_workers") ? "capped by max_worker_processes" : "as configured"};
  if (name == "max_parallel_workers_per_gather") {
    double v = Number("max_parallel_workers_per_gather");
    return DerivedValue{ExprValue::Number(std::min(v, mpw)), v > mpw ? "capped by max_parallel_workers" : "as configured"};
  }
  if (name == "max_parallel_maintenance_workers") {
    double v = Number("max_parallel_maintenance_workers");
    return DerivedValue{ExprValue::Number(std::min(v, mpw)), v > mpw ? "capped by max_parallel_workers" : "as configured"};
  }
  if (name == "autovacuum_max_workers" && major >= 18) {
    double v = Number("autovacuum_max_workers"), slots = Number("autovacuum_worker_slots");
    return DerivedValue{ExprValue::Number(std::min(v, slots)), v > slots ? "capped by autovacuum_worker_slots" : "as configured"};
  }
  if (name == "io_workers" && major >= 18) {
    std::optional<std::string> method = Configured("io_method");
    if (method && *method != "worker") return DerivedValue{ExprValue::Number(0), "io_method is " + *method + ": no I/O workers run"};
    return DerivedValue{ExprValue::Number(Number("io_workers")), "as configured"};
  }
  return std::nullopt;
}

}  // namespace pgconflint
