// log_statement_stats and the per-stage log_parser_stats, log_planner_stats
// and log_executor_stats exclude each other: the check hooks refuse turning
// one kind on while the other kind is on at that moment, so the order of the
// lines matters: in a file, the lines applied before it, superseded ones
// skipped (`postgres -C` on 14 and 18, and the differential suite's cases);
// in SQL, the session's values, for SET, ALTER SYSTEM and ALTER ROLE ... SET
// (asked of 14 and 16, and a regression case on 14-18). ALTER DATABASE ...
// SET validates the same way and was not asked. Shared by the file passes and
// the SQL simulation.
#ifndef PGCONFLINT_CORE_CONF_STATS_FLAGS_H_
#define PGCONFLINT_CORE_CONF_STATS_FLAGS_H_

#include <algorithm>
#include <iterator>
#include <string>
#include <string_view>

#include "core/knowledge/catalog.h"
#include "core/knowledge/value.h"

namespace pgconflint {

class StatsFlags {
 public:
  static constexpr std::string_view kStatement = "log_statement_stats";
  static constexpr std::string_view kStages[] = {"log_parser_stats", "log_planner_stats", "log_executor_stats"};

  static bool Tracks(std::string_view name) { return name == kStatement || IsStage(name); }

  /// The parameter that makes turning `name` on fail now, or "" (`on(n)`:
  /// whether parameter n is on at this moment).
  template <class On>
  static std::string_view Blocker(std::string_view name, On on) {
    if (name == kStatement) {
      for (std::string_view s : kStages)
        if (on(s)) return s;
    } else if (IsStage(name) && on(kStatement)) {
      return kStatement;
    }
    return {};
  }

  /// Refuses `v`, a value of `p`, when it turns p on while Blocker says no,
  /// with the server's message and detail.
  template <class On>
  static void Check(const Parameter& p, ParsedValue* v, On on) {
    if (!v->ok() || v->normalized != "on" || Blocker(p.name, on).empty()) return;
    const std::string_view name = p.name;
    v->problem = ValueProblem::kInvalid;
    v->normalized.clear();
    v->message = "invalid value for parameter \"" + std::string(name) + "\": 1";
    v->hint = name == kStatement
                  ? "Cannot enable \"log_statement_stats\" when \"log_parser_stats\", \"log_planner_stats\", or "
                    "\"log_executor_stats\" is true. "
                  : "Cannot enable parameter when \"log_statement_stats\" is true. ";
    v->hint += "Keep either log_statement_stats or the per-stage log_*_stats on, and turn the other off first.";
  }

 private:
  static bool IsStage(std::string_view name) {
    return std::find(std::begin(kStages), std::end(kStages), name) != std::end(kStages);
  }
};

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_CONF_STATS_FLAGS_H_
