// .gitignore patterns (see git_ignore.h).
#include "core/base/git_ignore.h"

#include <fnmatch.h>

#include <utility>

namespace pgconflint {
namespace {

std::vector<std::string> Split(std::string_view s) {
  std::vector<std::string> out;
  size_t start = 0;
  for (size_t i = 0; i <= s.size(); ++i) {
    if (i == s.size() || s[i] == '/') {
      out.emplace_back(s.substr(start, i - start));
      start = i + 1;
    }
  }
  return out;
}

// Whether path segments [p, end) match pattern segments [g, end): "**"
// stands for zero or more whole segments, any other segment is an fnmatch
// glob (no '/' in it, so '*' and '?' stay within one name).
bool MatchSegments(const std::vector<std::string>& glob, size_t g, const std::vector<std::string>& path,
                   size_t p) {
  if (g == glob.size()) return p == path.size();
  if (glob[g] == "**") {
    for (size_t skip = p; skip <= path.size(); ++skip)
      if (MatchSegments(glob, g + 1, path, skip)) return true;
    return false;
  }
  if (p == path.size()) return false;
  return fnmatch(glob[g].c_str(), path[p].c_str(), 0) == 0 && MatchSegments(glob, g + 1, path, p + 1);
}

}  // namespace

void GitIgnore::Add(const std::string& dir, std::string_view text) {
  std::vector<Pattern>& patterns = by_dir_[dir];
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    start = end + 1;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    // Trailing spaces go, unless escaped with a backslash.
    while (!line.empty() && line.back() == ' ' && !(line.size() >= 2 && line[line.size() - 2] == '\\'))
      line.remove_suffix(1);
    if (line.empty() || line[0] == '#') continue;
    Pattern p;
    if (line[0] == '!') {
      p.negated = true;
      line.remove_prefix(1);
    } else if (line[0] == '\\' && line.size() > 1 && (line[1] == '!' || line[1] == '#')) {
      line.remove_prefix(1);
    }
    if (!line.empty() && line.back() == '/') {
      p.dir_only = true;
      line.remove_suffix(1);
    }
    if (line.empty()) continue;
    p.anchored = line.find('/') != std::string_view::npos;
    if (line[0] == '/') line.remove_prefix(1);
    if (line.empty()) continue;
    p.segments = Split(line);
    patterns.push_back(std::move(p));
  }
}

bool GitIgnore::Ignored(const std::string& abs, bool is_dir) const {
  // The directories above `abs` that have patterns, the shallowest first.
  std::vector<std::pair<size_t, const std::vector<Pattern>*>> above;  // (length of the directory, its patterns)
  for (size_t slash = abs.rfind('/'); slash != std::string::npos && slash > 0; slash = abs.rfind('/', slash - 1)) {
    auto it = by_dir_.find(abs.substr(0, slash));
    if (it != by_dir_.end()) above.emplace_back(slash, &it->second);
  }
  if (auto root = by_dir_.find("/"); root != by_dir_.end() && abs.size() > 1) above.emplace_back(0, &root->second);
  bool ignored = false;
  for (auto d = above.rbegin(); d != above.rend(); ++d) {
    const std::vector<std::string> rel = Split(std::string_view(abs).substr(d->first + 1));
    for (const Pattern& p : *d->second) {
      if (p.dir_only && !is_dir) continue;
      bool match = p.anchored ? MatchSegments(p.segments, 0, rel, 0)
                              : fnmatch(p.segments[0].c_str(), rel.back().c_str(), 0) == 0;
      if (match) ignored = !p.negated;
    }
  }
  return ignored;
}

}  // namespace pgconflint
