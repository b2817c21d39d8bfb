// Reading knowledge/storage.toml (through core/base/toml_read.h): a malformed
// file is an error value. The build-time generator reads it with this parser
// (src/gen/embed_storage.cc); the binary holds the result as C++ tables.
#include "core/knowledge/storage_facts.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "core/base/toml_read.h"

namespace pgconflint {
namespace {

// A value in postgresql.conf spelling: strings as written, integers plainly,
// reals with one decimal at least ("4.0", "1.1", "1.25").
std::string Text(const toml::node* n) {
  if (!n) return "";
  if (auto s = n->value_exact<std::string>()) return *s;
  if (auto i = n->value_exact<int64_t>()) return std::to_string(*i);
  if (auto d = n->value_exact<double>()) {
    char buf[32];
    bool one_decimal = std::fabs(*d * 10 - std::round(*d * 10)) <= 1e-9;
    snprintf(buf, sizeof buf, one_decimal ? "%.1f" : "%g", *d);
    return buf;
  }
  return "";
}

std::string Where(const toml::node& n) {
  return "storage.toml:" + std::to_string(n.source().begin.line) + ": ";
}

bool Fail(const std::string& message, std::string* error) {
  *error = message;
  return false;
}

// `key = { start = ..., why = "...", source = KEY }` inside a cell; absent is
// no variant.
bool ParseVariant(const StorageFacts& facts, const toml::table& cell, const char* key, const char* param,
                  StartVariant* out, std::string* error) {
  const toml::node* n = cell.get(key);
  if (!n) return true;
  const toml::table* v = n->as_table();
  if (!v || !v->get("start")) return Fail(Where(*n) + param + "." + key + " needs a start value", error);
  out->start = Text(v->get("start"));
  out->why = Text(v->get("why"));
  out->source = Text(v->get("source"));
  if (out->why.empty() || !facts.sources.count(out->source))
    return Fail(Where(*n) + param + "." + key + " needs a why and a source that is a key of [sources]", error);
  return true;
}

bool ParseStartingPoint(const StorageFacts& facts, const toml::table& row, const char* param, StartingPoint* out,
                        std::string* error) {
  const toml::table* t = row[param].as_table();
  if (!t || !t->get("start")) {
    *error = Where(row) + "storage type lacks a start value for " + param;
    return false;
  }
  out->start = Text(t->get("start"));
  out->min = Text(t->get("min"));
  out->max = Text(t->get("max"));
  out->why = Text(t->get("why"));
  out->source = Text(t->get("source"));
  if (!facts.sources.count(out->source)) {
    *error = Where(*t) + param + " cites \"" + out->source + "\", which is no key of [sources]";
    return false;
  }
  out->small_cpus = static_cast<int>((*t)["small"]["cpus"].value_or(int64_t{0}));
  return ParseVariant(facts, *t, "small", param, &out->small, error) &&
         ParseVariant(facts, *t, "reporting", param, &out->reporting, error) &&
         (out->small.start.empty() == (out->small_cpus <= 0) ||
          Fail(Where(*t) + param + ": small = { cpus = N, start = ... } needs both, N > 0", error));
}

bool ParseStorageType(const StorageFacts& facts, const toml::table& notes, const toml::table& row,
                      StorageType* out, std::string* error) {
  out->name = Text(row.get("name"));
  out->title = Text(row.get("title"));
  if (out->name.empty() || out->title.empty()) {
    *error = Where(row) + "a [[storage]] entry needs a name and a title";
    return false;
  }
  for (const StorageType& t : facts.types)
    if (t.name == out->name) {
      *error = Where(row) + "storage type \"" + out->name + "\" is defined twice";
      return false;
    }
  for (const char* param : kStorageParameters)
    if (!ParseStartingPoint(facts, row, param, &out->settings[param], error)) return false;
  out->scheduler = Text(row.get("scheduler"));
  out->mount = Text(row.get("mount"));
  if (const toml::node* hl = row.get("high_latency"); hl && !hl->is_boolean()) {
    *error = Where(*hl) + "high_latency must be true or false";
    return false;
  }
  out->high_latency = row["high_latency"].value_or(false);
  out->io_workers_per_cpu = row["io_workers"]["per_cpu"].value_or(0.0);
  out->io_workers_why = Text(row["io_workers"]["why"].node());
  out->io_workers_source = Text(row["io_workers"]["source"].node());
  out->io_workers_min = static_cast<int>(row["io_workers"]["min"].value_or(int64_t{0}));
  out->io_workers_max = static_cast<int>(row["io_workers"]["max"].value_or(int64_t{32}));
  out->io_workers_min_up_to_cpus = static_cast<int>(row["io_workers"]["min_up_to_cpus"].value_or(int64_t{0}));
  if (out->io_workers_min < 0 || out->io_workers_max < std::max(out->io_workers_min, 1) || out->io_workers_max > 32) {
    *error = Where(row) + "storage type \"" + out->name + "\": io_workers min and max must satisfy 0 <= min <= max <= 32";
    return false;
  }
  if (!(out->io_workers_per_cpu > 0) || out->io_workers_why.empty() || !facts.sources.count(out->io_workers_source)) {
    *error = Where(row) + "storage type \"" + out->name +
             "\" needs io_workers = { per_cpu = N, why = \"...\", source = KEY of [sources] }";
    return false;
  }
  out->io_concurrency_far_above = row["io_concurrency_far_above"].value_or(0);
  out->autovacuum_cost_limit = row["autovacuum_cost_limit"]["server"].value_or(0);
  out->large_table_autovacuum_cost_limit = row["autovacuum_cost_limit"]["large_tables"].value_or(0);
  out->autovacuum_cost_limit_why = Text(row["autovacuum_cost_limit"]["why"].node());
  if (out->io_concurrency_far_above <= 0 || out->autovacuum_cost_limit <= 0 ||
      out->large_table_autovacuum_cost_limit <= 0 || out->autovacuum_cost_limit_why.empty()) {
    *error = Where(row) + "storage type \"" + out->name +
             "\" needs io_concurrency_far_above = N and autovacuum_cost_limit = { server = N, large_tables = N, why = "
             "\"...\" }";
    return false;
  }
  if (const toml::array* keys = row["notes"].as_array())
    for (const toml::node& k : *keys) {
      std::string text = Text(notes.get(Text(&k)));
      if (text.empty()) {
        *error = Where(k) + "note \"" + Text(&k) + "\" is no key of [notes]";
        return false;
      }
      out->notes.push_back(text);
    }
  return true;
}

bool ParseWorkload(const toml::table& t, WorkloadFacts* out, std::string* error) {
  out->connections = t["connections"].value_or(0);
  out->shared_buffers_fraction = t["shared_buffers_fraction"].value_or(0.0);
  out->effective_cache_fraction = t["effective_cache_fraction"].value_or(0.0);
  out->checkpoint_timeout = Text(t.get("checkpoint_timeout"));
  out->peak_wal_mb_per_second_per_cpu = t["peak_wal_mb_per_second_per_cpu"].value_or(0.0);
  out->nodes_per_query = t["nodes_per_query"].value_or(0.0);
  out->headroom = t["headroom"].value_or(0.0);
  out->memory_why = Text(t.get("memory_why"));
  out->why = Text(t.get("why"));
  if (out->connections <= 0 || out->shared_buffers_fraction <= 0 || out->effective_cache_fraction <= 0 ||
      out->checkpoint_timeout.empty() || out->peak_wal_mb_per_second_per_cpu <= 0 || out->nodes_per_query < 1 ||
      !(out->headroom > 0 && out->headroom < 1) || out->memory_why.empty()) {
    *error = Where(t) + "a workload needs connections, shared_buffers_fraction, effective_cache_fraction, "
                        "checkpoint_timeout, peak_wal_mb_per_second_per_cpu, nodes_per_query (at least 1), "
                        "headroom (a fraction) and memory_why";
    return false;
  }
  return true;
}

bool ParseTable(const toml::table& t, StorageFacts* out, std::string* error) {
  if (const toml::table* sources = t["sources"].as_table())
    for (const auto& [k, v] : *sources) out->sources[std::string(k.str())] = Text(&v);
  static const toml::table kNoNotes;
  const toml::table* notes = t["notes"].as_table();
  const toml::array* rows = t["storage"].as_array();
  if (!rows || rows->empty()) {
    *error = "storage.toml: no [[storage]] entries";
    return false;
  }
  for (const toml::node& row : *rows) {
    if (!row.as_table()) {
      *error = Where(row) + "storage must be an array of tables ([[storage]])";
      return false;
    }
    StorageType type;
    if (!ParseStorageType(*out, notes ? *notes : kNoNotes, *row.as_table(), &type, error)) return false;
    out->types.push_back(std::move(type));
  }
  if (const toml::table* workloads = t["workload"].as_table())
    for (const auto& [k, v] : *workloads) {
      const toml::table* w = v.as_table();
      if (!w) {
        *error = Where(v) + "workload." + std::string(k.str()) + " must be a table";
        return false;
      }
      if (!ParseWorkload(*w, &out->workloads[std::string(k.str())], error)) return false;
    }
  std::string fallback = Text(t.get("default_storage"));
  for (size_t i = 0; i < out->types.size(); ++i)
    if (out->types[i].name == fallback) {
      out->default_type = static_cast<int>(i);
      return true;
    }
  *error = "storage.toml: default_storage \"" + fallback + "\" names no [[storage]] entry";
  return false;
}

}  // namespace

bool ParseStorageFacts(std::string_view text, StorageFacts* out, std::string* error) {
  *out = StorageFacts();
  toml::table t;
  return ParseToml(text, "storage.toml", &t, error) && ParseTable(t, out, error);
}

}  // namespace pgconflint
