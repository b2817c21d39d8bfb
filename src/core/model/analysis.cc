// The Analysis container: reading order, the effective index, sorting.
#include "core/model/analysis.h"

#include <algorithm>
#include <cstring>


namespace pgconflint {

bool Analysis::fatal() const {
  for (const Diagnostic& d : diagnostics)
    if (d.fatal()) return true;
  return failure != Failure::kNone;
}

std::vector<IncludeSite> Analysis::IncludeChain(int file) const {
  std::vector<IncludeSite> chain;
  while (file >= 0 && files[file].included_from.file >= 0) {
    chain.push_back(files[file].included_from);
    file = files[file].included_from.file;
  }
  std::reverse(chain.begin(), chain.end());
  return chain;
}

const Setting* Analysis::Effective(std::string_view name) const {
  // Built on first use: rules look up dozens of names, files hold hundreds of lines.
  if (!effective_indexed_) {
    effective_index_.clear();
    for (size_t i = 0; i < settings.size(); ++i) {
      const Setting& s = settings[i];
      if (s.applied && s.origin.cluster_wide()) effective_index_[AsciiLower(s.param ? std::string_view(s.param->name) : std::string_view(s.name))] = i;
    }
    effective_indexed_ = true;
  }
  auto it = effective_index_.find(AsciiLower(name));
  return it == effective_index_.end() ? nullptr : &settings[it->second];
}

std::vector<Scope> Analysis::Scopes() const {
  std::vector<Scope> out;
  for (const Setting& s : settings)
    if (s.origin.scoped()) out.push_back({s.origin.database, s.origin.role});
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::string Scope::Describe() const {
  if (database.empty() && role.empty()) return "every session (ALTER ROLE ALL)";
  if (database.empty()) return "role " + role;
  if (role.empty()) return "database " + database;
  return "role " + role + " in database " + database;
}

std::vector<uint32_t> Analysis::ReadingOrder(int file, uint32_t offset) const {
  std::vector<uint32_t> key;
  if (file < 0) return {UINT32_MAX};
  // The root's own index first: a data directory has two roots.
  int f = file;
  while (files[f].included_from.file >= 0) f = files[f].included_from.file;
  key.push_back(static_cast<uint32_t>(f));
  for (const IncludeSite& s : IncludeChain(file)) key.push_back(s.offset);
  key.push_back(offset);
  return key;
}

void Analysis::SortDiagnostics() {
  // Each file's position in the reading order is its include chain's offsets;
  // computed once per file, then diagnostics compare by (file key, offset)
  // without allocating.
  std::vector<std::vector<uint32_t>> file_keys(files.size());
  for (size_t f = 0; f < files.size(); ++f) {
    std::vector<uint32_t> key = ReadingOrder(static_cast<int>(f), 0);
    key.pop_back();
    file_keys[f] = std::move(key);
  }
  static const std::vector<uint32_t> kNoFile = {UINT32_MAX};
  auto before = [&](const Diagnostic& x, const Diagnostic& y) {
    if (x.file == y.file) {  // the common case: no include chains to compare
      if (x.range.begin != y.range.begin) return x.range.begin < y.range.begin;
      return strcmp(x.rule->code, y.rule->code) < 0;
    }
    const std::vector<uint32_t>& kx = x.file >= 0 ? file_keys[x.file] : kNoFile;
    const std::vector<uint32_t>& ky = y.file >= 0 ? file_keys[y.file] : kNoFile;
    size_t n = std::max(kx.size(), ky.size()) + 1;
    for (size_t i = 0; i < n; ++i) {
      // Past a file's chain comes its own offset; a shorter key sorts first.
      uint64_t a = i < kx.size() ? kx[i] : i == kx.size() ? uint64_t{x.range.begin} : 0;
      uint64_t b = i < ky.size() ? ky[i] : i == ky.size() ? uint64_t{y.range.begin} : 0;
      bool a_end = i > kx.size(), b_end = i > ky.size();
      if (a_end || b_end) {
        if (a_end != b_end) return a_end;
        break;
      }
      if (a != b) return a < b;
    }
    return strcmp(x.rule->code, y.rule->code) < 0;
  };
  // Sort indices, then move each diagnostic once: cheaper than moving
  // diagnostics (three strings each) through the merge passes.
  std::vector<uint32_t> order(diagnostics.size());
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](uint32_t a, uint32_t b) { return before(diagnostics[a], diagnostics[b]); });
  std::vector<Diagnostic> sorted;
  sorted.reserve(diagnostics.size());
  for (uint32_t i : order) sorted.push_back(std::move(diagnostics[i]));
  diagnostics = std::move(sorted);
}

Diagnostic& Analysis::Add(Diagnostic d) {
  diagnostics.push_back(std::move(d));
  return diagnostics.back();
}

std::string Analysis::Describe(Location where) const {
  if (where.file < 0 || where.file >= static_cast<int>(files.size())) return root;
  const SourceFile& src = files[where.file].source;
  return src.path() + ":" + std::to_string(src.LineOf(where.range.begin));
}

}  // namespace pgconflint
