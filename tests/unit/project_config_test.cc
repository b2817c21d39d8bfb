// .pgconflint.toml: every key, every refusal with the FILE:LINE of the key
// that caused it, and the walk up the directories that finds the file. Files
// live on the in-memory fake disk. Also the file selection (`include` and
// `exclude` globs) and which files count as configuration for file-list tools.
#include "core/workspace/project_config.h"

#include <gtest/gtest.h>

#include "core/knowledge/catalog.h"
#include "fake_disk.h"

namespace pgconflint {
namespace {

// Loads `text` as /project/.pgconflint.toml (or `rel`); the error when refused.
struct Loaded {
  bool ok;
  ProjectConfig config;
  std::string error;
};

Loaded Load(const std::string& text, const std::string& rel = ".pgconflint.toml") {
  FakeDisk disk;
  std::string path = disk.Write(rel, text);
  Loaded l;
  l.ok = LoadProjectConfig(disk.fs(), path, &l.config, &l.error);
  return l;
}

// The error of a refused file, which must start with FILE:LINE.
std::string ConfigRefusal(const std::string& text) {
  Loaded l = Load(text);
  EXPECT_FALSE(l.ok) << text;
  return l.error;
}

constexpr char kPath[] = "/project/.pgconflint.toml";

std::string AtLine(int line, const std::string& message) { return std::string(kPath) + ":" + std::to_string(line) + ": " + message; }

TEST(ProjectConfigTest, EveryKey) {
  Loaded l = Load(
      "# comment\n"
      "pg-version = 17\n"
      "fail-on = \"info\"\n"
      "select = [\"PGC2\", \"setting-overridden\"]\n"
      "ignore = [\"PGC204\"]\n"
      "extra-rules = [\"policies\", \"/abs/rules.toml\"]\n"
      "recommendation-hints = false\n"
      "[severity]\n"
      "PGC303 = \"warning\"\n"
      "value-without-unit = \"error\"\n"
      "[per-file-ignores]\n"
      "\"conf.d/*.conf\" = [\"PGC103\", \"PGC204\"]\n"
      "\"other.conf\" = []\n"
      "[profile]\n"
      "ram = \"64GB\"\n"
      "cpus = 16\n"
      "storage = \"nvme\"\n"
      "workload = \"oltp\"\n"
      "connections = 300\n"
      "os = \"linux\"\n"
      "container = \"docker\"\n"
      "io-uring = true\n"
      "headroom = 0.25\n"
      "nodes-per-query = 3\n"
      "[profile.tablespaces]\n"
      "archive = \"cold-object\"\n"
      "fast = \"nvme\"\n");
  ASSERT_TRUE(l.ok) << l.error;
  const ProjectConfig& c = l.config;
  EXPECT_EQ(c.path, kPath);
  EXPECT_EQ(c.pg_version, 17);
  EXPECT_EQ(c.fail_on, "info");
  EXPECT_EQ(c.select, (std::vector<std::string>{"PGC2", "setting-overridden"}));
  EXPECT_EQ(c.ignore, std::vector<std::string>{"PGC204"});
  EXPECT_EQ(c.extra_rules, (std::vector<std::string>{"/project/policies", "/abs/rules.toml"}));
  EXPECT_FALSE(c.recommendation_hints);
  EXPECT_EQ(c.severity.size(), 2u);
  EXPECT_EQ(c.severity.at("PGC303"), Severity::kWarning);
  EXPECT_EQ(c.severity.at("value-without-unit"), Severity::kError);
  ASSERT_EQ(c.per_file_ignores.size(), 2u);
  EXPECT_EQ(c.per_file_ignores[0].first, "conf.d/*.conf");
  EXPECT_EQ(c.per_file_ignores[0].second, (std::vector<std::string>{"PGC103", "PGC204"}));
  EXPECT_EQ(c.per_file_ignores[1].first, "other.conf");
  EXPECT_TRUE(c.per_file_ignores[1].second.empty());
  const Profile& p = c.profile;
  EXPECT_EQ(p.ram_bytes, 64.0 * 1024 * 1024 * 1024);
  EXPECT_EQ(p.cpus, 16);
  EXPECT_EQ(p.storage, Storage::Named("nvme"));
  EXPECT_EQ(p.workload, Workload::kOltp);
  EXPECT_EQ(p.connections, 300);
  EXPECT_EQ(p.os, "linux");
  EXPECT_EQ(p.container, ContainerKind::kDocker);
  EXPECT_EQ(p.io_uring, true);
  EXPECT_EQ(p.headroom, 0.25);
  EXPECT_EQ(p.nodes_per_query, 3);
  ASSERT_EQ(p.tablespaces.size(), 2u);
  EXPECT_EQ(p.tablespaces.at("archive"), *Storage::Named("cold-object"));
  EXPECT_EQ(p.tablespaces.at("fast"), *Storage::Named("nvme"));
}

TEST(ProjectConfigTest, AnEmptyFileKeepsTheDefaults) {
  Loaded l = Load("");
  ASSERT_TRUE(l.ok) << l.error;
  EXPECT_EQ(l.config.path, kPath);
  EXPECT_FALSE(l.config.pg_version);
  EXPECT_FALSE(l.config.fail_on);
  EXPECT_TRUE(l.config.select.empty());
  EXPECT_TRUE(l.config.extra_rules.empty());
  EXPECT_TRUE(l.config.recommendation_hints);
  EXPECT_TRUE(l.config.profile.empty());
}

TEST(ProjectConfigTest, UnknownKeyNamesItsLine) {
  EXPECT_EQ(ConfigRefusal("pg-version = 18\n\nselct = [\"PGC\"]\n"), AtLine(3, "unknown key \"selct\""));
  EXPECT_EQ(ConfigRefusal("[profil]\nram = \"1GB\"\n"), AtLine(1, "unknown key \"profil\""));
}

TEST(ProjectConfigTest, PgVersionMustBeASupportedMajor) {
  const std::string why = "pg-version must be one of 14..18";
  EXPECT_EQ(ConfigRefusal("pg-version = 12\n"), AtLine(1, why));
  EXPECT_EQ(ConfigRefusal("\npg-version = 1e300\n"), AtLine(2, why)) << "a float is not read as an integer";
  EXPECT_EQ(ConfigRefusal("pg-version = 4294967314\n"), AtLine(1, why)) << "4294967314 mod 2^32 is 18";
  EXPECT_EQ(ConfigRefusal("pg-version = 18.0\n"), AtLine(1, why));
  EXPECT_EQ(ConfigRefusal("pg-version = \"18\"\n"), AtLine(1, why));
  EXPECT_EQ(ConfigRefusal("pg-version = -18\n"), AtLine(1, why));
  for (int m : Catalog::SupportedMajors()) {
    Loaded l = Load("pg-version = " + std::to_string(m) + "\n");
    ASSERT_TRUE(l.ok) << l.error;
    EXPECT_EQ(l.config.pg_version, m);
  }
}

TEST(ProjectConfigTest, FailOnValues) {
  for (const char* v : {"error", "warning", "info", "never"}) {
    Loaded l = Load(std::string("fail-on = \"") + v + "\"\n");
    ASSERT_TRUE(l.ok) << v << ": " << l.error;
    EXPECT_EQ(l.config.fail_on, v);
  }
  const std::string why = "fail-on must be error, warning, info or never";
  EXPECT_EQ(ConfigRefusal("fail-on = \"fatal\"\n"), AtLine(1, why));
  EXPECT_EQ(ConfigRefusal("fail-on = \"Warning\"\n"), AtLine(1, why)) << "case-sensitive, as the flag";
  EXPECT_EQ(ConfigRefusal("fail-on = 1\n"), AtLine(1, why));
  EXPECT_EQ(ConfigRefusal("fail-on = \"\"\n"), AtLine(1, why));
}

TEST(ProjectConfigTest, RecommendationHintsIsABoolean) {
  EXPECT_TRUE(Load("recommendation-hints = true\n").config.recommendation_hints);
  EXPECT_EQ(ConfigRefusal("recommendation-hints = \"no\"\n"), AtLine(1, "recommendation-hints must be true or false"));
  EXPECT_EQ(ConfigRefusal("recommendation-hints = 0\n"), AtLine(1, "recommendation-hints must be true or false"));
}

TEST(ProjectConfigTest, SelectorListsAreArraysOfNonEmptyStrings) {
  for (const char* key : {"select", "ignore", "extra-rules"}) {
    const std::string k = key;
    EXPECT_EQ(ConfigRefusal(k + " = \"PGC\"\n"), AtLine(1, k + " must be an array of strings"));
    EXPECT_EQ(ConfigRefusal(k + " = [\n  \"PGC1\",\n  2,\n]\n"), AtLine(3, k + " must be an array of non-empty strings"))
        << "the line of the element";
    EXPECT_EQ(ConfigRefusal(k + " = [\"PGC1\", \"\"]\n"), AtLine(1, k + " must be an array of non-empty strings"));
    EXPECT_EQ(ConfigRefusal(k + " = [[\"PGC1\"]]\n"), AtLine(1, k + " must be an array of non-empty strings"));
  }
  Loaded l = Load("select = []\n");
  ASSERT_TRUE(l.ok) << l.error;
  EXPECT_TRUE(l.config.select.empty());
}

TEST(ProjectConfigTest, ExtraRulesResolveAgainstTheConfigsDirectory) {
  Loaded l = Load("extra-rules = [\"policies\", \"./a/../b.toml\", \"../common/org.toml\", \"/etc/pg/rules\"]\n",
                  "sub/dir/.pgconflint.toml");
  ASSERT_TRUE(l.ok) << l.error;
  EXPECT_EQ(l.config.extra_rules, (std::vector<std::string>{"/project/sub/dir/policies", "/project/sub/dir/b.toml",
                                                            "/project/sub/common/org.toml", "/etc/pg/rules"}));
}

TEST(ProjectConfigTest, ClusterIsAPathFromTheConfigsDirectory) {
  Loaded l = Load("cluster = \"../data\"\n", "sub/.pgconflint.toml");
  ASSERT_TRUE(l.ok) << l.error;
  EXPECT_EQ(l.config.cluster, "/project/data");
  const std::string why = "cluster must be a path: the data directory or postgresql.conf SQL scripts run against";
  EXPECT_EQ(ConfigRefusal("cluster = \"\"\n"), AtLine(1, why));
  EXPECT_EQ(ConfigRefusal("cluster = 5\n"), AtLine(1, why));
}

TEST(ProjectConfigTest, SeverityValues) {
  for (const char* v : {"error", "warning", "info"}) {
    Loaded l = Load(std::string("[severity]\nPGC201 = \"") + v + "\"\n");
    ASSERT_TRUE(l.ok) << v << ": " << l.error;
    Severity s;
    ASSERT_TRUE(ParseSeverity(v, &s));
    EXPECT_EQ(l.config.severity.at("PGC201"), s);
  }
  const std::string why = "severity must be error, warning or info";
  EXPECT_EQ(ConfigRefusal("[severity]\nPGC201 = \"warning\"\nPGC202 = \"fatal\"\n"), AtLine(3, why));
  EXPECT_EQ(ConfigRefusal("[severity]\nPGC201 = 2\n"), AtLine(2, why));
  EXPECT_EQ(ConfigRefusal("[severity]\nPGC201 = \"\"\n"), AtLine(2, why));
  EXPECT_EQ(ConfigRefusal("severity = \"warning\"\n"), AtLine(1, "[severity] must be a table"));
}

TEST(ProjectConfigTest, PerFileIgnoresShape) {
  EXPECT_EQ(ConfigRefusal("per-file-ignores = [\"a\"]\n"), AtLine(1, "[per-file-ignores] must be a table"));
  EXPECT_EQ(ConfigRefusal("[per-file-ignores]\n\"a.conf\" = [\"PGC1\"]\n\"b.conf\" = \"PGC1\"\n"),
            AtLine(3, "per-file-ignores values must be arrays of codes"));
  EXPECT_EQ(ConfigRefusal("[per-file-ignores.\"x.conf\"]\nPGC1 = true\n"),
            AtLine(1, "per-file-ignores values must be arrays of codes"));
  // Each selector is a non-empty string, as in select and ignore.
  EXPECT_EQ(ConfigRefusal("[per-file-ignores]\n\"a.conf\" = [\n  \"PGC1\",\n  1,\n]\n"),
            AtLine(4, "per-file-ignores values must be arrays of codes"));
  EXPECT_EQ(ConfigRefusal("[per-file-ignores]\n\"a.conf\" = [\"\"]\n"), AtLine(2, "per-file-ignores values must be arrays of codes"));
}

TEST(ProjectConfigTest, ProfileFactsAreJudgedAsTheirFlags) {
  // Each refusal carries SetProfileFact's reason (the flag's wording) at the fact's line.
  auto refusal_of = [](const std::string& key, const std::string& toml_value, const std::string& flag_value) {
    Profile scratch;
    std::string flag_error;
    EXPECT_FALSE(SetProfileFact(&scratch, key, flag_value, &flag_error)) << key << " = " << flag_value;
    EXPECT_EQ(ConfigRefusal("[profile]\n" + key + " = " + toml_value + "\n"), AtLine(2, flag_error)) << key;
  };
  refusal_of("ram", "\"16\"", "16");
  refusal_of("ram", "\"16gb\"", "16gb");
  refusal_of("ram", "nan", "nan");
  refusal_of("ram", "1e300", "1e+300");
  refusal_of("ram", "inf", "inf");
  refusal_of("cpus", "0", "0");
  refusal_of("cpus", "2.5", "2.5");
  refusal_of("storage", "\"floppy\"", "floppy");
  refusal_of("workload", "\"OLTP\"", "OLTP");
  refusal_of("io-uring", "\"maybe\"", "maybe");
  refusal_of("headroom", "1.0", "1");
  refusal_of("nodes-per-query", "-inf", "-inf");
  refusal_of("rma", "\"64GB\"", "64GB");
  EXPECT_EQ(ConfigRefusal("[profile]\nram = [\"64GB\"]\n"), AtLine(2, "profile.ram must be a string, number or boolean"));
  EXPECT_EQ(ConfigRefusal("profile = \"big\"\n"), AtLine(1, "[profile] must be a table"));
}

TEST(ProjectConfigTest, ProfileTablespaces) {
  EXPECT_EQ(ConfigRefusal("[profile]\ntablespaces = \"archive=hdd\"\n"),
            AtLine(2, "[profile.tablespaces] must be a table of name = \"storage\""));
  EXPECT_EQ(ConfigRefusal("[profile.tablespaces]\narchive = \"hdd\"\ncold = 3\n"),
            AtLine(3, "tablespace storage must be a string"));
  Profile scratch;
  std::string flag_error;
  ASSERT_FALSE(SetProfileFact(&scratch, "tablespace", "archive=floppy", &flag_error));
  EXPECT_EQ(ConfigRefusal("[profile.tablespaces]\narchive = \"floppy\"\n"), AtLine(2, flag_error));
}

TEST(ProjectConfigTest, TomlSyntaxErrorNamesItsLine) {
  // The cause is toml++'s; the place is ours.
  EXPECT_EQ(ConfigRefusal("pg-version = 18\nselect = [\"PGC\"\n").rfind(AtLine(2, ""), 0), 0u) << "an unclosed array";
  EXPECT_EQ(ConfigRefusal("a = = 1\n").rfind(AtLine(1, ""), 0), 0u);
  std::string twice = ConfigRefusal("pg-version = 17\npg-version = 18\n");
  EXPECT_EQ(twice.rfind(AtLine(2, ""), 0), 0u) << twice;
  EXPECT_NE(twice.find("pg-version"), std::string::npos) << twice;
}

TEST(ProjectConfigTest, MissingFileIsAnError) {
  FakeDisk disk;
  ProjectConfig c;
  std::string error;
  EXPECT_FALSE(LoadProjectConfig(disk.fs(), "/project/.pgconflint.toml", &c, &error));
  EXPECT_EQ(error.rfind("/project/.pgconflint.toml: ", 0), 0u) << error;
  disk.Write("dir/x", "");
  EXPECT_FALSE(LoadProjectConfig(disk.fs(), "/project/dir", &c, &error)) << "a directory";
}

TEST(ProjectConfigTest, FindWalksUpToTheNearestFile) {
  FakeDisk disk;
  disk.Write("a/b/c/postgresql.conf", "");
  EXPECT_EQ(FindProjectConfig(disk.fs(), "/project/a/b/c/postgresql.conf"), "") << "none anywhere";
  disk.Write(".pgconflint.toml", "");
  EXPECT_EQ(FindProjectConfig(disk.fs(), "/project/a/b/c/postgresql.conf"), "/project/.pgconflint.toml");
  EXPECT_EQ(FindProjectConfig(disk.fs(), "/project/a/b/c"), "/project/.pgconflint.toml") << "from a directory";
  disk.Write("a/b/.pgconflint.toml", "");
  EXPECT_EQ(FindProjectConfig(disk.fs(), "/project/a/b/c/postgresql.conf"), "/project/a/b/.pgconflint.toml");
  EXPECT_EQ(FindProjectConfig(disk.fs(), "/project/a/b"), "/project/a/b/.pgconflint.toml");
  EXPECT_EQ(FindProjectConfig(disk.fs(), "/project/a/x.conf"), "/project/.pgconflint.toml");
  EXPECT_EQ(FindProjectConfig(disk.fs(), "a/b/c/postgresql.conf"), "/project/a/b/.pgconflint.toml")
      << "relative to the file system's current directory";
  EXPECT_EQ(FindProjectConfig(disk.fs(), ""), "/project/.pgconflint.toml") << "empty: the current directory";
}

TEST(ProjectConfigTest, FindStopsAtTheRoot) {
  FakeDisk disk;
  disk.Write("/srv/pg/postgresql.conf", "");
  EXPECT_EQ(FindProjectConfig(disk.fs(), "/srv/pg/postgresql.conf"), "");
  EXPECT_EQ(FindProjectConfig(disk.fs(), "/"), "");
  disk.Write("/.pgconflint.toml", "");
  EXPECT_EQ(FindProjectConfig(disk.fs(), "/srv/pg/postgresql.conf"), "/.pgconflint.toml");
  EXPECT_EQ(FindProjectConfig(disk.fs(), "/"), "/.pgconflint.toml");
  // A directory named .pgconflint.toml is no configuration file.
  FakeDisk other;
  other.Write("/srv/.pgconflint.toml/x", "");
  other.Write("/srv/pg/postgresql.conf", "");
  EXPECT_EQ(FindProjectConfig(other.fs(), "/srv/pg/postgresql.conf"), "");
}

TEST(ProjectConfigTest, IncludeAndExcludeGlobs) {
  Loaded l = Load("include = [\"deploy/pg/*.conf\"]\nexclude = [\"legacy/\", \"*.sample.conf\"]\n");
  ASSERT_TRUE(l.ok) << l.error;
  const ProjectConfig& c = l.config;
  EXPECT_TRUE(MatchesGlobs(c, c.exclude, "/project/legacy/a/postgresql.conf"));
  EXPECT_TRUE(MatchesGlobs(c, c.exclude, "/project/x/y.sample.conf"));
  EXPECT_FALSE(MatchesGlobs(c, c.exclude, "/project/legacyx/postgresql.conf"));
  EXPECT_TRUE(MatchesGlobs(c, c.include, "/project/deploy/pg/tuning.conf"));
  EXPECT_FALSE(MatchesGlobs(c, c.include, "/project/nginx/nginx.conf"));
}

TEST(ProjectConfigTest, GlobsMustBeStrings) {
  std::string error = ConfigRefusal("exclude = [1]\n");
  EXPECT_NE(error.find("exclude must be an array of non-empty strings"), std::string::npos) << error;
}

}  // namespace
}  // namespace pgconflint
