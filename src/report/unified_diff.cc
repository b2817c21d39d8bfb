// Line diff: common prefix and suffix trimmed, then a longest common
// subsequence over what is left (fixes change few lines, so the middle is
// small); a middle too large for that is shown as replaced whole.
#include "report/unified_diff.h"

#include <algorithm>
#include <string_view>
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

std::vector<Op> Script(const std::vector<std::string_view>& a, const std::vector<std::string_view>& b) {
  size_t pre = 0;
  while (pre < a.size() && pre < b.size() && a[pre] == b[pre]) ++pre;
  size_t suf = 0;
  while (suf < a.size() - pre && suf < b.size() - pre && a[a.size() - 1 - suf] == b[b.size() - 1 - suf]) ++suf;
  std::vector<Op> ops;
  for (size_t i = 0; i < pre; ++i) ops.push_back({' ', a[i]});
  size_t n = a.size() - pre - suf, m = b.size() - pre - suf;
  if (n * m <= kMaxCells) {
    // lcs[i][j]: LCS length of a[pre+i..] and b[pre+j..].
    std::vector<std::vector<uint32_t>> lcs(n + 1, std::vector<uint32_t>(m + 1, 0));
    for (size_t i = n; i-- > 0;)
      for (size_t j = m; j-- > 0;)
        lcs[i][j] = a[pre + i] == b[pre + j] ? lcs[i + 1][j + 1] + 1 : std::max(lcs[i + 1][j], lcs[i][j + 1]);
    size_t i = 0, j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && a[pre + i] == b[pre + j]) {
        ops.push_back({' ', a[pre + i++]});
        ++j;
      } else if (i < n && (j == m || lcs[i + 1][j] >= lcs[i][j + 1])) {
        ops.push_back({'-', a[pre + i++]});  // removals first, as diff -u
      } else {
        ops.push_back({'+', b[pre + j++]});
      }
    }
  } else {
    for (size_t i = 0; i < n; ++i) ops.push_back({'-', a[pre + i]});
    for (size_t j = 0; j < m; ++j) ops.push_back({'+', b[pre + j]});
  }
  for (size_t i = a.size() - suf; i < a.size(); ++i) ops.push_back({' ', a[i]});
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
