// The worst-case memory model.
#include "core/model/memory_model.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace pgconflint {
namespace {

std::string BytesText(double b) { return ExprValue::Number(b, Dim::kBytes).Display(); }

double BytesOf(const EffectiveConfig& eff, const char* name) {
  ExprValue v = eff.Typed(name);
  return v.kind == ExprValue::Kind::kNumber ? v.number : 0;
}

std::string Count(double n, const char* word) {
  std::ostringstream o;
  o << n << " " << word << (n == 1 ? "" : "s");
  return o.str();
}

constexpr const char* kInputs[] = {
    "autovacuum_max_workers", "autovacuum_work_mem", "autovacuum_worker_slots", "maintenance_work_mem",
    "max_connections",        "max_parallel_workers", "max_worker_processes",   "shared_buffers",
    "wal_buffers",            "work_mem",
};

}  // namespace

double MemoryModel::Fixed() const {
  return shared_buffers + wal_buffers + autovacuum_workers * autovacuum_work_mem + maintenance_work_mem;
}

double MemoryModel::Total() const { return Fixed() + Backends() * work_mem * nodes_per_query; }

double MemoryModel::HashPerBackend() const { return work_mem * nodes_per_query * std::max(1.0, hash_mem_multiplier); }

double MemoryModel::HashTotal() const { return Fixed() + Backends() * HashPerBackend(); }

double MemoryModel::WorkMemWithin(double budget) const {
  return (budget - Fixed()) / (Backends() * nodes_per_query * std::max(1.0, hash_mem_multiplier));
}

std::string MemoryModel::Breakdown() const {
  std::ostringstream m;
  m << "shared_buffers " << BytesText(shared_buffers) << " + wal_buffers " << BytesText(wal_buffers) << " + ("
    << Count(connections, "connection");
  if (parallel_workers > 0) m << " + " << Count(parallel_workers, "parallel worker");
  m << ") x work_mem " << BytesText(work_mem) << " x " << Count(nodes_per_query, "node") << " + "
    << Count(autovacuum_workers, "autovacuum worker") << " x " << BytesText(autovacuum_work_mem) << " + maintenance "
    << BytesText(maintenance_work_mem);
  return m.str();
}

MemoryModel MemoryModelOf(const EffectiveConfig& eff, const Profile& p) {
  MemoryModel m;
  m.shared_buffers = BytesOf(eff, "shared_buffers");
  m.wal_buffers = eff.Derived("wal_buffers")->value.number;
  // No more clients than max_connections can be connected at once.
  double max_conns = eff.Typed("max_connections").number;
  m.connections = p.connections ? std::min<double>(*p.connections, max_conns) : max_conns;
  // Parallel workers run within max_worker_processes.
  m.parallel_workers = eff.Derived("max_parallel_workers")->value.number;
  m.work_mem = BytesOf(eff, "work_mem");
  m.nodes_per_query = NodesPerQuery(p);
  m.hash_mem_multiplier = eff.Typed("hash_mem_multiplier").number;
  // From 18, autovacuum_worker_slots caps the workers that can run.
  m.autovacuum_workers = eff.catalog().major() >= 18 ? eff.Derived("autovacuum_max_workers")->value.number
                                                     : eff.Typed("autovacuum_max_workers").number;
  m.autovacuum_work_mem = eff.Derived("autovacuum_work_mem")->value.number;
  m.maintenance_work_mem = BytesOf(eff, "maintenance_work_mem");
  return m;
}

std::span<const char* const> MemoryModelInputs() { return kInputs; }

double MemoryBudget(const Profile& p) { return *p.ram_bytes * (1 - Headroom(p)); }

}  // namespace pgconflint
