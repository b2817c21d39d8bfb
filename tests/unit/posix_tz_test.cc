// POSIX TZ strings: every expectation is what `SET TimeZone = '...'` answered
// on PostgreSQL 18.4, some also on 16.14 (accepted and shown, "invalid
// value", or "appears to use leap seconds"), except the names of files of
// the time zone database (EST5EDT, UTC) read as POSIX strings.
#include "core/knowledge/posix_tz.h"

#include <gtest/gtest.h>

namespace pgconflint {
namespace {

TEST(PosixTzTest, AcceptedAsTheServerAcceptsThem) {
  for (const char* spec : {"EST5EDT", "<+03>-3", "<>1", "1\xc3\xa9", "\xc3\xa9" "1", "1x", "1 ", "A 1", "A-1B",
                           "A+1", "X167", "X1:00:60", "x1y,m3.2.0,m11.1.0/-3", "A1B,J1,J365", "A1B,0,365",
                           "A1B,M3.2.0/-167,M11.1.0", "A1B,M3.2.0/+1:30:59,M11.1.0", "A1<B>", "A1<B>2",
                           // The daylight offset has seconds, but January keeps standard time.
                           "A1B0:00:30", "A1B0:00:30,M1.1.0,M12.5.6"})
    EXPECT_EQ(ReadPosixTz(spec), PosixTz::kAccepted) << spec;
}

TEST(PosixTzTest, RefusedAsTheServerRefusesThem) {
  for (const char* spec : {"", "\xc3\xa9", "UTC", "X168", "X1:60", "x1y,m3.2.0", "<>1<>", "A1B;J1,J365",
                           "A1B;M3.2.0,M11.1.0", "A1B,M3.2.0;M11.1.0", "A1B,J0,J365", "A1B,0,366",
                           "A1B,M3.2.0/168,M11.1.0", "a1b,m3.2.0,m11.1.0 ", "A1<B", "A1B2,"})
    EXPECT_EQ(ReadPosixTz(spec), PosixTz::kInvalid) << spec;
}

TEST(PosixTzTest, SecondsInTheOffsetOfJanuary2000AreLeapSeconds) {
  for (const char* spec : {"X0:00:30", "A1:00:30B", "A1:00:30B,M1.1.0,M12.5.6", "A0:00:30B1:00:30,M3.2.0,M11.1.0",
                           "A0:00:30B1:00:30,M1.1.0/0,M12.5.6", "A0:00:30B0:00:30,J1/0,J365/24",
                           // Daylight time from January 1st 00:00, with seconds.
                           "A0B0:00:30,J1/0,J365/24", "A0B0:00:30,J1/0,J365/25"})
    EXPECT_EQ(ReadPosixTz(spec), PosixTz::kLeapSeconds) << spec;
}

}  // namespace
}  // namespace pgconflint
