// The host seam: LocalHost answers from this machine (locales, the time zone
// database, the stack limit), UnknownHost knows nothing. Which names a hook
// refuses whatever the host says ("posixrules", "localtime") is hooks_test's.
#include "core/base/host.h"

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>

namespace pgconflint {
namespace {

constexpr LocaleCategory kCategories[] = {LocaleCategory::kMessages, LocaleCategory::kMonetary,
                                          LocaleCategory::kNumeric, LocaleCategory::kTime};

bool HasZoneInfo() {
  struct stat st;
  return stat("/usr/share/zoneinfo", &st) == 0 && S_ISDIR(st.st_mode);
}

TEST(HostTest, LocalHostHasTheLocalesEverySystemHas) {
  const LocalHost host(true);
  for (LocaleCategory c : kCategories) {
    EXPECT_EQ(host.HasLocale(c, "C"), std::optional<bool>(true));
    EXPECT_EQ(host.HasLocale(c, "POSIX"), std::optional<bool>(true));
  }
}

TEST(HostTest, LocalHostLacksANonsenseLocale) {
  const LocalHost host(true);
  for (LocaleCategory c : kCategories) {
    EXPECT_EQ(host.HasLocale(c, "xx_NOWHERE.UTF-8"), std::optional<bool>(false));
    EXPECT_EQ(host.HasLocale(c, "C/../../etc"), std::optional<bool>(false));
  }
}

TEST(HostTest, LocalHostAnswersTheSameWhetherOrNotItIsTheServer) {
  // is_server_host changes how a refusal is reported, not what the host has.
  const LocalHost server(true), elsewhere(false);
  EXPECT_TRUE(server.is_server_host());
  EXPECT_FALSE(elsewhere.is_server_host());
  EXPECT_EQ(server.HasLocale(LocaleCategory::kTime, "xx_NOWHERE"),
            elsewhere.HasLocale(LocaleCategory::kTime, "xx_NOWHERE"));
  EXPECT_EQ(server.HasTimeZone("UTC"), elsewhere.HasTimeZone("UTC"));
  EXPECT_EQ(server.StackLimitBytes(), elsewhere.StackLimitBytes());
}

TEST(HostTest, LocalHostTimeZonesMatchCaseInsensitively) {
  if (!HasZoneInfo()) GTEST_SKIP() << "no time zone database on this machine";
  const LocalHost host(true);
  for (const char* zone : {"UTC", "utc", "Utc", "Etc/UTC", "etc/utc", "ETC/Utc"})
    EXPECT_EQ(host.HasTimeZone(zone), std::optional<bool>(true)) << zone;
}

TEST(HostTest, LocalHostRefusesWhatIsNoZoneFile) {
  if (!HasZoneInfo()) GTEST_SKIP() << "no time zone database on this machine";
  const LocalHost host(true);
  EXPECT_EQ(host.HasTimeZone("No/Such_Zone"), std::optional<bool>(false));
  EXPECT_EQ(host.HasTimeZone("Etc"), std::optional<bool>(false)) << "a directory is no zone";
  EXPECT_EQ(host.HasTimeZone("Etc/"), std::optional<bool>(false));
  EXPECT_EQ(host.HasTimeZone("/UTC"), std::optional<bool>(false));
  EXPECT_EQ(host.HasTimeZone("../zoneinfo/UTC"), std::optional<bool>(false)) << "no escape from the database";
  EXPECT_EQ(host.HasTimeZone("Etc/./UTC"), std::optional<bool>(false));
  EXPECT_EQ(host.HasTimeZone(""), std::optional<bool>(false));
}

TEST(HostTest, LocalHostStackLimitIsTheRlimit) {
  const LocalHost host(true);
  struct rlimit rl;
  ASSERT_EQ(getrlimit(RLIMIT_STACK, &rl), 0);
  if (rl.rlim_cur == RLIM_INFINITY)
    EXPECT_EQ(host.StackLimitBytes(), std::nullopt) << "unlimited is no limit to check against";
  else
    EXPECT_EQ(host.StackLimitBytes(), std::optional<uint64_t>(rl.rlim_cur));
}

TEST(HostTest, LocalHostDoesNotProbeIoUring) {
  EXPECT_EQ(LocalHost(true).IoUring(), std::nullopt);
}

TEST(HostTest, UnknownHostAnswersNothing) {
  const UnknownHost host;
  EXPECT_FALSE(host.is_server_host());
  for (LocaleCategory c : kCategories) {
    EXPECT_EQ(host.HasLocale(c, "C"), std::nullopt);
    EXPECT_EQ(host.HasLocale(c, "xx_NOWHERE.UTF-8"), std::nullopt);
  }
  EXPECT_EQ(host.HasTimeZone("UTC"), std::nullopt);
  EXPECT_EQ(host.HasTimeZone("No/Such_Zone"), std::nullopt);
  EXPECT_EQ(host.StackLimitBytes(), std::nullopt);
  EXPECT_EQ(host.IoUring(), std::nullopt);
}

}  // namespace
}  // namespace pgconflint
