#include "core/model/secrets.h"

#include <gtest/gtest.h>

#include "core/model/analysis.h"
#include "core/model/diagnostic.h"

namespace pgconflint {
namespace {

TEST(SecretsTest, KeyValueStrings) {
  EXPECT_EQ(MaskSecrets("host=db port=5432 user=app password=s3cret dbname=x"),
            "host=db port=5432 user=app password=***** dbname=x");
  EXPECT_EQ(MaskSecrets("host=db password = 'a b\\' c' sslpassword=k"), "host=db password = '*****' sslpassword=*****");
  EXPECT_EQ(MaskSecrets("host=db PASSWORD=s3cret SslPassword=k"), "host=db PASSWORD=***** SslPassword=*****");
  EXPECT_EQ(MaskSecrets("host=db sslmode=verify-full sslrootcert=/etc/ca.pem"),
            "host=db sslmode=verify-full sslrootcert=/etc/ca.pem");
  // Other words that hold the keyword are not it.
  EXPECT_EQ(MaskSecrets("password_encryption = scram-sha-256"), "password_encryption = scram-sha-256");
  EXPECT_EQ(MaskSecrets("mypassword=x passwords=y"), "mypassword=x passwords=y");
  EXPECT_EQ(MaskSecrets("host all all 0.0.0.0/0 password"), "host all all 0.0.0.0/0 password");
}

// The scan skips eight bytes at a time where no secret can start: a secret is
// found at every offset and alignment, after any filler, in either case.
TEST(SecretsTest, FoundAtEveryOffset) {
  for (const std::string secret : {"password=hunter2", "PASSWORD=hunter2", "postgres://u:hunter2@h/db"})
    for (const std::string filler : {"", "x ", "abcdefg ", "0123456789abcde,", "# a comment \n"})
      for (size_t pad = 0; pad < 17; ++pad) {
        const std::string text = filler + std::string(pad, ' ') + secret + " " + std::string(pad % 5, 'z');
        EXPECT_EQ(MaskSecrets(text).find("hunter2"), std::string::npos) << text;
        EXPECT_EQ(SecretsIn(text), std::vector<std::string>{"hunter2"}) << text;
      }
}

TEST(SecretsTest, UrisAndTheirQueries) {
  EXPECT_EQ(MaskSecrets("postgresql://app:s3cret@db:5432/x?sslmode=require"),
            "postgresql://app:*****@db:5432/x?sslmode=require");
  EXPECT_EQ(MaskSecrets("postgres://db/x?user=app&password=s3cret&sslmode=require"),
            "postgres://db/x?user=app&password=*****&sslmode=require");
  EXPECT_EQ(MaskSecrets("postgresql://app@db/x"), "postgresql://app@db/x");
  EXPECT_EQ(MaskSecrets("postgresql://db:5432/x"), "postgresql://db:5432/x");  // a port is no password
}

TEST(SecretsTest, InsideConfigurationLinesAndSql) {
  EXPECT_EQ(MaskSecrets("primary_conninfo = 'host=a user=r password=hunter2'  # standby"),
            "primary_conninfo = 'host=a user=r password=*****'  # standby");
  // The connection string's own quotes, doubled inside the file's.
  EXPECT_EQ(MaskSecrets("primary_conninfo = 'host=a password=''it''''s x'' port=1'"),
            "primary_conninfo = 'host=a password=''*****'' port=1'");
  EXPECT_EQ(MaskSecrets("myapp.password = 'x y'"), "myapp.password = '*****'");
  EXPECT_EQ(MaskSecrets("CREATE ROLE app LOGIN PASSWORD 'it''s';"), "CREATE ROLE app LOGIN PASSWORD '*****';");
}

TEST(SecretsTest, ScrubbingCatchesEchoesWithoutTheKeyword) {
  std::vector<std::string> known = SecretsIn("postgresql://app:hunter2%zz@db/x");
  EXPECT_EQ(ScrubSecrets("invalid percent-encoded token: \"hunter2%zz\"", known),
            "invalid percent-encoded token: \"*****\"");
  known = SecretsIn("postgresql://app:p%40ss@db/x");
  EXPECT_EQ(ScrubSecrets("user \"app\" with p@ss failed", known), "user \"app\" with ***** failed");
  // Two bytes would blank every such pair of a message: only the keyword's value goes.
  EXPECT_EQ(ScrubSecrets("password=ab and ab", SecretsIn("password=ab")), "password=***** and ab");
}

TEST(SecretsTest, RedactingAnAnalysisKeepsEveryPosition) {
  Analysis a;
  const std::string text = "work_mem = 4MB\nprimary_conninfo = 'host=a password=h\xC3\xA9llo2 port=1'  # x\nz = 1\n";
  a.files.push_back({"/d/postgresql.conf", SourceFile("postgresql.conf", text), {}, {}, 0, false});
  Setting s;
  s.name = "primary_conninfo";
  s.raw = s.text = "host=a password=h\xC3\xA9llo2 port=1";
  s.value = s.text;
  s.file = 0;
  a.settings.push_back(s);
  Diagnostic d;
  d.message = "set again here (\"host=a password=h\xC3\xA9llo2 port=1\")";
  d.help = "h\xC3\xA9llo2 is weak";
  d.notes.push_back({{0, {}}, "was h\xC3\xA9llo2"});
  a.diagnostics.push_back(d);
  RedactSecrets(&a);
  const SourceFile& f = a.files[0].source;
  ASSERT_EQ(f.text().size(), text.size());
  EXPECT_EQ(f.text().find("llo2"), std::string::npos) << f.text();
  const uint32_t z = static_cast<uint32_t>(text.find("z = 1"));
  EXPECT_EQ(f.PositionOf(z).line, 3u);
  const uint32_t comment = static_cast<uint32_t>(text.find("# x"));
  for (ColumnUnit u : {ColumnUnit::kUtf8, ColumnUnit::kCodePoint, ColumnUnit::kUtf16})
    EXPECT_EQ(f.PositionOf(comment, u).column, SourceFile("p", text).PositionOf(comment, u).column);
  EXPECT_EQ(a.settings[0].raw, "host=a password=***** port=1");
  EXPECT_EQ(*a.settings[0].value, "host=a password=***** port=1");
  EXPECT_EQ(a.diagnostics[0].message, "set again here (\"host=a password=***** port=1\")");
  EXPECT_EQ(a.diagnostics[0].help, "***** is weak");
  EXPECT_EQ(a.diagnostics[0].notes[0].message, "was *****");
}

}  // namespace
}  // namespace pgconflint
