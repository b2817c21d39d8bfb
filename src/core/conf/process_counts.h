// The process counts' check hooks (max_connections, autovacuum_max_workers,
// max_worker_processes, max_wal_senders): up to 17 each adds the values the
// others have at that moment. Shared by the file passes and the ALTER SYSTEM
// simulation.
#ifndef PGCONFLINT_CORE_CONF_PROCESS_COUNTS_H_
#define PGCONFLINT_CORE_CONF_PROCESS_COUNTS_H_

#include <cstdlib>
#include <string>
#include <unordered_map>

#include "core/base/strings.h"
#include "core/knowledge/catalog.h"
#include "core/knowledge/value.h"

namespace pgconflint {

// Up to 17 the check hooks of the four process counts add the values the
// others have at that moment (boot values, or earlier lines), so the order of
// the lines matters; 18 checks the final sum at start-up instead.
class ProcessCounts {
 public:
  explicit ProcessCounts(const Catalog& cat) {
    if (cat.major() > 17) return;
    for (const char* n : {"max_connections", "autovacuum_max_workers", "max_worker_processes", "max_wal_senders"})
      if (const Parameter* p = cat.Find(n)) counts_[p->name] = strtod(p->boot_val, nullptr);
  }
  // Refuses `v` when the sum with the others' current values is too large;
  // otherwise records it when `record` (a line of a file; ALTER SYSTEM
  // leaves the session's values as they are).
  void Check(const Parameter& p, ParsedValue* v, bool record) {
    auto it = counts_.find(p.name);
    if (it == counts_.end()) return;
    double sum = v->number + 1;  // the autovacuum launcher
    for (const auto& [n, value] : counts_)
      if (n != p.name) sum += value;
    if (sum <= 262143) {
      if (record) it->second = v->number;
      return;
    }
    v->problem = ValueProblem::kInvalid;
    v->message = "invalid value for parameter " + DoubleQuoted(p.name) + ": " + FormatWithUnit(v->number, p);
    v->hint = "max_connections + autovacuum_max_workers + max_worker_processes + max_wal_senders + 1 must be at "
              "most 262143 (with the values set so far: " + FormatWithUnit(sum, p) + ")";
  }

 private:
  std::unordered_map<std::string, double> counts_;
};

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_CONF_PROCESS_COUNTS_H_
