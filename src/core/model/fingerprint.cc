// FNV-1a over the identifying fields.
#include "core/model/fingerprint.h"

#include <cstdio>
#include <map>
#include <tuple>

namespace pgconflint {
namespace {

uint64_t Fnv1a(const std::string& s) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  return h;
}

using Seen = std::map<std::tuple<std::string, std::string, std::string>, int>;

std::string PathFor(const Analysis& a, const Diagnostic& d, const std::string& base) {
  if (d.file < 0) return a.root;
  return PathBelow(a.files[d.file].abs_path, base);
}

std::vector<std::string> FingerprintsCounting(const Analysis& a, const std::string& base, Seen* seen_so_far) {
  Seen& seen = *seen_so_far;
  std::vector<std::string> out;
  out.reserve(a.diagnostics.size());
  for (const Diagnostic& d : a.diagnostics) {
    std::string path = PathFor(a, d, base);
    int occurrence = seen[{d.rule->code, d.parameter, path}]++;
    std::string key = std::string(d.rule->code) + '\0' + d.parameter + '\0' + path + '\0' + std::to_string(occurrence);
    char hex[17];
    snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(Fnv1a(key)));
    out.push_back(hex);
  }
  return out;
}

}  // namespace

std::string PathBelow(const std::string& abs, const std::string& base) {
  if (!base.empty() && abs.size() > base.size() && abs.compare(0, base.size(), base) == 0 &&
      (base.back() == '/' || abs[base.size()] == '/'))
    return abs.substr(base.size() + (base.back() == '/' ? 0 : 1));
  return abs;
}

std::vector<std::string> Fingerprints(const Analysis& a, const std::string& base) {
  Seen seen;
  return FingerprintsCounting(a, base, &seen);
}

std::vector<std::vector<std::string>> ReportFingerprints(const std::vector<Analysis>& analyses,
                                                         const std::string& base) {
  Seen seen;
  std::vector<std::vector<std::string>> out;
  out.reserve(analyses.size());
  for (const Analysis& a : analyses) out.push_back(FingerprintsCounting(a, base, &seen));
  return out;
}

}  // namespace pgconflint
