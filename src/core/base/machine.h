// What this machine offers a process: its RAM and CPUs, and the limits of the
// control group it runs in (a container's memory and CPU limits), read from
// Linux's /proc and /sys through a FileSystem, so that tests give it fake
// trees. For `recommend --detect`; nothing else reads the host behind the
// caller's back.
#ifndef PGCONFLINT_CORE_BASE_MACHINE_H_
#define PGCONFLINT_CORE_BASE_MACHINE_H_

#include <optional>
#include <string>
#include <vector>

#include "core/base/file_system.h"

namespace pgconflint {

/// What was found, each fact with the file it came from.
struct DetectedMachine {
  std::optional<double> mem_total;     // bytes: /proc/meminfo MemTotal
  std::optional<double> memory_limit;  // bytes: the cgroup's memory.max / memory.limit_in_bytes, where one is set
  std::optional<int> online_cpus;      // /sys/devices/system/cpu/online, else /proc/cpuinfo
  std::optional<int> cpuset_cpus;      // the cgroup's cpuset (cpuset.cpus.effective / cpuset.cpus)
  std::optional<double> cpu_quota;     // CPUs: the cgroup's cpu.max (v2) or cfs_quota_us / cfs_period_us (v1)
  std::string cgroup;                  // "v2 /PATH", "v1 memory:/PATH" (or "v1"), or "" when none was read

  /// The RAM a server started here may use: the smaller of MemTotal and the
  /// cgroup's limit; nullopt when neither was found.
  std::optional<double> ram() const;
  /// The whole CPUs it may use: the fewest of the online CPUs, the cpuset and
  /// the quota rounded down (at least 1); nullopt when none was found.
  std::optional<int> cpus() const;
  /// One line per fact: what was read, and which limit decided.
  std::vector<std::string> Describe() const;
};

/// Reads /proc/meminfo, /sys/devices/system/cpu/online (or /proc/cpuinfo),
/// /proc/self/cgroup and the cgroup v2 (memory.max, cpu.max,
/// cpuset.cpus.effective under /sys/fs/cgroup, of the process's cgroup and
/// its ancestors: the tightest wins) or v1 hierarchy
/// (memory/memory.limit_in_bytes, cpu/cpu.cfs_quota_us and cpu.cfs_period_us,
/// cpuset/cpuset.cpus). A file that is missing or unreadable leaves its fact
/// unknown; never fails.
DetectedMachine DetectMachine(const FileSystem& fs);

/// The number of CPUs in a Linux CPU list ("0-3,8,10-11" is 7); nullopt when
/// it is not one.
std::optional<int> CountCpuList(const std::string& list);

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_BASE_MACHINE_H_
