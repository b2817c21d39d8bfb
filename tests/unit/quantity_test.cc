// The unit table, the quantity parser and the formatters: table-driven cases,
// and properties (every format parses back; nothing non-finite gets in).
#include "core/base/quantity.h"

#include <gtest/gtest.h>

#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

namespace pgconflint {
namespace {

std::vector<std::string> UnitNames(Dim dim) {
  std::vector<std::string> out;
  for (const Unit& u : UnitsOf(dim)) out.push_back(u.name);
  return out;
}

TEST(UnitTableTest, PostgresqlConfSpellingsLargestFirst) {
  EXPECT_EQ(UnitNames(Dim::kBytes), (std::vector<std::string>{"TB", "GB", "MB", "kB", "B"}));
  EXPECT_EQ(UnitNames(Dim::kMs), (std::vector<std::string>{"d", "h", "min", "s", "ms", "us"}));
  EXPECT_TRUE(UnitsOf(Dim::kNone).empty());
  EXPECT_EQ(UnitChoices(Dim::kBytes), "B, kB, MB, GB or TB");
  EXPECT_EQ(UnitChoices(Dim::kMs), "us, ms, s, min, h or d");
}

TEST(UnitTableTest, LookupIsCaseSensitive) {
  ASSERT_NE(FindUnit("kB"), nullptr);
  EXPECT_EQ(FindUnit("kB")->amount, 1024);
  EXPECT_EQ(FindUnit("min")->amount, 60000000);  // microseconds
  for (const char* wrong : {"KB", "kb", "gb", "G", "Gb", "MIN", "S", "", "sec", "m"})
    EXPECT_EQ(FindUnit(wrong), nullptr) << wrong;
  EXPECT_EQ(UnitFactor(*FindUnit("us")), 0.001);
  EXPECT_EQ(UnitFactor(*FindUnit("d")), 86400000.0);
  EXPECT_EQ(UnitFactor(*FindUnit("TB")), 1099511627776.0);
}

struct ParseCase {
  const char* text;
  double value;
  Dim dim;
};

void PrintTo(const ParseCase& c, std::ostream* os) { *os << '"' << c.text << '"'; }

class ParseAccepts : public ::testing::TestWithParam<ParseCase> {};

TEST_P(ParseAccepts, GivesBaseUnits) {
  const ParseCase& c = GetParam();
  Quantity q;
  std::string error;
  ASSERT_TRUE(ParseQuantity(c.text, &q, &error)) << error;
  EXPECT_EQ(q.value, c.value);
  EXPECT_EQ(q.dim, c.dim);
}

INSTANTIATE_TEST_SUITE_P(
    Quantities, ParseAccepts,
    ::testing::Values(ParseCase{"128kB", 131072, Dim::kBytes}, ParseCase{"16GB", 17179869184.0, Dim::kBytes},
                      ParseCase{"1.5MB", 1572864, Dim::kBytes}, ParseCase{".5GB", 536870912, Dim::kBytes},
                      ParseCase{"3B", 3, Dim::kBytes}, ParseCase{"5min", 300000, Dim::kMs},
                      ParseCase{"1us", 0.001, Dim::kMs}, ParseCase{"1e3ms", 1000, Dim::kMs},
                      ParseCase{"2d", 172800000, Dim::kMs}, ParseCase{"1E1s", 10000, Dim::kMs},
                      ParseCase{"0.4", 0.4, Dim::kNone}, ParseCase{"-1", -1, Dim::kNone},
                      ParseCase{"+2", 2, Dim::kNone}, ParseCase{"5.", 5, Dim::kNone},
                      ParseCase{"1e-400", 0, Dim::kNone}));  // underflow is a (tiny) finite number

class ParseRefuses : public ::testing::TestWithParam<const char*> {};

TEST_P(ParseRefuses, WithAReason) {
  Quantity q;
  std::string error;
  EXPECT_FALSE(ParseQuantity(GetParam(), &q, &error)) << q.value;
  EXPECT_FALSE(error.empty());
  EXPECT_EQ(error.find('\n'), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(Junk, ParseRefuses,
                         ::testing::Values("", "kB", "16gb", "16G", "16KB", "16 GB", " 16GB", "16GB ", "0x10",
                                           "nan", "NaN", "inf", "-inf", "Infinity", "1e400", "1.7e308TB",
                                           "1e999999999999", "5e", "1..2", "--1", "+-1", ".", "1e+", "64kBs",
                                           "1,5MB", "nan(1)"));

TEST(ParseQuantityTest, UnknownUnitNamesTheValidOnes) {
  Quantity q;
  std::string error;
  ASSERT_FALSE(ParseQuantity("16gb", &q, &error));
  EXPECT_EQ(error,
            "unknown unit \"gb\"; valid units are B, kB, MB, GB or TB (memory); us, ms, s, min, h or d (time)"
            " (case-sensitive, as in postgresql.conf)");
}

TEST(ParseQuantityOfTest, RequiresTheDimensionsUnit) {
  double v = 0;
  std::string error;
  EXPECT_TRUE(ParseQuantityOf("64GB", Dim::kBytes, &v, &error));
  EXPECT_EQ(v, 68719476736.0);
  EXPECT_TRUE(ParseQuantityOf("250ms", Dim::kMs, &v, &error));
  EXPECT_EQ(v, 250);
  EXPECT_TRUE(ParseQuantityOf("0.25", Dim::kNone, &v, &error));
  EXPECT_EQ(v, 0.25);

  EXPECT_FALSE(ParseQuantityOf("16", Dim::kBytes, &v, &error));
  EXPECT_EQ(error, "needs a unit: B, kB, MB, GB or TB (case-sensitive, as in postgresql.conf)");
  EXPECT_FALSE(ParseQuantityOf("16G", Dim::kBytes, &v, &error));
  EXPECT_EQ(error, "unknown unit \"G\"; valid units are B, kB, MB, GB or TB (case-sensitive, as in postgresql.conf)");
  EXPECT_FALSE(ParseQuantityOf("5min", Dim::kBytes, &v, &error));
  EXPECT_EQ(error, "\"min\" is not a memory unit; valid units are B, kB, MB, GB or TB (case-sensitive, as in postgresql.conf)");
  EXPECT_FALSE(ParseQuantityOf("5", Dim::kMs, &v, &error));
  EXPECT_EQ(error, "needs a unit: us, ms, s, min, h or d (case-sensitive, as in postgresql.conf)");
  EXPECT_FALSE(ParseQuantityOf("nan", Dim::kBytes, &v, &error));
  EXPECT_EQ(error, "not a number; expected a size such as 64GB");
  EXPECT_FALSE(ParseQuantityOf("0.1kB", Dim::kNone, &v, &error));
  EXPECT_EQ(error, "expected a plain number, without \"kB\"");
  EXPECT_FALSE(ParseQuantityOf("1e300TB", Dim::kBytes, &v, &error));
  EXPECT_EQ(error, "number too large");
}

TEST(FormatTest, HumanDisplay) {
  EXPECT_EQ(FormatHuman(131072, Dim::kBytes), "128kB");
  EXPECT_EQ(FormatHuman(1.5 * (1 << 30), Dim::kBytes), "1536MB");  // whole in a smaller unit
  EXPECT_EQ(FormatHuman(15.5 * (1 << 30), Dim::kBytes), "15.5GB");
  EXPECT_EQ(FormatHuman(1536, Dim::kBytes), "1536B");            // 1.5kB is under 10kB: not rounded
  EXPECT_EQ(FormatHuman(10.25 * 1024 * 1024, Dim::kBytes), "10.2MB");  // one decimal, half-even
  EXPECT_EQ(FormatHuman(1000, Dim::kBytes), "1000B");
  EXPECT_EQ(FormatHuman(-2048, Dim::kBytes), "-2kB");
  EXPECT_EQ(FormatHuman(60000, Dim::kMs), "1min");
  EXPECT_EQ(FormatHuman(1500, Dim::kMs), "1500ms");
  EXPECT_EQ(FormatHuman(0, Dim::kMs), "0ms");
  EXPECT_EQ(FormatHuman(0.5, Dim::kMs), "0.5ms");
  EXPECT_EQ(FormatHuman(0.4, Dim::kNone), "0.4");
  EXPECT_EQ(FormatHuman(16, Dim::kNone), "16");
  EXPECT_EQ(FormatHuman(1e15, Dim::kNone), "1e+15");
  EXPECT_EQ(FormatHuman(-0.0, Dim::kNone), "0");
}

TEST(FormatTest, ExactUnitAsShow) {
  EXPECT_EQ(FormatExactUnit(1536, 1024, Dim::kBytes), "1536kB");
  EXPECT_EQ(FormatExactUnit(104448, 1024, Dim::kBytes), "102MB");
  EXPECT_EQ(FormatExactUnit(16384, 8192, Dim::kBytes), "128MB");
  EXPECT_EQ(FormatExactUnit(60000, 1000, Dim::kMs), "1min");
  EXPECT_EQ(FormatExactUnit(1500, 1000, Dim::kMs), "1500ms");
  EXPECT_EQ(FormatExactUnit(-2, 1024, Dim::kBytes), "-2kB");
  EXPECT_EQ(FormatExactUnit(std::numeric_limits<int64_t>::max(), 8192, Dim::kBytes), "73786976294838206456kB");
}

TEST(FormatTest, ConfSizeRoundsDown) {
  EXPECT_EQ(FormatConfSize(1.5 * (1 << 30)), "1536MB");
  EXPECT_EQ(FormatConfSize(64.0 * (1 << 30)), "64GB");
  EXPECT_EQ(FormatConfSize(1099511627776.0), "1TB");
  EXPECT_EQ(FormatConfSize(300000), "292kB");
  EXPECT_EQ(FormatConfSize(2 * 1048576.0 - 1), "1MB");
  EXPECT_EQ(FormatConfSize(-5), "0kB");
  EXPECT_EQ(FormatConfSize(std::nan("")), "0kB");
  EXPECT_EQ(FormatConfSize(1e30), "909494701772928256TB");  // no overflow
}

TEST(FormatTest, PlainNumbers) {
  EXPECT_EQ(FormatWhole(3), "3");
  EXPECT_EQ(FormatWhole(-0.0), "0");
  EXPECT_EQ(FormatWhole(2.5), "2");
  EXPECT_EQ(FormatWhole(1e20), "100000000000000000000");
  EXPECT_EQ(FormatWhole(1e300).size(), 301u);
  EXPECT_EQ(FormatNumber(0.25), "0.25");
  EXPECT_EQ(FormatNumber(4), "4");
  EXPECT_EQ(FormatNumber(1.0 / 3), "0.333333");
  EXPECT_EQ(FormatReal(0.9), "0.9");
  EXPECT_EQ(FormatReal(1e10), "1e+10");
}

// --- Properties -------------------------------------------------------------

// A base unit of a parameter (pg_settings' units: B, kB, 8kB, MB; us, ms, s, min).
rc::Gen<std::pair<Dim, int64_t>> BaseUnit() {
  return rc::gen::element(std::pair{Dim::kBytes, int64_t{1}}, std::pair{Dim::kBytes, int64_t{1024}},
                          std::pair{Dim::kBytes, int64_t{8192}}, std::pair{Dim::kBytes, int64_t{1} << 20},
                          std::pair{Dim::kMs, int64_t{1}}, std::pair{Dim::kMs, int64_t{1000}},
                          std::pair{Dim::kMs, int64_t{1000000}}, std::pair{Dim::kMs, int64_t{60000000}});
}

RC_GTEST_PROP(QuantityProperty, ExactUnitParsesBackToTheSameAmount, ()) {
  const auto [dim, base] = *BaseUnit();
  const int64_t count = *rc::gen::inRange<int64_t>(-(int64_t{1} << 31), int64_t{1} << 31);
  const std::string text = FormatExactUnit(count, base, dim);
  double number;
  const Unit* unit = nullptr;
  std::string error;
  RC_ASSERT(SplitQuantity(text, &number, &unit, &error));
  RC_ASSERT(unit != nullptr);
  RC_ASSERT(unit->dim == dim);
  RC_ASSERT(static_cast<__int128>(number) * unit->amount == static_cast<__int128>(count) * base);
}

RC_GTEST_PROP(QuantityProperty, EveryUnitParsesAsItsFactor, ()) {
  const Dim dim = *rc::gen::element(Dim::kBytes, Dim::kMs);
  const Unit& unit = *rc::gen::elementOf(UnitsOf(dim));
  const int n = *rc::gen::arbitrary<int>();
  Quantity q;
  std::string error;
  RC_ASSERT(ParseQuantity(std::to_string(n) + unit.name, &q, &error));
  RC_ASSERT(q.dim == dim);
  RC_ASSERT(q.value == n * UnitFactor(unit));
  double v;
  RC_ASSERT(ParseQuantityOf(std::to_string(n) + unit.name, dim, &v, &error));
  RC_ASSERT(v == q.value);
}

RC_GTEST_PROP(QuantityProperty, HumanDisplayParsesBack, ()) {
  const double bytes = static_cast<double>(*rc::gen::inRange<int64_t>(0, int64_t{1} << 52));
  Quantity q;
  std::string error;
  const std::string shown = FormatHuman(bytes, Dim::kBytes);
  RC_ASSERT(ParseQuantity(shown, &q, &error));
  RC_ASSERT(q.dim == Dim::kBytes);
  RC_ASSERT(std::fabs(q.value - bytes) <= bytes * 0.005);  // one decimal from 10 of a unit on
  const double ms = static_cast<double>(*rc::gen::inRange<int64_t>(-(int64_t{1} << 45), int64_t{1} << 45));
  RC_ASSERT(ParseQuantity(FormatHuman(ms, Dim::kMs), &q, &error));
  RC_ASSERT(q.dim == Dim::kMs);
  RC_ASSERT(q.value == ms);  // whole milliseconds display exactly
}

RC_GTEST_PROP(QuantityProperty, ConfSizeParsesBackRoundedDown, ()) {
  const double bytes = *rc::gen::inRange<int64_t>(0, int64_t{1} << 52) * 1.0;
  double v;
  std::string error;
  RC_ASSERT(ParseQuantityOf(FormatConfSize(bytes), Dim::kBytes, &v, &error));
  RC_ASSERT(v <= bytes);
  RC_ASSERT(bytes - v < (bytes >= 1048576 ? 1048576 : 1024));
}

RC_GTEST_PROP(QuantityProperty, FiniteNumbersParseExactly, ()) {
  const double d = *rc::gen::suchThat(rc::gen::arbitrary<double>(), [](double x) { return std::isfinite(x); });
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", d);
  Quantity q;
  std::string error;
  RC_ASSERT(ParseQuantity(buf, &q, &error));
  RC_ASSERT(q.value == d);
  RC_ASSERT(q.dim == Dim::kNone);
}

RC_GTEST_PROP(QuantityProperty, NonFiniteIsRefusedInEverySpelling, ()) {
  const std::string number =
      *rc::gen::element<std::string>("nan", "NaN", "NAN", "-nan", "nan(0x7)", "inf", "-inf", "+inf", "INF",
                                     "infinity", "Infinity", "-Infinity", "1e309", "-1e999", "1e4000",
                                     "1" + std::string(309, '0'));  // above DBL_MAX without an exponent
  std::vector<std::string> suffixes = {"", "gb", "G"};
  for (const Unit& u : UnitsOf(Dim::kBytes)) suffixes.push_back(u.name);
  for (const Unit& u : UnitsOf(Dim::kMs)) suffixes.push_back(u.name);
  const std::string text = number + *rc::gen::elementOf(suffixes);
  Quantity q;
  double v;
  std::string error;
  RC_ASSERT(!ParseQuantity(text, &q, &error));
  for (Dim dim : {Dim::kNone, Dim::kBytes, Dim::kMs}) RC_ASSERT(!ParseQuantityOf(text, dim, &v, &error));
}

RC_GTEST_PROP(QuantityProperty, WhatParsesIsFinite, (const std::string& text)) {
  Quantity q;
  std::string error;
  if (ParseQuantity(text, &q, &error)) RC_ASSERT(std::isfinite(q.value));
  else RC_ASSERT(!error.empty());
  double v;
  for (Dim dim : {Dim::kNone, Dim::kBytes, Dim::kMs})
    if (ParseQuantityOf(text, dim, &v, &error)) RC_ASSERT(std::isfinite(v));
}

RC_GTEST_PROP(QuantityProperty, HugeTimesUnitOverflowIsRefused, ()) {
  const Dim dim = *rc::gen::element(Dim::kBytes, Dim::kMs);
  const Unit& unit = *rc::gen::elementOf(UnitsOf(dim));
  const double big = *rc::gen::inRange(1, 1000) * 1e305;
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g%s", big, unit.name);
  Quantity q;
  std::string error;
  const bool ok = ParseQuantity(buf, &q, &error);
  RC_ASSERT(ok == std::isfinite(big * UnitFactor(unit)));
}

}  // namespace
}  // namespace pgconflint
