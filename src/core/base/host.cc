// This machine's facts: the only place the analysis looks at the host.
#include "core/base/host.h"

#include <dirent.h>
#include <locale.h>
#include <strings.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include <clocale>

namespace pgconflint {

std::optional<bool> LocalHost::HasLocale(LocaleCategory category, const std::string& name) const {
  int mask = LC_MESSAGES_MASK;
  switch (category) {
    case LocaleCategory::kMessages: mask = LC_MESSAGES_MASK; break;
    case LocaleCategory::kMonetary: mask = LC_MONETARY_MASK; break;
    case LocaleCategory::kNumeric: mask = LC_NUMERIC_MASK; break;
    case LocaleCategory::kTime: mask = LC_TIME_MASK; break;
  }
  locale_t loc = newlocale(mask, name.c_str(), static_cast<locale_t>(0));
  if (!loc) return false;
  freelocale(loc);
  return true;
}

std::optional<bool> LocalHost::HasTimeZone(const std::string& name) const {
  // Each path component matched case-insensitively, as the server's lookup.
  std::string dir = "/usr/share/zoneinfo";
  size_t start = 0;
  while (start <= name.size()) {
    size_t slash = name.find('/', start);
    std::string part = name.substr(start, slash == std::string::npos ? std::string::npos : slash - start);
    if (part.empty() || part == "." || part == "..") return false;
    DIR* d = opendir(dir.c_str());
    if (!d) return dir == "/usr/share/zoneinfo" ? std::nullopt : std::optional<bool>(false);
    std::string found;
    while (dirent* e = readdir(d))
      if (strcasecmp(e->d_name, part.c_str()) == 0) found = e->d_name;
    closedir(d);
    if (found.empty()) return false;
    dir += "/" + found;
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
  struct stat st;
  return stat(dir.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

std::optional<uint64_t> LocalHost::StackLimitBytes() const {
  struct rlimit rl;
  if (getrlimit(RLIMIT_STACK, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY) return std::nullopt;
  return static_cast<uint64_t>(rl.rlim_cur);
}

std::optional<bool> LocalHost::IoUring() const {
  // Whether the kernel allows io_uring is not something a linter should probe
  // by making system calls; the profile states it (--io-uring).
  return std::nullopt;
}

}  // namespace pgconflint
