// The diagnostic builder.
#include "core/model/diagnostic.h"

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

bool EditSet::Add(const Fix& fix) {
  std::vector<const Edit*> mine;
  for (const Edit& e : fix.edits) {
    if (e.where.file != file_) continue;
    const Range r = e.where.range;
    if (r.begin > r.end || r.end > size_) return false;
    // The first accepted edit starting at or after r.begin: it clashes when
    // it starts at the same place (two insertions: order unknown) or inside
    // r; the one before it when it reaches past r.begin.
    auto next = by_begin_.lower_bound(r.begin);
    if (next != by_begin_.end() && (next->first == r.begin || next->first < r.end)) return false;
    if (next != by_begin_.begin() && std::prev(next)->second->where.range.end > r.begin) return false;
    mine.push_back(&e);
  }
  if (mine.empty()) return false;
  for (const Edit* e : mine) by_begin_.emplace(e->where.range.begin, e);
  ++fixes_;
  return true;
}

std::vector<const Edit*> EditSet::edits() const {
  std::vector<const Edit*> out;
  out.reserve(by_begin_.size());
  for (const auto& [begin, e] : by_begin_) out.push_back(e);
  return out;
}

std::string EditSet::Apply(const std::string& text) const {
  std::string out;
  out.reserve(text.size());
  uint32_t at = 0;
  for (const auto& [begin, e] : by_begin_) {
    out.append(text, at, e->where.range.begin - at);
    out += e->text;
    at = e->where.range.end;
  }
  out.append(text, at, std::string::npos);
  return out;
}

std::vector<const Edit*> CompatibleEdits(size_t size, int file, const std::vector<const Fix*>& fixes, int* applied) {
  EditSet set(size, file);
  for (const Fix* f : fixes) set.Add(*f);
  if (applied) *applied = set.fixes();
  return set.edits();
}

std::string ApplyFixes(const std::string& text, int file, const std::vector<const Fix*>& fixes, int* applied) {
  EditSet set(text.size(), file);
  for (const Fix* f : fixes) set.Add(*f);
  if (applied) *applied = set.fixes();
  return set.Apply(text);
}

}  // namespace pgconflint
