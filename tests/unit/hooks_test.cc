// The check hooks: what a server refuses or adjusts after the generic type and
// range checks, and how the host seam decides the host-dependent ones
// (locales, time zones, the stack limit). Expected values and messages were
// read from real servers (`postgres -C`); the differential suite keeps
// holding the hooks to them.
#include "core/knowledge/hooks.h"

#include <gtest/gtest.h>

#include "core/knowledge/catalog.h"
#include "core/base/host.h"
#include "test_support.h"

namespace pgconflint {
namespace {

using namespace test;

ParsedValue CheckHook(const HostFacts& host, std::string_view name, std::string_view value, int major = 18) {
  const Catalog& c = *Catalog::ForMajor(major);
  const Parameter* p = c.Find(name);
  EXPECT_NE(p, nullptr) << name;
  return CheckValue(c, host, *p, value);
}

ParsedValue CheckHook(std::string_view name, std::string_view value) {
  static const LocalHost host(true);
  return CheckHook(host, name, value);
}

struct HookCase {
  const char* name;
  const char* value;
  const char* expect;  // what `postgres -C` prints, or nullptr when refused
};

// Readable test names in CTest: "work_mem = '0x100'".
void PrintTo(const HookCase& c, std::ostream* os) { *os << c.name << " = '" << c.value << "'"; }

class ValueCases : public ::testing::TestWithParam<HookCase> {};

TEST_P(ValueCases, MatchesServer) {
  const HookCase& c = GetParam();
  ParsedValue v = CheckHook(c.name, c.value);
  if (c.expect) {
    EXPECT_TRUE(v.ok()) << c.name << " = '" << c.value << "': " << v.message << " " << v.hint;
    EXPECT_EQ(v.normalized, c.expect) << c.name << " = '" << c.value << "'";
  } else {
    EXPECT_FALSE(v.ok()) << c.name << " = '" << c.value << "' gave " << v.normalized;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Hooks, ValueCases,
    ::testing::Values(HookCase{"io_max_concurrency", "0", nullptr}, HookCase{"io_max_concurrency", "-1", "-1"},
                      HookCase{"vacuum_buffer_usage_limit", "64kB", nullptr},
                      HookCase{"vacuum_buffer_usage_limit", "0", "0"},
                      HookCase{"vacuum_buffer_usage_limit", "256kB", "256"},
                      HookCase{"wal_buffers", "2", "4"}, HookCase{"autovacuum_work_mem", "10", "64"},
                      HookCase{"log_connections", "t", nullptr}, HookCase{"log_connections", "on", "on"},
                      HookCase{"log_connections", "receipt,authentication", "receipt,authentication"},
                      HookCase{"log_connections", "on,receipt", nullptr},
                      HookCase{"notify_buffers", "17", nullptr}, HookCase{"notify_buffers", "32", "32"}));

// syncrep_gram.y: [FIRST|ANY] N (name, ...) or a plain list of names.
constexpr HookCase Ssn(const char* value, const char* expect) { return {"synchronous_standby_names", value, expect}; }

INSTANTIATE_TEST_SUITE_P(
    SynchronousStandbyNames, ValueCases,
    ::testing::Values(
        // Accepted; `postgres -C` prints them as written.
        Ssn("", ""), Ssn("s1", "s1"),
        Ssn("FIRST 2 (s1, s2)", "FIRST 2 (s1, s2)"),
        Ssn("ANY 1 (s1,s2)", "ANY 1 (s1,s2)"),
        Ssn("2 (s1, s2)", "2 (s1, s2)"),
        Ssn("\"s 1\"", "\"s 1\""),
        Ssn("2", "2"), Ssn("1, s2", "1, s2"),
        Ssn("*", "*"),
        Ssn("any 1 (\"a\"\"b\", *, 3)", "any 1 (\"a\"\"b\", *, 3)"),
        Ssn("s$1, _x", "s$1, _x"),
        Ssn("\"\" , s", "\"\" , s"),
        Ssn("\xc3\xbfx", "\xc3\xbfx"),
        Ssn("4294967297 (s1)", "4294967297 (s1)"),
        // Refused: syntax errors and a count below 1.
        Ssn("first (s1)", nullptr),
        Ssn("bogus(", nullptr),
        Ssn("ANY 0 (s1)", nullptr),
        Ssn("0 (s1)", nullptr), Ssn("s1,", nullptr),
        Ssn("ANY 1 s1", nullptr),
        Ssn("FIRST 1 (s1", nullptr),
        Ssn("s1 s2", nullptr), Ssn("ANY", nullptr),
        Ssn("any, first", nullptr),
        Ssn("\"unterminated", nullptr),
        Ssn("s1)", nullptr),
        Ssn("ANY 2 (s1) extra", nullptr),
        Ssn("s1;", nullptr), Ssn("2 s1", nullptr),
        Ssn("ANY 1 ()", nullptr),
        Ssn("ANY x (s1)", nullptr),
        Ssn("3 (a", nullptr),
        Ssn("ANY 1 (s1,,s2)", nullptr),
        Ssn("s1 (s2)", nullptr),
        // ANY and FIRST are key words, never names.
        Ssn("FIRST 1 (any, first)", nullptr),
        // Blanks are \f and \v too; blanks alone are no empty value.
        Ssn("\f2", "\f2"), Ssn("\v*", "\v*"),
        Ssn(" ", nullptr), Ssn("\t\f", nullptr),
        // The count is read with atoi: beyond the int range it wraps.
        Ssn("2147483648 (s1)", nullptr),
        Ssn("ANY 4294967296 (s1)", nullptr),
        Ssn("99999999999999999999 (s1)", nullptr)));

// The server's DETAIL for a syntax error names the token it stopped at.
TEST(HooksTest, SynchronousStandbyNamesSyntaxDetail) {
  const std::pair<const char*, const char*> cases[] = {
      {"s1,", "syntax error at end of input"},
      {"ANY 1 s1", "syntax error at or near \"s1\""},
      {"FIRST 1 (s1", "syntax error at end of input"},
      {"s1 s2", "syntax error at or near \"s2\""},
      {"ANY", "syntax error at end of input"},
      {"ANY 2 (s1) extra", "syntax error at or near \"extra\""},
      {"s1;", "syntax error at or near \";\""},
      {"2 s1", "syntax error at or near \"s1\""},
      {"ANY x (s1)", "syntax error at or near \"x\""},
      {"3 (a", "syntax error at end of input"},
      {" ", "syntax error at end of input"},
      {"first (s1)", "syntax error at or near \"(\""},
      {"bogus(", "syntax error at or near \"(\""},
      {"s1 (s2)", "syntax error at or near \"(\""},
      {"s1)", "syntax error at or near \")\""},
      {"ANY 1 ()", "syntax error at or near \")\""},
      {"any, first", "syntax error at or near \",\""},
      {"ANY 1 (s1,,s2)", "syntax error at or near \",\""},
      {"FIRST 1 (any, first)", "syntax error at or near \"any\""},
      {"s1 \"a\"", "syntax error at or near \"\"\""},  // the scanner stops at the closing quote
      {"ANY 1 (s1) \"x\"\"y\"", "syntax error at or near \"\"\""},
      {"\"unterminated", "unterminated quoted identifier at end of input"},
  };
  for (const auto& [value, detail] : cases) {
    ParsedValue v = CheckHook("synchronous_standby_names", value);
    EXPECT_FALSE(v.ok()) << value;
    EXPECT_EQ(v.message, std::string("invalid value for parameter \"synchronous_standby_names\": \"") + value + "\"");
    EXPECT_EQ(v.hint, detail) << value;
  }
}

// The count must be positive; the server says so in its message, with no detail.
TEST(HooksTest, SynchronousStandbyNamesCount) {
  const std::pair<const char*, const char*> cases[] = {
      {"ANY 0 (s1)", "number of synchronous standbys (0) must be greater than zero"},
      {"0 (s1)", "number of synchronous standbys (0) must be greater than zero"},
      {"ANY 4294967296 (s1)", "number of synchronous standbys (0) must be greater than zero"},
      {"2147483648 (s1)", "number of synchronous standbys (-2147483648) must be greater than zero"},
      {"99999999999999999999 (s1)", "number of synchronous standbys (-1) must be greater than zero"},
  };
  for (const auto& [value, message] : cases) {
    ParsedValue v = CheckHook("synchronous_standby_names", value);
    EXPECT_FALSE(v.ok()) << value;
    EXPECT_EQ(v.message, message) << value;
    EXPECT_EQ(v.hint, "") << value;
  }
  EXPECT_TRUE(CheckHook("synchronous_standby_names", "4294967297 (s1)").ok()) << "wraps to 1";
}

// --- The host seam ------------------------------------------------------------

// A host that knows only its stack limit.
class FakeHost : public HostFacts {
 public:
  FakeHost(uint64_t stack_bytes, bool is_server_host) : stack_(stack_bytes), server_(is_server_host) {}
  bool is_server_host() const override { return server_; }
  std::optional<bool> HasLocale(LocaleCategory, const std::string&) const override { return std::nullopt; }
  std::optional<bool> HasTimeZone(const std::string&) const override { return std::nullopt; }
  std::optional<uint64_t> StackLimitBytes() const override { return stack_; }
  std::optional<bool> IoUring() const override { return std::nullopt; }

 private:
  uint64_t stack_;
  bool server_;
};

// A locale no machine has; the tests check that this one lacks it.
constexpr char kNoLocale[] = "xx_NOWHERE.UTF-8";
constexpr char kNoZone[] = "No/Such_Zone";
constexpr const char* kLocaleParameters[] = {"lc_messages", "lc_monetary", "lc_numeric", "lc_time"};

TEST(HooksTest, UnknownHostAcceptsWhatOnlyTheHostCouldRefuse) {
  const UnknownHost host;
  for (const char* p : kLocaleParameters) {
    ParsedValue v = CheckHook(host, p, kNoLocale);
    EXPECT_TRUE(v.ok()) << p << ": " << v.message;
    EXPECT_EQ(v.normalized, kNoLocale);
  }
  for (const char* p : {"timezone", "log_timezone"}) {
    ParsedValue v = CheckHook(host, p, kNoZone);
    EXPECT_TRUE(v.ok()) << p << ": " << v.message;
    EXPECT_EQ(v.normalized, kNoZone);
  }
  // The largest value the generic range check lets through.
  const Parameter& msd = *Pg18().Find("max_stack_depth");
  ParsedValue v = CheckHook(host, "max_stack_depth", msd.max_val);
  EXPECT_TRUE(v.ok()) << v.message << " " << v.hint;
  EXPECT_EQ(v.normalized, msd.max_val);
}

TEST(HooksTest, MissingLocaleOnAnotherHostIsHostDependent) {
  const LocalHost elsewhere(false);
  for (LocaleCategory c : {LocaleCategory::kMessages, LocaleCategory::kMonetary, LocaleCategory::kNumeric,
                           LocaleCategory::kTime})
    ASSERT_EQ(elsewhere.HasLocale(c, kNoLocale), std::optional<bool>(false)) << "this machine has " << kNoLocale;
  for (const char* p : kLocaleParameters) {
    ParsedValue v = CheckHook(elsewhere, p, kNoLocale);
    EXPECT_FALSE(v.ok()) << p;
    EXPECT_TRUE(v.host_dependent) << p;
    EXPECT_EQ(v.message, std::string("invalid value for parameter \"") + p + "\": \"" + kNoLocale + "\"");
    EXPECT_NE(v.hint.find("server's host"), std::string::npos) << v.hint;
  }
  EXPECT_TRUE(CheckHook(elsewhere, "lc_messages", "C").ok());
}

TEST(HooksTest, MissingLocaleOnTheServersHostIsRefused) {
  const LocalHost server(true);
  for (const char* p : kLocaleParameters) {
    ParsedValue v = CheckHook(server, p, kNoLocale);
    EXPECT_FALSE(v.ok()) << p;
    EXPECT_FALSE(v.host_dependent) << p;
    EXPECT_EQ(v.hint, std::string("This host has no locale \"") + kNoLocale + "\" (see `locale -a`).");
  }
  EXPECT_TRUE(CheckHook(server, "lc_time", "POSIX").ok());
  EXPECT_TRUE(CheckHook(server, "lc_numeric", "").ok()) << "empty: the server's environment decides";
}

TEST(HooksTest, UnknownTimeZoneFollowsTheHost) {
  const LocalHost server(true), elsewhere(false);
  ParsedValue here = CheckHook(server, "timezone", kNoZone);
  EXPECT_FALSE(here.ok());
  EXPECT_FALSE(here.host_dependent);
  ParsedValue there = CheckHook(elsewhere, "log_timezone", kNoZone);
  EXPECT_FALSE(there.ok());
  EXPECT_TRUE(there.host_dependent);
  // Offsets and POSIX TZ strings never ask the host.
  for (const char* zone : {"-5", "+3.5", "EST5EDT", "<+03>-3", "interval '1 hour'"})
    EXPECT_TRUE(CheckHook(server, "timezone", zone).ok()) << zone;
}

// "posixrules" and "localtime" are files of the time zone database that no
// server accepts as a zone (checked on PostgreSQL 18, which accepts "utc"):
// refused on every host, never as a host-dependent value.
TEST(HooksTest, PosixrulesAndLocaltimeAreRefusedEverywhere) {
  const UnknownHost unknown;
  const LocalHost server(true), elsewhere(false);
  for (const HostFacts* host : std::initializer_list<const HostFacts*>{&unknown, &server, &elsewhere})
    for (const char* zone : {"posixrules", "localtime", "PosixRules", "LOCALTIME"})
      for (const char* p : {"timezone", "log_timezone"}) {
        ParsedValue v = CheckHook(*host, p, zone);
        EXPECT_FALSE(v.ok()) << p << " = " << zone;
        EXPECT_FALSE(v.host_dependent) << p << " = " << zone << " on a host with is_server_host "
                                       << host->is_server_host();
      }
  EXPECT_TRUE(CheckHook(server, "timezone", "utc").ok());
}

TEST(HooksTest, MaxStackDepthLeavesHalfAMegabyteOfTheStackLimit) {
  const FakeHost host(8u << 20, true);
  ParsedValue ok = CheckHook(host, "max_stack_depth", "7680kB");
  EXPECT_TRUE(ok.ok()) << ok.message << " " << ok.hint;
  EXPECT_EQ(ok.normalized, "7680");
  ParsedValue over = CheckHook(host, "max_stack_depth", "7681kB");
  EXPECT_FALSE(over.ok());
  EXPECT_FALSE(over.host_dependent);
  // The server's DETAIL and HINT, with `ulimit -s 8192`.
  EXPECT_EQ(over.hint,
            "\"max_stack_depth\" must not exceed 7680kB. Increase the platform's stack depth limit via "
            "\"ulimit -s\" or local equivalent.");
  ParsedValue elsewhere = CheckHook(FakeHost(8u << 20, false), "max_stack_depth", "7681kB");
  EXPECT_FALSE(elsewhere.ok());
  EXPECT_TRUE(elsewhere.host_dependent);
  EXPECT_TRUE(CheckHook(FakeHost(16u << 20, true), "max_stack_depth", "7681kB").ok()) << "a larger stack";
}

// --- Keyword lists: the keywords of the major checked (list_keywords) ----------------

// postgres -C: 14 refuses jsonlog, 15-18 accept it; this Linux build refuses
// Windows' eventlog in every major.
TEST(HooksTest, LogDestinationTakesTheKeywordsOfTheMajor) {
  static const LocalHost host(true);
  ParsedValue v = CheckHook(host, "log_destination", "jsonlog", 14);
  EXPECT_FALSE(v.ok());
  EXPECT_EQ(v.message, "invalid value for parameter \"log_destination\": \"jsonlog\"");
  EXPECT_EQ(v.hint, "Unrecognized key word: \"jsonlog\".");
  EXPECT_EQ(CheckHook(host, "log_destination", "stderr, JSONLOG", 14).hint, "Unrecognized key word: \"jsonlog\".");
  EXPECT_TRUE(CheckHook(host, "log_destination", "stderr,csvlog", 14).ok());
  for (int major : Catalog::SupportedMajors()) {
    if (major > 14) {
      ParsedValue j = CheckHook(host, "log_destination", "jsonlog", major);
      EXPECT_TRUE(j.ok()) << major << ": " << j.hint;
      EXPECT_EQ(j.normalized, "jsonlog") << major;
      EXPECT_TRUE(CheckHook(host, "log_destination", "stderr, \"JSONLOG\"", major).ok()) << major;
    }
    EXPECT_EQ(CheckHook(host, "log_destination", "eventlog", major).hint, "Unrecognized key word: \"eventlog\".")
        << major;
  }
}

// Every keyword a major's server accepted is accepted, alone and in a list, and
// a word it does not know is refused, for each keyword-list parameter of that major.
TEST(HooksTest, KeywordListsTakeTheirHarvestedKeywords) {
  static const LocalHost host(true);
  for (int major : Catalog::SupportedMajors())
    for (const char* name : {"log_destination", "restrict_nonsystem_relation_kind", "createrole_self_grant",
                             "debug_io_direct"}) {
      const Parameter* p = Catalog::ForMajor(major)->Find(name);
      if (!p) continue;  // createrole_self_grant, debug_io_direct: 16+
      ASSERT_FALSE(p->list_keywords.empty()) << major << " " << name;
      std::string all;
      for (const char* w : p->list_keywords) {
        EXPECT_TRUE(CheckHook(host, name, w, major).ok()) << major << " " << name << " = " << w;
        all += (all.empty() ? "" : ", ") + std::string(w);
      }
      EXPECT_TRUE(CheckHook(host, name, all, major).ok()) << major << " " << name << " = " << all;
      ParsedValue v = CheckHook(host, name, all + ", pgconflint_probe", major);
      EXPECT_FALSE(v.ok()) << major << " " << name;
    }
}

// log_connections is a boolean up to 17 and a list of aspects in 18, where the
// boolean words are accepted alone only (postgres -C of 17 and 18).
TEST(HooksTest, LogConnectionsAspectsAreThoseOf18) {
  static const LocalHost host(true);
  EXPECT_FALSE(CheckHook(host, "log_connections", "receipt", 17).ok());
  EXPECT_TRUE(CheckHook(host, "log_connections", "t", 17).ok());
  EXPECT_TRUE(CheckHook(host, "log_connections", "receipt, \"Authorization\"", 18).ok());
  EXPECT_TRUE(CheckHook(host, "log_connections", "ON", 18).ok());
  EXPECT_TRUE(CheckHook(host, "log_connections", "", 18).ok());
  const std::pair<const char*, const char*> refused[] = {
      {"t", "Invalid option \"t\"."},
      {"receipt,on", "Invalid option \"on\"."},
      {"ON,receipt", "Cannot specify log_connections option \"on\" in a list with other options."},
      {"yes,all", "Cannot specify log_connections option \"yes\" in a list with other options."},
      {"on, on", "Cannot specify log_connections option \"on\" in a list with other options."},
      {"of,receipt", "Invalid option \"of\"."},
  };
  for (const auto& [value, detail] : refused) {
    ParsedValue v = CheckHook(host, "log_connections", value, 18);
    EXPECT_FALSE(v.ok()) << value;
    EXPECT_EQ(v.hint, detail) << value;
  }
}

// --- SplitIdentifierList --------------------------------------------------------

TEST(HooksTest, SplitIdentifierList) {
  std::vector<std::string> items;
  ASSERT_TRUE(SplitIdentifierList("  A, \"B c\" ,d", ',', &items));
  EXPECT_EQ(items, (std::vector<std::string>{"a", "B c", "d"}));
  ASSERT_TRUE(SplitIdentifierList("   ", ',', &items));
  EXPECT_TRUE(items.empty());
  ASSERT_TRUE(SplitIdentifierList("\"a\"\"b\"", ',', &items));
  EXPECT_EQ(items, std::vector<std::string>{"a\"b"});
  EXPECT_FALSE(SplitIdentifierList("a,", ',', &items));
  EXPECT_FALSE(SplitIdentifierList("a,,b", ',', &items));
  EXPECT_FALSE(SplitIdentifierList("\"a", ',', &items));
  EXPECT_FALSE(SplitIdentifierList("a b", ',', &items));
  ASSERT_TRUE(SplitIdentifierList(std::string(70, 'x'), ',', &items));
  EXPECT_EQ(items, std::vector<std::string>{std::string(63, 'x')}) << "NAMEDATALEN - 1";
}

}  // namespace
}  // namespace pgconflint
