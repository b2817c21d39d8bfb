// Lookups over the generated catalogs.
#include "core/knowledge/catalog.h"

#include <algorithm>
#include <array>
#include <map>
#include <vector>

#include "core/base/strings.h"
#include "core/knowledge/catalog_data.h"

namespace pgconflint {
namespace {

char Fold(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

// Compares as guc_name_compare: ASCII case folding only.
int CompareFolded(std::string_view a, std::string_view b) {
  size_t n = std::min(a.size(), b.size());
  for (size_t i = 0; i < n; ++i) {
    unsigned char x = static_cast<unsigned char>(Fold(a[i]));
    unsigned char y = static_cast<unsigned char>(Fold(b[i]));
    if (x != y) return x < y ? -1 : 1;
  }
  return a.size() == b.size() ? 0 : (a.size() < b.size() ? -1 : 1);
}

// Letters counted in 32 bins (folded bytes modulo 32): how far apart two
// bags of letters are is a lower bound of the edit distance (merging letters
// into bins only lowers it), and costs no table.
using LetterBins = std::array<uint8_t, 32>;

LetterBins Bins(std::string_view s) {
  LetterBins b{};
  for (char c : s) {
    uint8_t& n = b[static_cast<unsigned char>(Fold(c)) & 31];
    if (n < 255) ++n;
  }
  return b;
}

size_t BagDistance(const LetterBins& a, const LetterBins& b) {
  size_t more = 0, fewer = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i] > b[i]) more += a[i] - b[i];
    else fewer += b[i] - a[i];
  }
  return std::max(more, fewer);
}

// Levenshtein distance (ASCII case folded), or budget + 1 as soon as every
// cell of a row exceeds the budget. REQUIRES: rows of b.size() + 1 cells.
size_t EditDistanceWithin(std::string_view a, std::string_view b, size_t budget, size_t* prev, size_t* cur) {
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    size_t row_min = cur[0];
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t sub = prev[j - 1] + (Fold(a[i - 1]) == Fold(b[j - 1]) ? 0 : 1);
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, sub});
      row_min = std::min(row_min, cur[j]);
    }
    if (row_min > budget) return budget + 1;
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

// A catalog's parameters that pg_settings lists, with their letter bins,
// computed once per generated catalog (`major`; 0: another catalog, computed
// from `parameters`): Suggest runs for every unknown name of a file.
struct SuggestCandidate {
  std::string_view name;
  LetterBins bins;
};

const std::vector<SuggestCandidate>& SuggestCandidates(std::span<const Parameter> parameters, int major) {
  static const std::map<int, std::vector<SuggestCandidate>> tables = [] {
    std::map<int, std::vector<SuggestCandidate>> t;
    for (int m : Catalog::SupportedMajors())
      for (const Parameter& p : Catalog::ForMajor(m)->parameters())
        if (p.in_pg_settings) t[m].push_back({p.name, Bins(p.name)});
    return t;
  }();
  if (auto it = tables.find(major); major != 0 && it != tables.end()) return it->second;
  // A catalog that is not one of the generated ones (tests): computed each time.
  thread_local std::vector<SuggestCandidate> other;
  other.clear();
  for (const Parameter& p : parameters)
    if (p.in_pg_settings) other.push_back({p.name, Bins(p.name)});
  return other;
}

}  // namespace

std::string AsciiLower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = Fold(c);
  return out;
}

const Catalog* Catalog::ForMajor(int major) {
  for (size_t i = 0; i < generated::kCatalogCount; ++i)
    if (generated::kCatalogs[i].major() == major) return &generated::kCatalogs[i];
  return nullptr;
}

std::span<const int> Catalog::SupportedMajors() {
  return {generated::kSupportedMajors, generated::kCatalogCount};
}

int Catalog::DefaultMajor() { return generated::kDefaultMajor; }

const Parameter* Catalog::Find(std::string_view name) const {
  // The generated table hashes the lower-cased names with FNV-1a.
  uint64_t h = 1469598103934665603ull;
  for (char c : name) h = (h ^ static_cast<unsigned char>(Fold(c))) * 1099511628211ull;
  const size_t mask = hash_.size() - 1;
  for (size_t slot = h & mask;; slot = (slot + 1) & mask) {
    uint16_t i = hash_[slot];
    if (i == 0) return nullptr;
    const Parameter& p = parameters_[i - 1];
    if (CompareFolded(p.name, name) == 0) return &p;
  }
}


const char* Catalog::AliasTarget(std::string_view name) const {
  for (const Alias& a : aliases_)
    if (CompareFolded(a.old_name, name) == 0) return a.new_name;
  return nullptr;
}

const Parameter* Catalog::FindAnyName(std::string_view name) const {
  if (const Parameter* p = Find(name)) return p;
  const char* target = AliasTarget(name);
  return target ? Find(target) : nullptr;
}

std::vector<std::string> Catalog::Suggest(std::string_view name, size_t limit) const {
  // Accept edits up to a third of the name's length (at least 2): close enough
  // to be a typo, far enough to catch transpositions and a missing word part.
  // Every line of a file may hold an unknown name: candidates are ruled out
  // by length and by their letters before any distance is computed, and the
  // distance stops once it exceeds the budget.
  size_t budget = std::max<size_t>(2, name.size() / 3);
  const LetterBins bins = Bins(name);
  std::vector<size_t> rows;  // two rows of the distance table, allocated once
  std::vector<std::pair<size_t, std::string>> scored;
  const bool generated = ForMajor(major_) == this;
  for (const SuggestCandidate& c : SuggestCandidates(parameters_, generated ? major_ : 0)) {
    std::string_view n = c.name;
    if (n.size() > name.size() + budget || name.size() > n.size() + budget) continue;
    if (BagDistance(bins, c.bins) > budget) continue;
    if (rows.empty()) rows.resize(2 * (name.size() + 1));
    size_t d = EditDistanceWithin(n, name, budget, rows.data(), rows.data() + name.size() + 1);
    if (d <= budget) scored.emplace_back(d, std::string(n));
  }
  std::stable_sort(scored.begin(), scored.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::string> out;
  for (size_t i = 0; i < scored.size() && i < limit; ++i) out.push_back(scored[i].second);
  return out;
}

namespace {
bool SaysCannotBeChanged(const char* message) {
  return std::string_view(message).find("cannot be changed") != std::string_view::npos;
}
}  // namespace

bool SettableInFile(const Parameter& p) { return p.file_accepted || !SaysCannotBeChanged(p.file_message); }

bool SettableByAlterSystem(const Parameter& p) {
  return p.alter_system_accepted || !SaysCannotBeChanged(p.alter_system_message);
}

const char* RefusedValueMessage(const Parameter& p, std::string_view value) {
  for (const HiddenEnumValue& r : p.refused_values)
    if (value == r.spelling) return r.canonical;
  return nullptr;
}

std::vector<int> MajorsOf(const Parameter& p) {
  std::vector<int> out;
  std::span<const int> majors = Catalog::SupportedMajors();
  for (size_t i = 0; i < majors.size(); ++i)
    if (p.majors & (1u << i)) out.push_back(majors[i]);
  return out;
}

std::string SupportedMajorsText(std::string_view range) {
  std::span<const int> majors = Catalog::SupportedMajors();
  if (majors.empty()) return "";
  if (majors.size() > 1 && majors.back() - majors.front() == static_cast<int>(majors.size()) - 1)
    return std::to_string(majors.front()) + std::string(range) + std::to_string(majors.back());
  return CommaList(majors);
}

std::vector<int> MajorsWithParameter(std::string_view name) {
  std::vector<int> out;
  for (int m : Catalog::SupportedMajors())
    if (Catalog::ForMajor(m)->Find(name)) out.push_back(m);
  return out;
}

std::string_view VarTypeName(VarType type) {
  switch (type) {
    case VarType::kBool: return "bool";
    case VarType::kInteger: return "integer";
    case VarType::kReal: return "real";
    case VarType::kString: return "string";
    case VarType::kEnum: return "enum";
  }
  return "string";
}

std::string_view ContextName(Context context) {
  switch (context) {
    case Context::kInternal: return "internal";
    case Context::kPostmaster: return "postmaster";
    case Context::kSighup: return "sighup";
    case Context::kSuperuserBackend: return "superuser-backend";
    case Context::kBackend: return "backend";
    case Context::kSuperuser: return "superuser";
    case Context::kUser: return "user";
  }
  return "user";
}

}  // namespace pgconflint
