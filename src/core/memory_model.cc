// The worst-case memory model.
#include "core/memory_model.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace pgconflint {
namespace {

std::string Bytes(double b) { return ExprValue::Number(b, Dim::kBytes).Display(); }

double BytesOf(const EffectiveConfig& eff, const char* name) {
  ExprValue v = eff.Typed(name);
  return v.kind == ExprValue::Kind::kNumber ? v.number : 0;
}

}  // namespace

double MemoryModel::Fixed() const {
  return shared_buffers + wal_buffers + autovacuum_workers * autovacuum_work_mem + maintenance_work_mem;
}

double MemoryModel::PerConnection() const {
  return work_mem * nodes_per_query * std::max(1.0, hash_mem_multiplier) + temp_buffers;
}

double MemoryModel::Total() const { return Fixed() + connections * PerConnection(); }

double MemoryModel::WorkMemWithin(double budget) const {
  return (budget - Fixed() - connections * temp_buffers) /
         (connections * nodes_per_query * std::max(1.0, hash_mem_multiplier));
}

double MemoryModel::ConnectionsWithin(double budget) const {
  return std::floor((budget - Fixed()) / PerConnection());
}

std::string MemoryModel::Breakdown() const {
  std::ostringstream m;
  m << "shared_buffers " << Bytes(shared_buffers) << " + wal_buffers " << Bytes(wal_buffers) << " + " << connections
    << " connections x (work_mem " << Bytes(work_mem) << " x " << nodes_per_query << " nodes x hash_mem_multiplier "
    << hash_mem_multiplier << " + temp_buffers " << Bytes(temp_buffers) << ") + " << autovacuum_workers
    << " autovacuum workers x " << Bytes(autovacuum_work_mem) << " + maintenance " << Bytes(maintenance_work_mem);
  return m.str();
}

MemoryModel MemoryModelOf(const EffectiveConfig& eff, const Profile& p) {
  MemoryModel m;
  m.shared_buffers = BytesOf(eff, "shared_buffers");
  m.wal_buffers = eff.Derived("wal_buffers")->value.number;
  // No more clients than max_connections can be connected at once.
  double max_conns = eff.Typed("max_connections").number;
  m.connections = p.connections ? std::min<double>(*p.connections, max_conns) : max_conns;
  m.work_mem = BytesOf(eff, "work_mem");
  m.nodes_per_query = p.nodes_per_query;
  m.hash_mem_multiplier = eff.Typed("hash_mem_multiplier").number;
  m.temp_buffers = BytesOf(eff, "temp_buffers");
  // From 18, autovacuum_worker_slots caps the workers that can run.
  m.autovacuum_workers = eff.catalog().major() >= 18 ? eff.Derived("autovacuum_max_workers")->value.number
                                                     : eff.Typed("autovacuum_max_workers").number;
  m.autovacuum_work_mem = eff.Derived("autovacuum_work_mem")->value.number;
  m.maintenance_work_mem = BytesOf(eff, "maintenance_work_mem");
  return m;
}

double MemoryBudget(const Profile& p) { return *p.ram_bytes * (1 - p.headroom); }

}  // namespace pgconflint
