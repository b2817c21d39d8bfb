// Value parsing (ParseValue: type, unit, rounding, range), checked against
// behaviour verified on real servers (docs/postgresql-semantics.md#values, and
// the differential suite). The per-parameter check hooks are hooks_test's.
#include "core/knowledge/value.h"

#include <gtest/gtest.h>

#include "core/knowledge/catalog.h"
#include "test_support.h"

namespace pgconflint {
namespace {

using namespace test;

ParsedValue ParseSetting(std::string_view name, std::string_view value) {
  const Parameter* p = Pg18().Find(name);
  EXPECT_NE(p, nullptr) << name;
  return ParseValue(Pg18(), *p, value);
}

struct ValueCase {
  const char* name;
  const char* value;
  const char* expect;  // normalized value, or nullptr when refused
};

// Readable test names in CTest: "work_mem = '0x100'".
void PrintTo(const ValueCase& c, std::ostream* os) { *os << c.name << " = '" << c.value << "'"; }

class ParseCases : public ::testing::TestWithParam<ValueCase> {};

TEST_P(ParseCases, MatchesServer) {
  const ValueCase& c = GetParam();
  ParsedValue v = ParseSetting(c.name, c.value);
  if (c.expect) {
    EXPECT_TRUE(v.ok()) << c.name << " = '" << c.value << "': " << v.message;
    EXPECT_EQ(v.normalized, c.expect) << c.name << " = '" << c.value << "'";
  } else {
    EXPECT_FALSE(v.ok()) << c.name << " = '" << c.value << "' gave " << v.normalized;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Integers, ParseCases,
    ::testing::Values(ValueCase{"work_mem", "0x100", "256"}, ValueCase{"work_mem", "0100", "64"},
                      ValueCase{"max_connections", "017", "15"}, ValueCase{"work_mem", "099", nullptr},
                      ValueCase{"work_mem", "1e3", "1000"}, ValueCase{"work_mem", "1E3kB", "1000"},
                      ValueCase{"work_mem", "100.6", "101"}, ValueCase{"work_mem", "64.5", "64"},
                      ValueCase{"work_mem", "65.5", "66"}, ValueCase{"statement_timeout", "2.5", "2"},
                      ValueCase{"statement_timeout", "3.5", "4"}, ValueCase{"work_mem", " 1MB ", "1024"},
                      ValueCase{"work_mem", "2TB", nullptr}, ValueCase{"statement_timeout", "25d", nullptr},
                      ValueCase{"work_mem", "NaN", nullptr}, ValueCase{"work_mem", "inf", nullptr},
                      ValueCase{"work_mem", "64kBs", nullptr}, ValueCase{"work_mem", "64 kB x", nullptr},
                      ValueCase{"work_mem", "0.1GB", "104448"}, ValueCase{"work_mem", "30.1GB", "31561728"},
                      ValueCase{"work_mem", "1.5MB", "1536"}, ValueCase{"statement_timeout", "100us", "0"},
                      ValueCase{"statement_timeout", "1500us", "2"}, ValueCase{"temp_buffers", "1kB", nullptr},
                      ValueCase{"shared_buffers", "100kB", nullptr}, ValueCase{"work_mem", "65537B", "64"},
                      ValueCase{"work_mem", "64KB", nullptr}, ValueCase{"work_mem", "64kb", nullptr},
                      ValueCase{"work_mem", "64Mb", nullptr}, ValueCase{"statement_timeout", "1H", nullptr},
                      ValueCase{"statement_timeout", "1m", nullptr}, ValueCase{"statement_timeout", "1sec", nullptr},
                      ValueCase{"work_mem", "10", nullptr}, ValueCase{"max_connections", "5MB", nullptr}));

INSTANTIATE_TEST_SUITE_P(
    Reals, ParseCases,
    ::testing::Values(ValueCase{"random_page_cost", ".5", "0.5"}, ValueCase{"random_page_cost", "1.5e0", "1.5"},
                      ValueCase{"random_page_cost", "  2", "2"}, ValueCase{"random_page_cost", "2ms", nullptr},
                      ValueCase{"random_page_cost", "Infinity", nullptr}, ValueCase{"random_page_cost", "NaN", nullptr},
                      ValueCase{"vacuum_cost_delay", "1.5ms", "1.5"}, ValueCase{"vacuum_cost_delay", "150us", "0.15"}));

INSTANTIATE_TEST_SUITE_P(
    Booleans, ParseCases,
    ::testing::Values(ValueCase{"fsync", "Of", "off"}, ValueCase{"fsync", "of", "off"}, ValueCase{"fsync", "tr", "on"},
                      ValueCase{"fsync", "fals", "off"}, ValueCase{"fsync", "TRUE", "on"}, ValueCase{"fsync", "1", "on"},
                      ValueCase{"fsync", "o", nullptr}, ValueCase{"fsync", "2", nullptr}, ValueCase{"fsync", " on", nullptr},
                      ValueCase{"fsync", "on ", nullptr}, ValueCase{"fsync", "", nullptr}, ValueCase{"fsync", "truee", nullptr}));

INSTANTIATE_TEST_SUITE_P(
    Enums, ParseCases,
    ::testing::Values(ValueCase{"default_transaction_isolation", "READ committed", "read committed"},
                      ValueCase{"default_transaction_isolation", "read  committed", nullptr},
                      ValueCase{"synchronous_commit", "remote_write ", nullptr},
                      ValueCase{"wal_level", "REPLICA", "replica"}, ValueCase{"io_method", "bogus", nullptr}));

TEST(ValueTest, RoundingIsReported) {
  ParsedValue v = ParseSetting("statement_timeout", "100us");
  EXPECT_TRUE(v.rounded);
  EXPECT_EQ(v.number, 0);
  EXPECT_FALSE(ParseSetting("statement_timeout", "100ms").rounded);
}

TEST(ValueTest, OctalAndHexAreFlagged) {
  EXPECT_TRUE(ParseSetting("max_connections", "017").octal);
  EXPECT_TRUE(ParseSetting("max_connections", "0x10").hex);
  EXPECT_FALSE(ParseSetting("max_connections", "0").octal);
  EXPECT_FALSE(ParseSetting("max_connections", "100").octal);
}

TEST(ValueTest, MessagesQuoteTheServer) {
  ParsedValue v = ParseSetting("work_mem", "10");
  EXPECT_EQ(v.problem, ValueProblem::kOutOfRange);
  EXPECT_EQ(v.message,
            "10 kB is outside the valid range for parameter \"work_mem\" (64 kB .. 2147483647 kB)");
  v = ParseSetting("work_mem", "64KB");
  EXPECT_EQ(v.hint, "Valid units for this parameter are \"B\", \"kB\", \"MB\", \"GB\", and \"TB\".");
  v = ParseSetting("fsync", "o");
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

// A running value from a snapshot is anything: beyond int64 it is written as
// it is (the conversion to an integer would be undefined behaviour).
TEST(ValueTest, ValuesBeyondInt64AreWrittenAsTheyAre) {
  const Parameter& sb = *Pg18().Find("shared_buffers");
  EXPECT_EQ(ShownWithUnit(sb, "1e30"), FormatWhole(1e30));
  EXPECT_EQ(ShownWithUnit(sb, "-1e19"), "-10000000000000000000");
  EXPECT_EQ(ShownWithUnit(sb, "inf"), "inf");
  EXPECT_EQ(ShownWithUnit(sb, "nan"), "nan");
  EXPECT_EQ(ShownWithUnit(sb, "16384"), "128MB");
}

}  // namespace
}  // namespace pgconflint
