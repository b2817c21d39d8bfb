// Value parsing (ParseValue: type, unit, rounding, range), checked against
// behaviour verified on real servers (docs/postgresql-semantics.md#values, and
// the differential suite). The per-parameter check hooks are hooks_test's.
#include "core/value.h"

#include <gtest/gtest.h>

#include "core/catalog.h"

namespace pgconflint {
namespace {

const Catalog& Pg18() { return *Catalog::ForMajor(18); }

ParsedValue Parse(std::string_view name, std::string_view value) {
  const Parameter* p = Pg18().Find(name);
  EXPECT_NE(p, nullptr) << name;
  return ParseValue(Pg18(), *p, value);
}

struct Case {
  const char* name;
  const char* value;
  const char* expect;  // normalized value, or nullptr when refused
};

// Readable test names in CTest: "work_mem = '0x100'".
void PrintTo(const Case& c, std::ostream* os) { *os << c.name << " = '" << c.value << "'"; }

class ParseCases : public ::testing::TestWithParam<Case> {};

TEST_P(ParseCases, MatchesServer) {
  const Case& c = GetParam();
  ParsedValue v = Parse(c.name, c.value);
  if (c.expect) {
    EXPECT_TRUE(v.ok()) << c.name << " = '" << c.value << "': " << v.message;
    EXPECT_EQ(v.normalized, c.expect) << c.name << " = '" << c.value << "'";
  } else {
    EXPECT_FALSE(v.ok()) << c.name << " = '" << c.value << "' gave " << v.normalized;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Integers, ParseCases,
    ::testing::Values(Case{"work_mem", "0x100", "256"}, Case{"work_mem", "0100", "64"},
                      Case{"max_connections", "017", "15"}, Case{"work_mem", "099", nullptr},
                      Case{"work_mem", "1e3", "1000"}, Case{"work_mem", "1E3kB", "1000"},
                      Case{"work_mem", "100.6", "101"}, Case{"work_mem", "64.5", "64"},
                      Case{"work_mem", "65.5", "66"}, Case{"statement_timeout", "2.5", "2"},
                      Case{"statement_timeout", "3.5", "4"}, Case{"work_mem", " 1MB ", "1024"},
                      Case{"work_mem", "2TB", nullptr}, Case{"statement_timeout", "25d", nullptr},
                      Case{"work_mem", "NaN", nullptr}, Case{"work_mem", "inf", nullptr},
                      Case{"work_mem", "64kBs", nullptr}, Case{"work_mem", "64 kB x", nullptr},
                      Case{"work_mem", "0.1GB", "104448"}, Case{"work_mem", "30.1GB", "31561728"},
                      Case{"work_mem", "1.5MB", "1536"}, Case{"statement_timeout", "100us", "0"},
                      Case{"statement_timeout", "1500us", "2"}, Case{"temp_buffers", "1kB", nullptr},
                      Case{"shared_buffers", "100kB", nullptr}, Case{"work_mem", "65537B", "64"},
                      Case{"work_mem", "64KB", nullptr}, Case{"work_mem", "64kb", nullptr},
                      Case{"work_mem", "64Mb", nullptr}, Case{"statement_timeout", "1H", nullptr},
                      Case{"statement_timeout", "1m", nullptr}, Case{"statement_timeout", "1sec", nullptr},
                      Case{"work_mem", "10", nullptr}, Case{"max_connections", "5MB", nullptr}));

INSTANTIATE_TEST_SUITE_P(
    Reals, ParseCases,
    ::testing::Values(Case{"random_page_cost", ".5", "0.5"}, Case{"random_page_cost", "1.5e0", "1.5"},
                      Case{"random_page_cost", "  2", "2"}, Case{"random_page_cost", "2ms", nullptr},
                      Case{"random_page_cost", "Infinity", nullptr}, Case{"random_page_cost", "NaN", nullptr},
                      Case{"vacuum_cost_delay", "1.5ms", "1.5"}, Case{"vacuum_cost_delay", "150us", "0.15"}));

INSTANTIATE_TEST_SUITE_P(
    Booleans, ParseCases,
    ::testing::Values(Case{"fsync", "Of", "off"}, Case{"fsync", "of", "off"}, Case{"fsync", "tr", "on"},
                      Case{"fsync", "fals", "off"}, Case{"fsync", "TRUE", "on"}, Case{"fsync", "1", "on"},
                      Case{"fsync", "o", nullptr}, Case{"fsync", "2", nullptr}, Case{"fsync", " on", nullptr},
                      Case{"fsync", "on ", nullptr}, Case{"fsync", "", nullptr}, Case{"fsync", "truee", nullptr}));

INSTANTIATE_TEST_SUITE_P(
    Enums, ParseCases,
    ::testing::Values(Case{"default_transaction_isolation", "READ committed", "read committed"},
                      Case{"default_transaction_isolation", "read  committed", nullptr},
                      Case{"synchronous_commit", "remote_write ", nullptr},
                      Case{"wal_level", "REPLICA", "replica"}, Case{"io_method", "bogus", nullptr}));

TEST(ValueTest, RoundingIsReported) {
  ParsedValue v = Parse("statement_timeout", "100us");
  EXPECT_TRUE(v.rounded);
  EXPECT_EQ(v.number, 0);
  EXPECT_FALSE(Parse("statement_timeout", "100ms").rounded);
}

TEST(ValueTest, OctalAndHexAreFlagged) {
  EXPECT_TRUE(Parse("max_connections", "017").octal);
  EXPECT_TRUE(Parse("max_connections", "0x10").hex);
  EXPECT_FALSE(Parse("max_connections", "0").octal);
  EXPECT_FALSE(Parse("max_connections", "100").octal);
}

TEST(ValueTest, MessagesQuoteTheServer) {
  ParsedValue v = Parse("work_mem", "10");
  EXPECT_EQ(v.problem, ValueProblem::kOutOfRange);
  EXPECT_EQ(v.message,
            "10 kB is outside the valid range for parameter \"work_mem\" (64 kB .. 2147483647 kB)");
  v = Parse("work_mem", "64KB");
  EXPECT_EQ(v.hint, "Valid units for this parameter are \"B\", \"kB\", \"MB\", \"GB\", and \"TB\".");
  v = Parse("fsync", "o");
  EXPECT_EQ(v.message, "parameter \"fsync\" requires a Boolean value");
}

TEST(ValueTest, FormatWithUnitUsesLargestExactUnit) {
  const Parameter* wm = Pg18().Find("work_mem");
  EXPECT_EQ(FormatWithUnit(1536, *wm), "1536kB");
  EXPECT_EQ(FormatWithUnit(104448, *wm), "102MB");
  const Parameter* sb = Pg18().Find("shared_buffers");
  EXPECT_EQ(FormatWithUnit(16384, *sb), "128MB");
  const Parameter* st = Pg18().Find("statement_timeout");
  EXPECT_EQ(FormatWithUnit(60000, *st), "1min");
}

// SHOW prints units only for positive values: backend_flush_after = 0 is "0",
// not "08kB" (the unit 8kB glued to the zero).
TEST(ValueTest, FormatWithUnitPrintsZeroBare) {
  EXPECT_EQ(FormatWithUnit(0, *Pg18().Find("backend_flush_after")), "0");
  EXPECT_EQ(FormatWithUnit(0, *Pg18().Find("statement_timeout")), "0");
  EXPECT_EQ(FormatWithUnit(-1, *Pg18().Find("wal_buffers")), "-1");
}

}  // namespace
}  // namespace pgconflint
