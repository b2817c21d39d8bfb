// Line diff: common prefix and suffix trimmed, then a longest common
// subsequence over what is left when it is small, else a patience diff
// (unique lines as anchors, each gap diffed again); a gap too large for an
// LCS and without unique lines is shown as replaced whole.
#include "report/unified_diff.h"

#include <algorithm>
#include <cstdint>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace pgconflint {
namespace {

constexpr size_t kContext = 3;
constexpr size_t kMaxCells = 4u << 20;  // LCS table cells before falling back

std::vector<std::string_view> Lines(const std::string& text) {
  std::vector<std::string_view> out;
  size_t at = 0;
  while (at < text.size()) {
    size_t nl = text.find('\n', at);
    size_t end = nl == std::string::npos ? text.size() : nl + 1;
    out.emplace_back(text.data() + at, end - at);
    at = end;
  }
  return out;
}

// One line of the script: ' ' kept, '-' removed, '+' added.
struct Op {
  char kind;
  std::string_view line;
};

// Appends the script of a[a0, a1) -> b[b0, b1) with a longest common
// subsequence, or as replaced whole when the table would be too large.
void LcsScript(const std::vector<std::string_view>& a, size_t a0, size_t a1, const std::vector<std::string_view>& b,
               size_t b0, size_t b1, std::vector<Op>* ops) {
  const size_t n = a1 - a0, m = b1 - b0;
  if (n * m > kMaxCells) {
    for (size_t i = a0; i < a1; ++i) ops->push_back({'-', a[i]});
    for (size_t j = b0; j < b1; ++j) ops->push_back({'+', b[j]});
    return;
  }
  // lcs[i][j]: LCS length of a[a0+i..a1) and b[b0+j..b1).
  std::vector<std::vector<uint32_t>> lcs(n + 1, std::vector<uint32_t>(m + 1, 0));
  for (size_t i = n; i-- > 0;)
    for (size_t j = m; j-- > 0;)
      lcs[i][j] = a[a0 + i] == b[b0 + j] ? lcs[i + 1][j + 1] + 1 : std::max(lcs[i + 1][j], lcs[i][j + 1]);
  size_t i = 0, j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[a0 + i] == b[b0 + j]) {
      ops->push_back({' ', a[a0 + i++]});
      ++j;
    } else if (i < n && (j == m || lcs[i + 1][j] >= lcs[i][j + 1])) {
      ops->push_back({'-', a[a0 + i++]});  // removals first, as diff -u
    } else {
      ops->push_back({'+', b[b0 + j++]});
    }
  }
}

// Patience diff: the lines that occur once in each side are anchors; the
// longest run of anchors in the same order is kept, and each gap between
// them is diffed again (with an LCS once no line is unique). Fixes change
// few lines, and a configuration's lines are mostly unique: near linear.
void PatienceScript(const std::vector<std::string_view>& a, size_t a0, size_t a1,
                    const std::vector<std::string_view>& b, size_t b0, size_t b1, std::vector<Op>* ops) {
  while (a0 < a1 && b0 < b1 && a[a0] == b[b0]) ops->push_back({' ', a[a0++]}), ++b0;
  std::vector<Op> tail;
  while (a0 < a1 && b0 < b1 && a[a1 - 1] == b[b1 - 1]) tail.push_back({' ', a[--a1]}), --b1;
  if (a0 == a1 || b0 == b1 || (a1 - a0) * (b1 - b0) <= kMaxCells) {
    LcsScript(a, a0, a1, b, b0, b1, ops);
  } else {
    // line -> (count in a, index in a, count in b, index in b)
    struct Seen {
      uint32_t in_a = 0, in_b = 0;
      size_t at_a = 0, at_b = 0;
    };
    std::unordered_map<std::string_view, Seen> seen;
    for (size_t i = a0; i < a1; ++i) {
      Seen& s = seen[a[i]];
      ++s.in_a;
      s.at_a = i;
    }
    for (size_t j = b0; j < b1; ++j) {
      auto it = seen.find(b[j]);
      if (it == seen.end()) continue;
      ++it->second.in_b;
      it->second.at_b = j;
    }
    std::vector<std::pair<size_t, size_t>> unique;  // (index in a, index in b), in a's order
    for (size_t i = a0; i < a1; ++i) {
      const Seen& s = seen[a[i]];
      if (s.in_a == 1 && s.in_b == 1) unique.emplace_back(i, s.at_b);
    }
    // The longest increasing run of b indices (patience sorting).
    std::vector<size_t> tops, previous(unique.size());
    for (size_t k = 0; k < unique.size(); ++k) {
      auto pos = std::lower_bound(tops.begin(), tops.end(), unique[k].second,
                                  [&](size_t t, size_t value) { return unique[t].second < value; });
      previous[k] = pos == tops.begin() ? SIZE_MAX : *(pos - 1);
      if (pos == tops.end()) tops.push_back(k);
      else *pos = k;
    }
    std::vector<std::pair<size_t, size_t>> anchors;
    for (size_t k = tops.empty() ? SIZE_MAX : tops.back(); k != SIZE_MAX; k = previous[k]) anchors.push_back(unique[k]);
    std::reverse(anchors.begin(), anchors.end());
    if (anchors.empty()) {
      LcsScript(a, a0, a1, b, b0, b1, ops);
    } else {
      size_t i = a0, j = b0;
      for (const auto& [ai, bj] : anchors) {
        PatienceScript(a, i, ai, b, j, bj, ops);
        ops->push_back({' ', a[ai]});
        i = ai + 1;
        j = bj + 1;
      }
      PatienceScript(a, i, a1, b, j, b1, ops);
    }
  }
  ops->insert(ops->end(), tail.rbegin(), tail.rend());
}

std::vector<Op> Script(const std::vector<std::string_view>& a, const std::vector<std::string_view>& b) {
  std::vector<Op> ops;
  PatienceScript(a, 0, a.size(), b, 0, b.size(), &ops);
  return ops;
}

void AppendLine(char kind, std::string_view line, std::string* out) {
  *out += kind;
  out->append(line);
  if (line.empty() || line.back() != '\n') *out += "\n\\ No newline at end of file\n";
}

std::string HunkRange(size_t start, size_t count) {
  // As diff -u: an empty range names the line before it.
  if (count == 1) return std::to_string(start);
  return std::to_string(count ? start : start - 1) + "," + std::to_string(count);
}

}  // namespace

std::string UnifiedDiff(const std::string& path, const std::string& before, const std::string& after) {
  if (before == after) return "";
  std::vector<Op> ops = Script(Lines(before), Lines(after));
  std::string out = "--- a/" + path + "\n+++ b/" + path + "\n";
  size_t k = 0;
  size_t old_line = 1, new_line = 1;  // 1-based numbers of ops[k]'s lines
  while (k < ops.size()) {
    size_t first = k;
    while (first < ops.size() && ops[first].kind == ' ') ++first;
    if (first == ops.size()) break;
    size_t begin = std::max(k, first >= kContext ? first - kContext : 0);
    // Extend over changes separated by at most 2 x kContext kept lines.
    size_t last = first;  // the last change of the hunk
    for (size_t x = first + 1; x < ops.size() && x - last <= 2 * kContext + 1; ++x)
      if (ops[x].kind != ' ') last = x;
    size_t end = std::min(ops.size(), last + 1 + kContext);
    old_line += begin - k;  // kept lines before the hunk
    new_line += begin - k;
    size_t old_count = 0, new_count = 0;
    for (size_t x = begin; x < end; ++x) {
      old_count += ops[x].kind != '+';
      new_count += ops[x].kind != '-';
    }
    out += "@@ -" + HunkRange(old_line, old_count) + " +" + HunkRange(new_line, new_count) + " @@\n";
    for (size_t x = begin; x < end; ++x) AppendLine(ops[x].kind, ops[x].line, &out);
    old_line += old_count;
    new_line += new_count;
    k = end;
  }
  return out;
}

}  // namespace pgconflint
