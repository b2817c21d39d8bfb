// parse_hba_line and parse_ident_line as pgconflint reproduces them, and the
// tokenizer under them (hba_tokenize.cc). Each expectation was observed on
// the real servers (tests/integration/test_hba_differential.py checks them
// all again on every run).
#include "core/hba/hba.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "core/hba/hba_source.h"
#include "core/workspace/workspace.h"

namespace pgconflint {
namespace {

// A data directory /hba-test holding the given files (see LintText).
Analysis LintHba(const std::string& files, int major = 18) {
  static const RuleSet rules;
  return LintText("/hba-test/postgresql.conf", files, *Catalog::ForMajor(major), rules, Profile(), "/hba-test");
}

const AuthConfig& Auth(const Analysis& a) {
  EXPECT_TRUE(a.auth) << "no authentication files read";
  static const AuthConfig none;
  return a.auth ? *a.auth : none;
}

const HbaRule& Rule1(const Analysis& a) {
  EXPECT_FALSE(Auth(a).hba.empty());
  static const HbaRule none;
  return Auth(a).hba.empty() ? none : Auth(a).hba[0];
}

std::string HbaError(const std::string& hba, int major = 18) {
  Analysis a = LintHba("# file: pg_hba.conf\n" + hba, major);
  return Rule1(a).outcome.message;
}

TEST(HbaTokenizeTest, FieldsCommasQuotesAndComments) {
  Analysis a = LintHba("# file: pg_hba.conf\nlocal a,b \"c d\",\"e\"\"f\" trust # comment\n");
  const HbaRule& r = Rule1(a);
  ASSERT_TRUE(r.outcome.parsed) << r.outcome.message;
  ASSERT_EQ(r.databases.size(), 2u);
  EXPECT_EQ(r.databases[1].text, "b");
  ASSERT_EQ(r.roles.size(), 2u);
  EXPECT_EQ(r.roles[0].text, "c d");
  EXPECT_TRUE(r.roles[0].quoted);
  EXPECT_EQ(r.roles[1].text, "e\"f");
  EXPECT_EQ(r.method, "trust");
}

TEST(HbaTokenizeTest, QuoteAfterTheFirstCharacterKeepsAKeyword) {
  // al"l" is the keyword all: only a quote before the first character makes a name.
  Analysis a = LintHba("# file: pg_hba.conf\nlocal al\"l\" \"all\" trust\n");
  const HbaRule& r = Rule1(a);
  EXPECT_TRUE(r.databases[0].IsKeyword("all"));
  EXPECT_FALSE(r.roles[0].IsKeyword("all"));
}

TEST(HbaTokenizeTest, ContinuationJoinsLinesAndKeepsTheFirstLineNumber) {
  Analysis a = LintHba("# file: pg_hba.conf\n# header\nlocal all \\\n  all trust\nlocal all all reject\n");
  const AuthConfig& c = Auth(a);
  ASSERT_EQ(c.hba_lines.size(), 2u);
  EXPECT_EQ(c.hba_lines[0].line, 2u);
  EXPECT_EQ(c.hba_lines[1].line, 4u);
  EXPECT_TRUE(c.hba[0].outcome.parsed);
}

// 14.23 and 15.18 read a token of 2000 bytes as 16+ do
// (test_hba_differential.py, tokens family).
TEST(HbaTokenizeTest, LongTokensAreRead) {
  for (int major : {14, 15, 16, 18}) {
    EXPECT_EQ(HbaError("local all " + std::string(2000, 'x') + " trust\n", major), "") << major;
    EXPECT_EQ(HbaError("local all " + std::string(256, 'x') + ",a trust\n", major), "") << major;
  }
}

TEST(HbaTokenizeTest, AtFileExpandsInPlace) {
  Analysis a = LintHba("# file: pg_hba.conf\nlocal @dbs,z all trust\n# file: dbs\na b # c\nc,d\n");
  const HbaRule& r = Rule1(a);
  ASSERT_EQ(r.databases.size(), 5u);
  EXPECT_EQ(r.databases[3].text, "d");
  EXPECT_GE(r.databases[0].from_file, 0);
  EXPECT_EQ(r.databases[4].text, "z");
  EXPECT_EQ(r.databases[4].from_file, -1);
}

TEST(HbaTokenizeTest, MissingAtFileNamesTheFileAsEachMajorDoes) {
  EXPECT_EQ(HbaError("local @nope all trust\n", 18), "could not open file \"/hba-test/nope\": No such file or directory");
  EXPECT_EQ(HbaError("local @nope all trust\n", 15),
            "could not open secondary authentication file \"@nope\" as \"/hba-test/nope\": No such file or directory");
}

TEST(HbaTokenizeTest, IncludeRecordsFrom16) {
  Analysis a = LintHba("# file: pg_hba.conf\ninclude inc.conf\nlocal all all reject\n# file: inc.conf\nlocal all all trust\n");
  const AuthConfig& c = Auth(a);
  ASSERT_EQ(c.hba.size(), 2u);
  EXPECT_EQ(c.hba[0].method, "trust");
  EXPECT_NE(c.hba_lines[0].file, c.hba_lines[1].file);
  EXPECT_EQ(HbaError("include inc.conf\n# file: inc.conf\nlocal all all trust\n", 15), "invalid connection type \"include\"");
  EXPECT_EQ(HbaError("include nope.conf\n"), "could not open file \"/hba-test/nope.conf\": No such file or directory");
}

TEST(HbaParseTest, MessagesOfRefusedLines) {
  EXPECT_EQ(HbaError("hots all all all trust\n"), "invalid connection type \"hots\"");
  EXPECT_EQ(HbaError("local\n"), "end-of-line before database specification");
  EXPECT_EQ(HbaError("host all all\n"), "end-of-line before IP address specification");
  EXPECT_EQ(HbaError("host all all 10.0.0.1 md5\n"), "invalid IP mask \"md5\": Name or service not known");
  EXPECT_EQ(HbaError("host all all 10.0.0.0/33 trust\n"), "invalid CIDR mask in address \"10.0.0.0/33\"");
  EXPECT_EQ(HbaError("host all all db.example/24 trust\n"),
            "specifying both host name and CIDR mask is invalid: \"db.example/24\"");
  EXPECT_EQ(HbaError("local all all scram-sha256\n"), "invalid authentication method \"scram-sha256\"");
  EXPECT_EQ(HbaError("host all all all peer\n"), "peer authentication is only supported on local sockets");
  EXPECT_EQ(HbaError("local all all trust map=x\n"),
            "authentication option \"map\" is only valid for authentication methods ident, peer, gssapi, sspi, cert, "
            "and oauth");
  EXPECT_EQ(HbaError("local all all trust map=x\n", 17),
            "authentication option \"map\" is only valid for authentication methods ident, peer, gssapi, sspi, and cert");
  EXPECT_EQ(HbaError("local all all oauth\n", 17), "invalid authentication method \"oauth\"");
  EXPECT_EQ(HbaError("local /(a all trust\n"), "invalid regular expression \"(a\": parentheses () not balanced");
  EXPECT_EQ(HbaError("local /(a all trust\n", 15), "");  // a plain database name before 16
}

TEST(HbaParseTest, SomeRefusalsHaveNoViewError) {
  // clientcert=1 (removed in 14) is only logged: the view shows the row without an error.
  Analysis a = LintHba("ssl = on\n# file: pg_hba.conf\nhostssl all all all trust clientcert=1\n");
  const HbaRule& r = Rule1(a);
  EXPECT_FALSE(r.outcome.parsed);
  EXPECT_EQ(r.outcome.error, "");
  EXPECT_EQ(r.outcome.message, "invalid value for clientcert: \"1\"");
}

TEST(HbaParseTest, HostsslWithSslOffLoadsWithAnError) {
  Analysis a = LintHba("# file: pg_hba.conf\nhostssl all all all trust\n");
  const HbaRule& r = Rule1(a);
  EXPECT_TRUE(r.outcome.parsed);
  EXPECT_EQ(r.outcome.error, "hostssl record cannot match because SSL is disabled");
}

TEST(HbaParseTest, AddressesMasksAndKeywords) {
  Analysis a = LintHba("# file: pg_hba.conf\nhost all all 127.1 255.0.0.0 trust\nhost all all ::1/64 trust\n"
                    "host all all \"all\" trust\nhost all all samenet trust\nlocal all all ident\n");
  const AuthConfig& c = Auth(a);
  ASSERT_EQ(c.hba.size(), 5u);
  EXPECT_EQ(FormatAddress(c.hba[0].addr), "127.0.0.1");
  EXPECT_EQ(c.hba[0].prefix, 8);
  EXPECT_EQ(FormatAddress(c.hba[1].mask), "ffff:ffff:ffff:ffff::");
  EXPECT_EQ(c.hba[2].address_kind, HbaAddressKind::kHostName);  // a quoted "all" is a host name
  EXPECT_EQ(c.hba[3].address_kind, HbaAddressKind::kSameNet);
  EXPECT_EQ(c.hba[4].method, "peer");  // ident on local lines
}

TEST(IdentParseTest, FieldsAndRegularExpressions) {
  Analysis a = LintHba("# file: pg_ident.conf\nm sys\nm a,b pg\nm /(x pg\nm sys /(y\nm /^(.*)$ \\1\n");
  const AuthConfig& c = Auth(a);
  ASSERT_EQ(c.ident.size(), 5u);
  EXPECT_EQ(c.ident[0].outcome.message, "missing entry at end of line");
  EXPECT_EQ(c.ident[1].outcome.message, "multiple values in ident field");
  EXPECT_EQ(c.ident[2].outcome.message, "invalid regular expression \"(x\": parentheses () not balanced");
  EXPECT_FALSE(c.ident[3].outcome.parsed);  // the database user is a regex from 16
  EXPECT_TRUE(c.ident[4].outcome.parsed);
  Analysis old = LintHba("# file: pg_ident.conf\nm sys /(y\n", 15);
  EXPECT_TRUE(Auth(old).ident[0].outcome.parsed);
}

TEST(HbaParseTest, LoadVerdicts) {
  EXPECT_FALSE(Auth(LintHba("# file: pg_hba.conf\n# nothing\n")).HbaLoads());
  EXPECT_FALSE(Auth(LintHba("# file: pg_hba.conf\nlocal all all trust\nbogus\n")).HbaLoads());
  EXPECT_TRUE(Auth(LintHba("# file: pg_hba.conf\nlocal all all trust\n")).HbaLoads());
}

TEST(SplitGucListTest, QuotesBlanksAndErrors) {
  std::vector<std::string> items;
  ASSERT_TRUE(SplitGucList(" a , \"b,c\" ,\"d\"\"e\"", ',', &items));
  EXPECT_EQ(items, (std::vector<std::string>{"a", "b,c", "d\"e"}));
  EXPECT_TRUE(SplitGucList("", ',', &items));
  EXPECT_TRUE(items.empty());
  EXPECT_FALSE(SplitGucList("a,,b", ',', &items));
  EXPECT_FALSE(SplitGucList("\"a", ',', &items));
}

// Any bytes as pg_hba.conf and pg_ident.conf: no crash, every finding inside
// its file. The alphabet is weighted towards the bytes the tokenizer treats
// specially.
RC_GTEST_PROP(HbaPropertyTest, AnyBytesAreRead, ()) {
  static const std::string kAlphabet = " \t\r\n\\\",#@/=+abl0123456789.:%{}()[]*?^$";
  auto text = [] {
    std::string s;
    size_t n = *rc::gen::inRange<size_t>(0, 300);
    for (size_t i = 0; i < n; ++i)
      s += *rc::gen::weightedOneOf<char>({{4, rc::gen::elementOf(kAlphabet)}, {1, rc::gen::arbitrary<char>()}});
    return s;
  };
  const std::string hba = text(), ident = text();
  const int major = *rc::gen::inRange(14, 19);
  Analysis a = LintHba("# file: pg_hba.conf\n" + hba + "\n# file: pg_ident.conf\n" + ident + "\n", major);
  RC_ASSERT(a.failure == Analysis::Failure::kNone);
  for (const Diagnostic& d : a.diagnostics) {
    RC_ASSERT(d.file >= 0);
    RC_ASSERT(d.range.begin <= d.range.end);
    RC_ASSERT(d.range.end <= a.files[d.file].source.text().size());
  }
}

}  // namespace
}  // namespace pgconflint
