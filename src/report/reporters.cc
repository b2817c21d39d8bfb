// The table of output formats, from the generated list of the files in
// src/report/formats/ (report_formats.inc), ordered by Reporter::order.
#include <algorithm>
#include <vector>

#include "report/reporter.h"

namespace pgconflint {

#define PGC_FORMAT(name) extern const Reporter kFormat_##name;
#include "report_formats.inc"
#undef PGC_FORMAT

std::span<const Reporter> Reporters() {
  static const std::vector<Reporter> table = [] {
    std::vector<Reporter> t = {
#define PGC_FORMAT(name) kFormat_##name,
#include "report_formats.inc"
#undef PGC_FORMAT
    };
    std::sort(t.begin(), t.end(), [](const Reporter& a, const Reporter& b) { return a.order < b.order; });
    return t;
  }();
  return table;
}

const Reporter* FindReporter(std::string_view name) {
  for (const Reporter& r : Reporters())
    if (name == r.name) return &r;
  return nullptr;
}

}  // namespace pgconflint
