// Placing findings about defaults, and folding findings about one problem.
#include "core/model/finding_placement.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "core/base/strings.h"

namespace pgconflint {
namespace {

// PGC4xx to PGC7xx: the rules about a setting's value against other settings
// and the profile (PGC8xx findings are each a problem of their own).
bool CrossParameter(const Diagnostic& d) {
  std::string_view code = d.rule->code;
  return code.size() == 6 && code.substr(0, 3) == "PGC" && code[3] >= '4' && code[3] <= '7';
}

}  // namespace

Location DefaultLocation(const Analysis& a, std::string_view parameter) {
  const LoadedFile& root = a.files[0];
  const std::string& text = root.source.text();
  // A commented-out setting of the parameter: "#shared_buffers = 128MB ..."
  // (the name, then '=': prose that starts with the name is not one).
  for (const CommentLine& c : root.parsed.comments) {
    if (!c.own_line) continue;
    std::string_view body = TrimBlanks(root.source.Slice(c.range).substr(1));
    if (body.size() <= parameter.size() || AsciiLower(body.substr(0, parameter.size())) != parameter) continue;
    std::string_view rest = TrimBlanks(body.substr(parameter.size()));
    if (!rest.empty() && rest[0] == '=') return {0, c.range};
  }
  // The end of the last line, before a final newline.
  uint32_t end = static_cast<uint32_t>(text.size());
  if (end > 0 && text[end - 1] == '\n') --end;
  if (end > 0 && text[end - 1] == '\r') --end;
  return {0, {end, end}};
}

void FoldRelatedFindings(Analysis* a) {
  // (file, begin, parameter) -> indices of cross-parameter findings there.
  std::map<std::tuple<int, uint32_t, std::string>, std::vector<size_t>> groups;
  for (size_t i = 0; i < a->diagnostics.size(); ++i) {
    const Diagnostic& d = a->diagnostics[i];
    if (CrossParameter(d) && d.file >= 0 && !d.parameter.empty())
      groups[{d.file, d.range.begin, d.parameter}].push_back(i);
  }
  std::vector<bool> folded(a->diagnostics.size(), false);
  for (auto& [key, members] : groups) {
    if (members.size() < 2) continue;
    auto rank = [&](size_t i) {
      const Diagnostic& d = a->diagnostics[i];
      return std::make_tuple(static_cast<int>(d.outcome), static_cast<int>(d.severity()),
                             std::string_view(d.rule->code));
    };
    std::sort(members.begin(), members.end(), [&](size_t x, size_t y) { return rank(x) < rank(y); });
    Diagnostic& keep = a->diagnostics[members[0]];
    for (size_t k = 1; k < members.size(); ++k) {
      const Diagnostic& other = a->diagnostics[members[k]];
      keep.also.push_back({other.rule, other.message});
      // The strongest outcome of the group (lower is stronger).
      if (other.outcome < keep.outcome) keep.outcome = other.outcome;
      folded[members[k]] = true;
    }
  }
  std::vector<Diagnostic> kept;
  kept.reserve(a->diagnostics.size());
  for (size_t i = 0; i < a->diagnostics.size(); ++i)
    if (!folded[i]) kept.push_back(std::move(a->diagnostics[i]));
  a->diagnostics = std::move(kept);
}

}  // namespace pgconflint
