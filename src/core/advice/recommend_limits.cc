// Keeping the recommender's values inside what each parameter accepts: the
// formulas scale with RAM without end, the parameters do not.
#include <cmath>
#include <set>
#include <string>

#include "core/base/quantity.h"
#include "core/advice/recommend_internal.h"
#include "core/knowledge/platform.h"
#include "core/knowledge/value.h"

namespace pgconflint::recommend_internal {

// The largest size `name` accepts, in whole MB from 1MB up (infinity when this major has
// no such memory parameter): a machine with tens of TB of RAM would
// otherwise get values the server refuses. On `os`, its platform's limit
// where that is lower (work_mem on Windows through 17).
double MaxSize(const Catalog& cat, const char* name, const std::optional<std::string>& os) {
  const Parameter* p = cat.Find(name);
  if (!p || p->unit_kind != UnitKind::kMemory) return HUGE_VAL;
  double most = p->max;
  if (os)
    if (const PlatformFact* f = FindPlatformFact(*p, *os, cat.major(), PlatformFact::Kind::kMaximum))
      most = std::min(most, f->number());
  const double bytes = most * p->unit_amount;
  return bytes >= 1048576 ? FloorMB(bytes) : bytes;  // io_combine_limit's 128kB on Windows is exact
}

namespace {

// A cell's size that its parameter refuses as too large is lowered to the
// largest one it accepts; anything else is unchanged. Returns whether the
// size is now that largest one.
bool ClampSize(const Catalog& cat, const std::optional<std::string>& os, const Parameter& p, std::string* value) {
  if (value->empty() || p.type != VarType::kInteger || p.unit_kind != UnitKind::kMemory) return false;
  double bytes;
  std::string error;
  if (!ParseQuantityOf(*value, Dim::kBytes, &bytes, &error)) return false;
  const double most = MaxSize(cat, p.name, os);
  if (bytes < most) return false;
  ParsedValue v = ParseValue(cat, p, *value);
  if (v.ok() && os) ApplyPlatformLimit(p, *os, cat.major(), &v);
  if (!v.ok()) *value = Size(most);
  return true;
}

}  // namespace

void ClampCells(const Catalog& cat, const std::optional<std::string>& os, Recommendation* r) {
  std::vector<Cell*> cells;
  for (Cell& c : r->machine) cells.push_back(&c);
  for (StorageRow& row : r->matrix)
    for (Cell& c : row.cells) cells.push_back(&c);
  for (Cell& c : r->autovacuum) cells.push_back(&c);
  std::set<std::string> capped;
  for (Cell* c : cells) {
    const Parameter* p = cat.Find(c->parameter);
    if (!p) continue;
    bool at_most = ClampSize(cat, os, *p, &c->value);
    ClampSize(cat, os, *p, &c->min);
    ClampSize(cat, os, *p, &c->max);
    if (at_most && capped.insert(c->parameter).second)
      r->assumptions.push_back(c->parameter + " capped at " + c->value + ", the most PostgreSQL " +
                               std::to_string(cat.major()) + " accepts" + (os ? " on " + *os : ""));
  }
}


// Without --storage no row is printed, so the defaults stand: where many
// connections on little shared_buffers resolve io_max_concurrency below a
// default I/O concurrency, the machine block caps it (PGC404 otherwise).
void CapDefaultIoConcurrency(const Catalog& cat, double io_max, Recommendation* r) {
  for (const char* name : {"effective_io_concurrency", "maintenance_io_concurrency"}) {
    const double boot = BootValue(cat, name);  // 0 where the major lacks it
    if (boot <= io_max) continue;
    r->machine.push_back({name, Num(io_max), "", "",
                          "the default " + Num(boot) + " is above the resolved io_max_concurrency (" + Num(io_max) +
                              "): a backend never has more I/Os in flight than that",
                          "formula"});
  }
}

}  // namespace pgconflint::recommend_internal
