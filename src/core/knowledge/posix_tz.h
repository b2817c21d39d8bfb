// POSIX TZ strings as the server's time zone code reads them when a
// TimeZone or log_timezone value names no file of the time zone database
// ("EST5EDT", "<+03>-3", "X1Y,M3.2.0,M11.1.0/-3"). The grammar and limits
// are the ones PostgreSQL 18.4 (some of them on 16.14 too) was measured to
// apply with SET TimeZone (tests/unit/posix_tz_test.cc holds each probe);
// 15 of the values are differential cases, asked of 14-18 in every run:
//   std offset [dst [offset] [,rule,rule]]
// where a name is <quoted> or a run of characters other than digits, ',',
// '+', '-'; the standard name may be empty, the daylight one may not; an
// offset is [+-]h[:mm[:ss]] with h <= 167, mm <= 59, ss <= 60; a rule is
// Jn (1..365), n (0..365) or Mm.w.d (1..12, 1..5, 0..6), each with an
// optional /offset. The server then refuses a zone whose offset in effect
// on 2000-01-01 00:00 UTC has seconds ("appears to use leap seconds").
#ifndef PGCONFLINT_CORE_KNOWLEDGE_POSIX_TZ_H_
#define PGCONFLINT_CORE_KNOWLEDGE_POSIX_TZ_H_

#include <string_view>

namespace pgconflint {

enum class PosixTz {
  kInvalid,      // not a POSIX TZ string
  kLeapSeconds,  // one, whose offset on 2000-01-01 has seconds: refused
  kAccepted,
};

/// Reads `spec` (as written; the server reads it in upper case).
PosixTz ReadPosixTz(std::string_view spec);

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_KNOWLEDGE_POSIX_TZ_H_
