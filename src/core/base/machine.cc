// Reading the machine's RAM, CPUs and cgroup limits. File formats are
// Linux's: proc(5) for /proc/meminfo and /proc/self/cgroup, the kernel's
// cgroup v2 documentation for memory.max ("max" or bytes), cpu.max ("$MAX
// $PERIOD", "max" for none) and cpuset.cpus.effective (a CPU list), and the
// v1 documentation for memory.limit_in_bytes, cpu.cfs_quota_us (-1 for none)
// and cpu.cfs_period_us.
#include "core/base/machine.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "core/base/quantity.h"
#include "core/base/strings.h"

namespace pgconflint {
namespace {

constexpr const char* kCgroupRoot = "/sys/fs/cgroup";
// A v1 memory limit this large means none (the kernel's PAGE_COUNTER_MAX
// in bytes is about 2^63; anything above an exabyte is no real limit).
constexpr double kNoLimit = 0x1p60;

// The text without leading and trailing blanks and line ends.
std::string Trim(std::string_view s) {
  while (!s.empty() && (IsBlank(s.front()) || s.front() == '\n')) s.remove_prefix(1);
  while (!s.empty() && (IsBlank(s.back()) || s.back() == '\n')) s.remove_suffix(1);
  return std::string(s);
}

std::optional<std::string> ReadFile(const FileSystem& fs, const std::string& path) {
  std::string text, error;
  if (fs.Read(path, &text, &error) != ReadStatus::kOk) return std::nullopt;
  return Trim(text);
}

// A whole number that fills the text ("123"); nullopt otherwise.
std::optional<double> Number(const std::string& text) {
  if (text.empty()) return std::nullopt;
  char* end = nullptr;
  double v = strtod(text.c_str(), &end);
  if (*end || !std::isfinite(v)) return std::nullopt;
  return v;
}

// MemTotal of /proc/meminfo ("MemTotal:       16316412 kB"), in bytes.
std::optional<double> MemTotal(const FileSystem& fs) {
  std::optional<std::string> text = ReadFile(fs, "/proc/meminfo");
  if (!text) return std::nullopt;
  std::istringstream lines(*text);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("MemTotal:", 0) != 0) continue;
    std::istringstream words(line.substr(9));
    double kb;
    std::string unit;
    if (words >> kb >> unit && unit == "kB" && kb > 0) return kb * 1024;
  }
  return std::nullopt;
}

std::optional<int> OnlineCpus(const FileSystem& fs) {
  if (std::optional<std::string> list = ReadFile(fs, "/sys/devices/system/cpu/online"))
    if (std::optional<int> n = CountCpuList(*list)) return n;
  std::optional<std::string> info = ReadFile(fs, "/proc/cpuinfo");
  if (!info) return std::nullopt;
  int n = 0;
  std::istringstream lines(*info);
  for (std::string line; std::getline(lines, line);)
    if (line.rfind("processor", 0) == 0 && line.find(':') != std::string::npos) ++n;
  return n > 0 ? std::optional<int>(n) : std::nullopt;
}

// The lines of /proc/self/cgroup: "0::/PATH" (v2), "N:ctrl,ctrl:/PATH" (v1).
struct CgroupPaths {
  std::optional<std::string> unified;                  // v2
  std::vector<std::pair<std::string, std::string>> v1;  // controllers, path
};

CgroupPaths ReadCgroupPaths(const FileSystem& fs) {
  CgroupPaths out;
  std::optional<std::string> text = ReadFile(fs, "/proc/self/cgroup");
  if (!text) return out;
  std::istringstream lines(*text);
  for (std::string line; std::getline(lines, line);) {
    size_t a = line.find(':'), b = a == std::string::npos ? a : line.find(':', a + 1);
    if (b == std::string::npos) continue;
    std::string controllers = line.substr(a + 1, b - a - 1), path = line.substr(b + 1);
    if (line.substr(0, a) == "0" && controllers.empty()) out.unified = path;
    else out.v1.emplace_back(controllers, path);
  }
  return out;
}

// "/a/b" -> {"/sys/fs/cgroup/a/b", "/sys/fs/cgroup/a", "/sys/fs/cgroup"}: the
// cgroup and its ancestors, as mounted at `root` (inside a container's cgroup
// namespace the path is "/" and the root is the container's own cgroup).
std::vector<std::string> Ancestors(const std::string& root, std::string path) {
  std::vector<std::string> out;
  while (!path.empty() && path != "/") {
    if (path.find("..") != std::string::npos) return {root};
    out.push_back(root + path);
    path = path.substr(0, path.rfind('/'));
  }
  out.push_back(root);
  return out;
}

void ReadV2(const FileSystem& fs, const std::string& path, DetectedMachine* m) {
  m->cgroup = "v2 " + path;
  for (const std::string& dir : Ancestors(kCgroupRoot, path)) {
    if (std::optional<std::string> max = ReadFile(fs, dir + "/memory.max"))
      if (std::optional<double> b = Number(*max); b && *b > 0 && *b < kNoLimit)
        m->memory_limit = std::min(m->memory_limit.value_or(*b), *b);
    if (std::optional<std::string> cpu = ReadFile(fs, dir + "/cpu.max")) {
      std::istringstream words(*cpu);
      std::string quota, period;
      words >> quota >> period;
      std::optional<double> q = Number(quota), p = Number(period);
      if (q && p && *q > 0 && *p > 0) m->cpu_quota = std::min(m->cpu_quota.value_or(*q / *p), *q / *p);
    }
    if (!m->cpuset_cpus)
      if (std::optional<std::string> set = ReadFile(fs, dir + "/cpuset.cpus.effective")) m->cpuset_cpus = CountCpuList(*set);
  }
}

// The v1 hierarchy of controller `name`: its mount (a directory named after
// the controller, or after the group of controllers mounted together) and
// the process's path in it.
std::vector<std::string> V1Dirs(const FileSystem& fs, const CgroupPaths& paths, const std::string& name) {
  for (const auto& [controllers, path] : paths.v1) {
    std::vector<std::string> names;
    std::istringstream list(controllers);
    for (std::string c; std::getline(list, c, ',');) names.push_back(c);
    if (std::find(names.begin(), names.end(), name) == names.end()) continue;
    for (const std::string& mount : {std::string(kCgroupRoot) + "/" + name, std::string(kCgroupRoot) + "/" + controllers})
      if (fs.Stat(mount).type == FileInfo::Type::kDirectory) return Ancestors(mount, path);
  }
  return {};
}

void ReadV1(const FileSystem& fs, const CgroupPaths& paths, DetectedMachine* m) {
  m->cgroup = "v1";
  for (const auto& [controllers, path] : paths.v1)
    if (controllers == "memory") m->cgroup = "v1 memory:" + path;
  for (const std::string& dir : V1Dirs(fs, paths, "memory")) {
    if (std::optional<std::string> v = ReadFile(fs, dir + "/memory.limit_in_bytes"))
      if (std::optional<double> b = Number(*v); b && *b > 0 && *b < kNoLimit)
        m->memory_limit = std::min(m->memory_limit.value_or(*b), *b);
  }
  for (const std::string& dir : V1Dirs(fs, paths, "cpu")) {
    std::optional<std::string> q = ReadFile(fs, dir + "/cpu.cfs_quota_us"), p = ReadFile(fs, dir + "/cpu.cfs_period_us");
    std::optional<double> quota = q ? Number(*q) : std::nullopt, period = p ? Number(*p) : std::nullopt;
    if (quota && period && *quota > 0 && *period > 0)
      m->cpu_quota = std::min(m->cpu_quota.value_or(*quota / *period), *quota / *period);
  }
  for (const std::string& dir : V1Dirs(fs, paths, "cpuset"))
    if (!m->cpuset_cpus)
      if (std::optional<std::string> set = ReadFile(fs, dir + "/cpuset.cpus")) m->cpuset_cpus = CountCpuList(*set);
}

std::string Bytes(double b) { return FormatHuman(b, Dim::kBytes); }

}  // namespace

std::optional<int> CountCpuList(const std::string& list) {
  int n = 0;
  std::istringstream parts{Trim(list)};
  for (std::string part; std::getline(parts, part, ',');) {
    size_t dash = part.find('-');
    char* end = nullptr;
    long lo = strtol(part.c_str(), &end, 10);
    if (end == part.c_str() || lo < 0) return std::nullopt;
    long hi = lo;
    if (dash != std::string::npos) {
      const char* from = part.c_str() + dash + 1;
      hi = strtol(from, &end, 10);
      if (end == from) return std::nullopt;
    }
    if (*end || hi < lo || hi - lo > 1 << 20) return std::nullopt;
    n += static_cast<int>(hi - lo + 1);
  }
  return n > 0 ? std::optional<int>(n) : std::nullopt;
}

std::optional<double> DetectedMachine::ram() const {
  if (mem_total && memory_limit) return std::min(*mem_total, *memory_limit);
  return mem_total ? mem_total : memory_limit;
}

std::optional<int> DetectedMachine::cpus() const {
  std::optional<int> n = online_cpus;
  auto lower = [&](int v) { n = n ? std::min(*n, v) : v; };
  if (cpuset_cpus) lower(*cpuset_cpus);
  if (cpu_quota) lower(std::max(1, static_cast<int>(std::floor(*cpu_quota + 1e-9))));
  return n;
}

std::vector<std::string> DetectedMachine::Describe() const {
  std::vector<std::string> out;
  std::string ram_line = "RAM: ";
  if (!ram()) {
    ram_line += "not found (no /proc/meminfo, no cgroup memory limit)";
  } else {
    ram_line += Bytes(*ram()) + " (";
    if (mem_total) ram_line += "MemTotal " + Bytes(*mem_total) + " in /proc/meminfo";
    if (memory_limit)
      ram_line += std::string(mem_total ? "; " : "") + "cgroup " + cgroup + " memory limit " + Bytes(*memory_limit) +
                  (!mem_total || *memory_limit < *mem_total ? ", which decides" : ", above MemTotal");
    else
      ram_line += cgroup.empty() ? "; no cgroup read" : "; cgroup " + cgroup + ": no memory limit";
    ram_line += ")";
  }
  out.push_back(ram_line);
  std::string cpu_line = "CPUs: ";
  if (!cpus()) {
    cpu_line += "not found (no /sys/devices/system/cpu/online, /proc/cpuinfo or cgroup CPU limit)";
  } else {
    cpu_line += std::to_string(*cpus()) + " (";
    std::vector<std::string> parts;
    if (online_cpus) parts.push_back(std::to_string(*online_cpus) + " online");
    if (cpuset_cpus) parts.push_back("cpuset of " + std::to_string(*cpuset_cpus));
    if (cpu_quota) {
      const int whole = std::max(1, static_cast<int>(std::floor(*cpu_quota)));
      parts.push_back("CPU quota of " + FormatNumber(std::round(*cpu_quota * 100) / 100) + " CPUs" +
                      (*cpu_quota != whole ? ", planned as " + std::to_string(whole) + " whole CPUs" : ""));
    }
    if (!cpu_quota && !cgroup.empty()) parts.push_back("cgroup " + cgroup.substr(0, 2) + ": no CPU quota");
    for (size_t i = 0; i < parts.size(); ++i) cpu_line += (i ? "; " : "") + parts[i];
    cpu_line += ")";
  }
  out.push_back(cpu_line);
  return out;
}

DetectedMachine DetectMachine(const FileSystem& fs) {
  DetectedMachine m;
  m.mem_total = MemTotal(fs);
  m.online_cpus = OnlineCpus(fs);
  CgroupPaths paths = ReadCgroupPaths(fs);
  if (paths.unified && fs.Stat(std::string(kCgroupRoot) + "/cgroup.controllers").type == FileInfo::Type::kRegular)
    ReadV2(fs, *paths.unified, &m);
  else if (!paths.v1.empty())
    ReadV1(fs, paths, &m);
  return m;
}

}  // namespace pgconflint
