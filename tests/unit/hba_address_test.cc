// Numeric host parsing and printing as glibc's getaddrinfo / getnameinfo do
// for pg_hba.conf (each form was checked against pg_hba_file_rules).
#include "core/hba/hba_address.h"

#include <gtest/gtest.h>

namespace pgconflint {
namespace {

std::string Numeric(const std::string& text) {
  IpAddress a;
  NumericHost k = ParseNumericHost(text, &a);
  if (k == NumericHost::kNotNumeric) return "name";
  if (k == NumericHost::kHostDependent) return "host-dependent";
  return FormatAddress(a);
}

TEST(HbaAddressTest, Ipv4FormsOfInetAton) {
  EXPECT_EQ(Numeric("127.0.0.1"), "127.0.0.1");
  EXPECT_EQ(Numeric("127.1"), "127.0.0.1");
  EXPECT_EQ(Numeric("0x7f.0.0.1"), "127.0.0.1");
  EXPECT_EQ(Numeric("010.0.0.1"), "8.0.0.1");
  EXPECT_EQ(Numeric("1.2.3"), "1.2.0.3");
  EXPECT_EQ(Numeric("4294967295"), "255.255.255.255");
  EXPECT_EQ(Numeric("4294967296"), "name");
  EXPECT_EQ(Numeric("256.1.1.1"), "name");
  EXPECT_EQ(Numeric("1.2.3.4.5"), "name");
  EXPECT_EQ(Numeric("08.1.1.1"), "name");
  EXPECT_EQ(Numeric("0x"), "name");  // strtoul reads 0, then the x trails
  EXPECT_EQ(Numeric("0x1.2"), "1.0.0.2");
  EXPECT_EQ(Numeric("1.2.3.4 "), "name");
  EXPECT_EQ(Numeric(""), "name");
}

TEST(HbaAddressTest, Ipv6FormsAndPrinting) {
  EXPECT_EQ(Numeric("::1"), "::1");
  EXPECT_EQ(Numeric("2001:DB8:0:0:0:0:0:1"), "2001:db8::1");
  EXPECT_EQ(Numeric("2001:db8:0:0:1:0:0:1"), "2001:db8::1:0:0:1");
  EXPECT_EQ(Numeric("::ffff:1.2.3.4"), "::ffff:1.2.3.4");
  EXPECT_EQ(Numeric("::ffff:1.2.3.04"), "name");
  EXPECT_EQ(Numeric("1::"), "1::");
  EXPECT_EQ(Numeric("1::2::3"), "name");
  EXPECT_EQ(Numeric("fe80::1%1"), "fe80::1");
  EXPECT_EQ(Numeric("fe80::1%eth0"), "host-dependent");
}

TEST(HbaAddressTest, CidrMasks) {
  IpAddress m;
  int prefix = 0;
  ASSERT_TRUE(CidrMask("24", 4, &m, &prefix));
  EXPECT_EQ(FormatAddress(m), "255.255.255.0");
  EXPECT_TRUE(CidrMask("+8", 4, &m, &prefix));
  EXPECT_EQ(prefix, 8);
  EXPECT_FALSE(CidrMask("33", 4, &m, &prefix));
  EXPECT_FALSE(CidrMask("", 4, &m, &prefix));
  EXPECT_FALSE(CidrMask("8a", 4, &m, &prefix));
  ASSERT_TRUE(CidrMask("64", 6, &m, &prefix));
  EXPECT_EQ(FormatAddress(m), "ffff:ffff:ffff:ffff::");
  IpAddress holes;
  ParseNumericHost("255.0.255.0", &holes);
  EXPECT_EQ(PrefixLength(holes), -1);
}

TEST(HbaAddressTest, ContainmentAndOverlap) {
  IpAddress a, am, b, bm;
  int p;
  ParseNumericHost("10.0.0.0", &a);
  CidrMask("8", 4, &am, &p);
  ParseNumericHost("10.1.0.0", &b);
  CidrMask("16", 4, &bm, &p);
  EXPECT_TRUE(NetworkContains(a, am, b, bm));
  EXPECT_FALSE(NetworkContains(b, bm, a, am));
  EXPECT_TRUE(NetworksOverlap(b, bm, a, am));
  ParseNumericHost("11.0.0.0", &b);
  EXPECT_FALSE(NetworksOverlap(a, am, b, bm));
}

}  // namespace
}  // namespace pgconflint
