// The diagnostic builder.
#include "core/diagnostic.h"

#include <algorithm>

namespace pgconflint {

Diagnostic MakeDiagnostic(const RuleInfo& rule, Location where, std::string message, std::string help,
                          std::string parameter) {
  Diagnostic d;
  d.rule = &rule;
  d.outcome = rule.outcome;
  d.level = rule.severity;
  d.file = where.file;
  d.range = where.range;
  d.parameter = std::move(parameter);
  d.message = std::move(message);
  d.help = std::move(help);
  return d;
}

Fix MakeFix(std::string title, FixSafety safety, Location where, std::string text) {
  Fix f;
  f.title = std::move(title);
  f.safety = safety;
  f.edits.push_back({where, std::move(text)});
  return f;
}

std::vector<const Edit*> CompatibleEdits(size_t size, int file, const std::vector<const Fix*>& fixes, int* applied) {
  std::vector<const Edit*> edits;
  int count = 0;
  for (const Fix* f : fixes) {
    std::vector<const Edit*> mine;
    bool clash = false;
    for (const Edit& e : f->edits) {
      if (e.where.file != file) continue;
      if (e.where.range.begin > e.where.range.end || e.where.range.end > size) clash = true;
      for (const Edit* other : edits) {
        const Range a = e.where.range, b = other->where.range;
        // Overlapping, or two insertions at the same place (order unknown).
        if ((a.begin < b.end && b.begin < a.end) || a.begin == b.begin) clash = true;
      }
      mine.push_back(&e);
    }
    if (clash || mine.empty()) continue;
    edits.insert(edits.end(), mine.begin(), mine.end());
    ++count;
  }
  std::sort(edits.begin(), edits.end(),
            [](const Edit* a, const Edit* b) { return a->where.range.begin < b->where.range.begin; });
  if (applied) *applied = count;
  return edits;
}

std::string ApplyFixes(const std::string& text, int file, const std::vector<const Fix*>& fixes, int* applied) {
  std::vector<const Edit*> edits = CompatibleEdits(text.size(), file, fixes, applied);
  std::string out;
  out.reserve(text.size());
  uint32_t at = 0;
  for (const Edit* e : edits) {
    out.append(text, at, e->where.range.begin - at);
    out += e->text;
    at = e->where.range.end;
  }
  out.append(text, at, std::string::npos);
  return out;
}

}  // namespace pgconflint
