// Edit distance and "did you mean" suggestions.
#include "core/base/spelling.h"

#include <algorithm>
#include <vector>

namespace pgconflint {
namespace {

char Fold(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

}  // namespace

size_t TypoDistance(std::string_view a, std::string_view b) {
  // Three rows of the dynamic-programming table: the transposition step looks
  // two rows back.
  const size_t m = b.size();
  std::vector<size_t> before(m + 1), prev(m + 1), cur(m + 1);
  for (size_t j = 0; j <= m; ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= m; ++j) {
      const bool same = Fold(a[i - 1]) == Fold(b[j - 1]);
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (same ? 0 : 1)});
      if (i > 1 && j > 1 && Fold(a[i - 1]) == Fold(b[j - 2]) && Fold(a[i - 2]) == Fold(b[j - 1]))
        cur[j] = std::min(cur[j], before[j - 2] + 1);
    }
    std::swap(before, prev);
    std::swap(prev, cur);
  }
  return prev[m];
}

Suggester::Suggester(std::string_view name)
    : name_(name), budget_(std::max<size_t>(2, name.size() / 3)), best_distance_(budget_ + 1) {}

void Suggester::Consider(std::string_view candidate) {
  // Lengths further apart than the budget cannot be within it.
  if (candidate.size() > name_.size() + budget_ || name_.size() > candidate.size() + budget_) return;
  size_t d = TypoDistance(name_, candidate);
  if (d < best_distance_) {
    best_distance_ = d;
    best_ = std::string(candidate);
  }
}

std::string Suggester::Hint() const { return best_.empty() ? "" : " (did you mean \"" + best_ + "\"?)"; }

}  // namespace pgconflint
