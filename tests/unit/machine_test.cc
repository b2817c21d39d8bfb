// recommend --detect's reading of the machine, on fake /proc and /sys trees:
// cgroup v2 (memory.max, cpu.max, cpuset.cpus.effective, the tightest of the
// cgroup and its ancestors), v1 (memory.limit_in_bytes, cfs quota and period,
// cpuset.cpus; its "no limit" of about 2^63), and no cgroup at all.
#include "core/base/machine.h"

#include <gtest/gtest.h>

#include <string>

#include "fake_disk.h"

namespace pgconflint {
namespace {

constexpr double kGiB = 1024.0 * 1024 * 1024;

// A host with 16GB (MemTotal in kB) and 8 online CPUs.
FakeDisk Host() {
  FakeDisk d("/");
  d.Write("/proc/meminfo", "MemTotal:       16777216 kB\nMemFree:         1234 kB\n");
  d.Write("/sys/devices/system/cpu/online", "0-7\n");
  return d;
}

TEST(MachineTest, CountsCpuLists) {
  EXPECT_EQ(CountCpuList("0-3,8,10-11"), 7);
  EXPECT_EQ(CountCpuList("0\n"), 1);
  EXPECT_EQ(CountCpuList("0-1"), 2);
  for (const char* bad : {"", "x", "3-1", "1-", "-1", "0-3,,", "0-3x"}) EXPECT_EQ(CountCpuList(bad), std::nullopt) << bad;
}

TEST(MachineTest, NoCgroupIsTheHostsMemoryAndCpus) {
  FakeDisk d = Host();
  DetectedMachine m = DetectMachine(d.fs());
  EXPECT_EQ(m.ram(), 16 * kGiB);
  EXPECT_EQ(m.cpus(), 8);
  EXPECT_EQ(m.cgroup, "");
  EXPECT_NE(m.Describe()[0].find("MemTotal 16GB"), std::string::npos) << m.Describe()[0];
}

TEST(MachineTest, CpuinfoWhenTheOnlineListIsMissing) {
  FakeDisk d("/");
  d.Write("/proc/meminfo", "MemTotal: 1048576 kB\n");
  d.Write("/proc/cpuinfo", "processor\t: 0\nmodel name\t: x\n\nprocessor\t: 1\nmodel name\t: x\n");
  DetectedMachine m = DetectMachine(d.fs());
  EXPECT_EQ(m.cpus(), 2);
  EXPECT_EQ(m.ram(), 1 * kGiB);
}

TEST(MachineTest, CgroupV2ContainerLimitsWin) {
  FakeDisk d = Host();
  d.Write("/proc/self/cgroup", "0::/\n");
  d.Write("/sys/fs/cgroup/cgroup.controllers", "cpuset cpu io memory pids\n");
  d.Write("/sys/fs/cgroup/memory.max", "536870912\n");  // 512MB
  d.Write("/sys/fs/cgroup/cpu.max", "450000 100000\n");  // 4.5 CPUs
  d.Write("/sys/fs/cgroup/cpuset.cpus.effective", "0-7\n");
  DetectedMachine m = DetectMachine(d.fs());
  EXPECT_EQ(m.ram(), 512 * 1024.0 * 1024);
  EXPECT_EQ(m.cpu_quota, 4.5);
  EXPECT_EQ(m.cpus(), 4);  // whole CPUs, rounded down
  EXPECT_EQ(m.cgroup, "v2 /");
  const std::vector<std::string> lines = m.Describe();
  EXPECT_NE(lines[0].find("memory limit 512MB, which decides"), std::string::npos) << lines[0];
  EXPECT_NE(lines[1].find("CPU quota of 4.5 CPUs, planned as 4 whole CPUs"), std::string::npos) << lines[1];
}

TEST(MachineTest, CgroupV2UnlimitedAndNestedTightestAncestorWins) {
  FakeDisk d = Host();
  d.Write("/proc/self/cgroup", "0::/system.slice/postgresql.service\n");
  d.Write("/sys/fs/cgroup/cgroup.controllers", "cpu memory\n");
  d.Write("/sys/fs/cgroup/system.slice/postgresql.service/memory.max", "max\n");
  d.Write("/sys/fs/cgroup/system.slice/postgresql.service/cpu.max", "max 100000\n");
  d.Write("/sys/fs/cgroup/system.slice/memory.max", "8589934592\n");  // 8GB on the slice
  d.Write("/sys/fs/cgroup/system.slice/cpuset.cpus.effective", "0-1\n");
  DetectedMachine m = DetectMachine(d.fs());
  EXPECT_EQ(m.ram(), 8 * kGiB);
  EXPECT_EQ(m.cpu_quota, std::nullopt);
  EXPECT_EQ(m.cpus(), 2);
  EXPECT_EQ(m.cgroup, "v2 /system.slice/postgresql.service");
}

TEST(MachineTest, CgroupV1LimitsAndItsNoLimitValue) {
  FakeDisk d = Host();
  d.Write("/proc/self/cgroup",
          "4:memory:/docker/abc\n3:cpuset:/docker/abc\n2:cpu,cpuacct:/docker/abc\n0::/\n");
  d.Write("/sys/fs/cgroup/memory/docker/abc/memory.limit_in_bytes", "2147483648\n");
  d.Write("/sys/fs/cgroup/memory/memory.limit_in_bytes", "9223372036854771712\n");
  d.Write("/sys/fs/cgroup/cpu,cpuacct/docker/abc/cpu.cfs_quota_us", "200000\n");
  d.Write("/sys/fs/cgroup/cpu,cpuacct/docker/abc/cpu.cfs_period_us", "100000\n");
  d.Write("/sys/fs/cgroup/cpuset/docker/abc/cpuset.cpus", "0-5\n");
  DetectedMachine m = DetectMachine(d.fs());
  EXPECT_EQ(m.ram(), 2 * kGiB);
  EXPECT_EQ(m.cpu_quota, 2);
  EXPECT_EQ(m.cpuset_cpus, 6);
  EXPECT_EQ(m.cpus(), 2);
  EXPECT_EQ(m.cgroup, "v1 memory:/docker/abc");
  EXPECT_NE(m.Describe()[1].find("CPU quota of 2 CPUs"), std::string::npos) << m.Describe()[1];

  FakeDisk unlimited = Host();
  unlimited.Write("/proc/self/cgroup", "4:memory:/\n1:cpu:/\n");
  unlimited.Write("/sys/fs/cgroup/memory/memory.limit_in_bytes", "9223372036854771712\n");
  unlimited.Write("/sys/fs/cgroup/cpu/cpu.cfs_quota_us", "-1\n");
  unlimited.Write("/sys/fs/cgroup/cpu/cpu.cfs_period_us", "100000\n");
  m = DetectMachine(unlimited.fs());
  EXPECT_EQ(m.memory_limit, std::nullopt);
  EXPECT_EQ(m.ram(), 16 * kGiB);
  EXPECT_EQ(m.cpus(), 8);
  EXPECT_NE(m.Describe()[0].find("cgroup v1 memory:/: no memory limit"), std::string::npos) << m.Describe()[0];
  EXPECT_NE(m.Describe()[1].find("cgroup v1: no CPU quota"), std::string::npos) << m.Describe()[1];
}

TEST(MachineTest, GarbageAndNothingNeverCrash) {
  FakeDisk empty("/");
  DetectedMachine m = DetectMachine(empty.fs());
  EXPECT_EQ(m.ram(), std::nullopt);
  EXPECT_EQ(m.cpus(), std::nullopt);
  EXPECT_NE(m.Describe()[0].find("not found"), std::string::npos);
  FakeDisk junk("/");
  junk.Write("/proc/meminfo", "MemTotal: lots\n");
  junk.Write("/sys/devices/system/cpu/online", "zero\n");
  junk.Write("/proc/self/cgroup", "garbage\n0::/../../etc\n");
  junk.Write("/sys/fs/cgroup/cgroup.controllers", "");
  junk.Write("/sys/fs/cgroup/memory.max", "-5\n");
  junk.Write("/sys/fs/cgroup/cpu.max", "0 0\n");
  m = DetectMachine(junk.fs());
  EXPECT_EQ(m.ram(), std::nullopt);
  EXPECT_EQ(m.cpus(), std::nullopt);
}

}  // namespace
}  // namespace pgconflint
