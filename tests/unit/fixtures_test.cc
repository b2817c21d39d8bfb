// Rule fixtures (IWYU's and clang-tidy's lit-style tests): every
// tests/fixtures/rules/*.conf is a configuration file whose comments say what
// must be reported, and one parameterized test lints each of them.
//
// The format, in comments (a comment runs from a '#' outside a quoted value to
// the end of the line, as in guc-file.l):
//
//   # profile: ram=64GB,cpus=16,storage=nvme   machine profile facts, as
//                                               SetProfileFact takes them
//   # pg-version: 17                            the major (default: Catalog::DefaultMajor())
//   work_mem = 10  # expect: PGC202             codes reported on this line
//   wal_buffers = 2  # expect: PGC203, PGC204   several codes, comma-separated
//   work_mem = '64kB'  # near-miss: PGC202      looks like PGC202 but must not fire
//
// `profile:` and `pg-version:` are comments on a line of their own, anywhere in
// the file. A directory named *.datadir is a data-directory fixture: it is
// linted as a data directory (postgresql.conf, pg_hba.conf, pg_ident.conf...),
// every file it reads carries its own annotations, and `profile:` and
// `pg-version:` may stand in any of them. `expect:` and `near-miss:` are read from the text after the last
// '#' of a comment, so they can follow a `# pgconflint: disable=...` directive
// (whose text ends at the next '#'): `x = 1  # pgconflint: disable=PGC204  #
// expect: PGC901`. Both may share it: `# expect: PGC404; near-miss: PGC701`,
// and a note in parentheses may end either: `# near-miss: PGC204 (-1: auto)`.
//
// The findings must match the expectations exactly, per (file, line, code) and
// counting repeats: a code listed once must be reported once, and a line
// without `expect:` must get no finding. A rule about several settings is
// reported at the first parameter of its `anchor` list that the file sets;
// with none set, it is about the default: only for a root named like
// postgresql.conf (a whole configuration), at the commented-out line of the
// parameter (`#shared_buffers = 128MB`), else at the root file's last line. Included files (in
// subdirectories, which the test does not lint on their own) carry their own
// `expect:` comments; a file included twice counts them once. `near-miss:`
// documents the rules a line was written to almost trigger; a test checks that
// every built-in rule has at least one `expect:` and one `near-miss:`.
//
// tests/fixtures/sql/*.sql are SQL scripts with the same annotations in `--`
// comments (`ALTER SYSTEM SET work_mem = 64MB;  -- expect: PGC1001`), linted
// alone as `pgconflint check SCRIPT.sql` does. The rules about running
// servers (example_kind "snapshot" or "drift") are tested by their examples
// and against real servers (tests/integration/test_live.py), not here.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <system_error>
#include <tuple>
#include <vector>

#include "core/model/analysis.h"
#include "core/knowledge/catalog.h"
#include "core/workspace/workspace.h"
#include "core/rules/profile.h"
#include "core/rules/rules.h"

namespace pgconflint {
namespace {

namespace fs = std::filesystem;

// Canonical, as the analysis spells the paths of the files it reads.
const fs::path& FixtureDir() {
  static const fs::path dir = CanonicalizePath(std::string(PGC_SOURCE_DIR) + "/tests/fixtures/rules");
  return dir;
}

std::string ReadAll(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

std::string Trim(std::string_view s) {
  size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string_view::npos) return "";
  size_t e = s.find_last_not_of(" \t\r");
  return std::string(s.substr(b, e - b + 1));
}

std::vector<std::string> SplitList(std::string_view s, char sep) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= s.size()) {
    size_t end = s.find(sep, start);
    std::string item = Trim(s.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
    if (!item.empty()) out.push_back(item);
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return out;
}

// `expect: A; near-miss: B (a note; with semicolons)` -> its clauses: ';'
// separates them outside parentheses.
std::vector<std::string> SplitClauses(std::string_view s) {
  std::vector<std::string> out;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i <= s.size(); ++i) {
    if (i < s.size() && s[i] == '(') ++depth;
    if (i < s.size() && s[i] == ')' && depth > 0) --depth;
    if (i == s.size() || (s[i] == ';' && depth == 0)) {
      std::string clause = Trim(s.substr(start, i - start));
      if (!clause.empty()) out.push_back(clause);
      start = i + 1;
    }
  }
  return out;
}

// Where the `--` comment of a SQL line starts, or npos: outside '...' (with
// '' inside, and backslash escapes in E'...') and "...".
size_t SqlCommentStart(std::string_view line) {
  char quote = 0;
  bool escapes = false;
  for (size_t i = 0; i < line.size(); ++i) {
    if (quote) {
      if (escapes && line[i] == '\\') ++i;
      else if (line[i] == quote) quote = 0;
    } else if (line[i] == '\'' || line[i] == '"') {
      quote = line[i];
      escapes = quote == '\'' && i > 0 && (line[i - 1] == 'E' || line[i - 1] == 'e');
    } else if (line.substr(i, 2) == "--") {
      return i;
    }
  }
  return std::string_view::npos;
}

// Where the comment of `line` starts, or npos. As guc-file.l: a quoted value is
// '...' with '' and backslash escapes on one line; an unterminated quote is a
// lone character, so a '#' after it still starts a comment.
size_t CommentStart(std::string_view line) {
  for (size_t i = 0; i < line.size(); ++i) {
    if (line[i] == '#') return i;
    if (line[i] != '\'') continue;
    for (size_t j = i + 1; j < line.size(); ++j) {
      if (line[j] == '\\') {
        ++j;
      } else if (line[j] == '\'') {
        if (j + 1 < line.size() && line[j + 1] == '\'') {
          ++j;
        } else {
          i = j;
          break;
        }
      }
    }
  }
  return std::string_view::npos;
}

// The annotations of one fixture file.
struct Annotations {
  std::string profile;  // "ram=64GB,cpus=16"
  int major = 0;        // 0: the default
  std::map<uint32_t, std::vector<std::string>> expect;     // line -> codes (repeats count)
  std::map<uint32_t, std::vector<std::string>> near_miss;  // line -> codes
  std::vector<std::string> errors;                         // malformed annotations
};

// `sql`: the comments are SQL's `--` (else postgresql.conf's `#`).
Annotations ParseAnnotations(const std::string& text, bool sql = false) {
  Annotations out;
  std::istringstream in(text);
  std::string line;
  const std::string marker = sql ? "--" : "#";
  for (uint32_t n = 1; std::getline(in, line); ++n) {
    size_t hash = sql ? SqlCommentStart(line) : CommentStart(line);
    if (hash == std::string::npos) continue;
    std::string where = "line " + std::to_string(n) + ": ";
    bool own_line = Trim(std::string_view(line).substr(0, hash)).empty();
    std::string body = Trim(std::string_view(line).substr(hash + marker.size()));
    if (own_line && body.rfind("profile:", 0) == 0) {
      out.profile = Trim(std::string_view(body).substr(8));
      continue;
    }
    if (own_line && body.rfind("pg-version:", 0) == 0) {
      out.major = atoi(Trim(std::string_view(body).substr(11)).c_str());
      if (!Catalog::ForMajor(out.major)) out.errors.push_back(where + "no catalog for pg-version " + body);
      continue;
    }
    std::string tail = Trim(std::string_view(line).substr(line.rfind(marker) + marker.size()));
    if (tail.rfind("expect", 0) != 0 && tail.rfind("near-miss", 0) != 0) continue;
    for (const std::string& clause : SplitClauses(tail)) {
      size_t colon = clause.find(':');
      std::string key = Trim(std::string_view(clause).substr(0, colon));
      if (colon == std::string::npos || (key != "expect" && key != "near-miss")) {
        out.errors.push_back(where + "expected `expect: CODES` or `near-miss: CODES`, got \"" + clause + "\"");
        continue;
      }
      std::string list = clause.substr(colon + 1);
      list = list.substr(0, list.find('('));  // a note may follow: `near-miss: PGC204 (-1 means auto)`
      std::vector<std::string> codes = SplitList(list, ',');
      if (codes.empty()) out.errors.push_back(where + "`" + key + ":` lists no code");
      for (const std::string& code : codes) {
        const RuleInfo* r = FindRule(code);
        if (!r || code != r->code) out.errors.push_back(where + "\"" + code + "\" is not a built-in rule code");
        (key == "expect" ? out.expect : out.near_miss)[n].push_back(code);
      }
    }
    if (out.expect.count(n) && out.near_miss.count(n))
      for (const std::string& code : out.near_miss[n])
        if (std::count(out.expect[n].begin(), out.expect[n].end(), code))
          out.errors.push_back(where + code + " is both expected and a near miss");
  }
  return out;
}

// The files named *`ext` directly in `dir` and, when `dir_ext` is given, the
// directories named *`dir_ext`, by name (other subdirectories hold files that
// fixtures include, and the clusters of SQL fixtures).
std::vector<std::string> FilesIn(const fs::path& dir, const std::string& ext, const std::string& dir_ext = "") {
  std::vector<std::string> names;
  std::error_code ec;
  for (const fs::directory_entry& e : fs::directory_iterator(dir, ec))
    if ((e.is_regular_file() && e.path().extension() == ext) ||
        (!dir_ext.empty() && e.is_directory() && e.path().extension() == dir_ext))
      names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

// Every *.conf and *.datadir directly in the fixture directory.
std::vector<std::string> FixtureNames() { return FilesIn(FixtureDir(), ".conf", ".datadir"); }

const fs::path& SqlFixtureDir() {
  static const fs::path dir = CanonicalizePath(std::string(PGC_SOURCE_DIR) + "/tests/fixtures/sql");
  return dir;
}

std::vector<std::string> SqlFixtureNames() { return FilesIn(SqlFixtureDir(), ".sql"); }

// A test's name from a fixture's file name: the stem, with '_' for every
// character gtest does not allow.
std::string TestName(const testing::TestParamInfo<std::string>& info) {
  std::string name = info.param.substr(0, info.param.rfind('.'));
  for (char& c : name)
    if (!isalnum(static_cast<unsigned char>(c))) c = '_';
  return name;
}

// One finding or expectation: file (relative to the fixture directory), line, code.
using Key = std::tuple<std::string, uint32_t, std::string>;

std::string Show(const Key& k, const std::string& dir = "rules") {
  return "tests/fixtures/" + dir + "/" + std::get<0>(k) + ":" + std::to_string(std::get<1>(k)) + ": " + std::get<2>(k);
}

// Control bytes of a message escaped, so that a garbled message still prints.
std::string Printable(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (static_cast<unsigned char>(c) >= 0x20 && c != 0x7f) {
      out += c;
    } else {
      char buf[8];
      snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned char>(c));
      out += buf;
    }
  }
  return out;
}

class FixtureTest : public testing::TestWithParam<std::string> {};

// The findings of `a` against the annotations of the files it read (`root`
// stands for the file or directory `path` itself).
void CompareWithAnnotations(const Analysis& a, const fs::path& path, const Annotations& root);

// A data-directory fixture's analysis, through the workspace (every file kind).
Analysis LintDataDirectory(const fs::path& dir, Annotations* root) {
  std::error_code ec;
  for (const fs::directory_entry& e : fs::directory_iterator(dir, ec)) {
    if (!e.is_regular_file()) continue;
    Annotations ann = ParseAnnotations(ReadAll(e.path()));
    if (!ann.profile.empty()) root->profile = ann.profile;
    if (ann.major) root->major = ann.major;
  }
  WorkspaceOptions o;
  o.use_config = false;
  o.pg_version = root->major;
  for (const std::string& fact : SplitList(root->profile, ',')) {
    size_t eq = fact.find('=');
    if (eq != std::string::npos) o.profile_facts.emplace_back(fact.substr(0, eq), fact.substr(eq + 1));
  }
  // A running server's rows to compare with (PGC845), when the fixture has them.
  static std::vector<ServerHbaRule> hba;
  static std::vector<ServerIdentMapping> ident;
  hba.clear();
  ident.clear();
  std::string error;
  if (fs::exists(dir / "pg_hba_file_rules.json")) {
    EXPECT_TRUE(ParseServerHbaRules(ReadAll(dir / "pg_hba_file_rules.json"), &hba, &error)) << error;
    o.server_hba = &hba;
  }
  if (fs::exists(dir / "pg_ident_file_mappings.json")) {
    EXPECT_TRUE(ParseServerIdentMappings(ReadAll(dir / "pg_ident_file_mappings.json"), &ident, &error)) << error;
    o.server_ident = &ident;
  }
  Workspace ws(o);
  Analysis a;
  EXPECT_TRUE(ws.Lint(dir.string(), &a, &error)) << error;
  return a;
}

TEST_P(FixtureTest, FindingsMatchExpectations) {
  const fs::path path = FixtureDir() / GetParam();
  if (fs::is_directory(path)) {
    Annotations root;
    Analysis a = LintDataDirectory(path, &root);
    ASSERT_EQ(a.failure, Analysis::Failure::kNone) << a.failure_message;
    CompareWithAnnotations(a, path, root);
    return;
  }
  const std::string text = ReadAll(path);
  Annotations root = ParseAnnotations(text);
  for (const std::string& e : root.errors) ADD_FAILURE() << GetParam() << ": " << e;

  Profile profile;
  for (const std::string& fact : SplitList(root.profile, ',')) {
    size_t eq = fact.find('=');
    std::string error;
    ASSERT_TRUE(eq != std::string::npos && SetProfileFact(&profile, fact.substr(0, eq), fact.substr(eq + 1), &error))
        << GetParam() << ": bad profile fact \"" << fact << "\" " << error;
  }
  const Catalog* catalog = Catalog::ForMajor(root.major ? root.major : Catalog::DefaultMajor());
  ASSERT_NE(catalog, nullptr);
  static const RuleSet rules;
  // The real path, so that relative includes resolve next to the fixture.
  Analysis a = LintText(path.string(), text, *catalog, rules, profile);
  ASSERT_EQ(a.failure, Analysis::Failure::kNone) << a.failure_message;
  CompareWithAnnotations(a, path, root);
}

void CompareWithAnnotations(const Analysis& a, const fs::path& path, const Annotations& root) {
  auto rel = [](const std::string& p) { return fs::path(p).lexically_relative(FixtureDir()).string(); };
  std::multiset<Key> expected;
  std::set<std::string> seen_files;
  for (const LoadedFile& f : a.files) {
    if (!seen_files.insert(f.abs_path).second) continue;  // read twice: expectations count once
    Annotations ann = f.abs_path == path.string() ? root : ParseAnnotations(f.source.text());
    if (f.abs_path != path.string())
      for (const std::string& e : ann.errors) ADD_FAILURE() << rel(f.abs_path) << ": " << e;
    for (const auto& [line, codes] : ann.expect)
      for (const std::string& code : codes) expected.insert({rel(f.abs_path), line, code});
  }

  std::multimap<Key, std::string> got;  // -> message
  for (const Diagnostic& d : a.diagnostics) {
    if (d.file < 0) {
      ADD_FAILURE() << path.filename().string() << ": " << d.rule->code << " not tied to a file: " << Printable(d.message);
      continue;
    }
    const LoadedFile& f = a.files[d.file];
    got.insert({{rel(f.abs_path), f.source.LineOf(d.range.begin), d.rule->code}, d.message});
  }

  // Multiset differences, both ways.
  std::multiset<Key> remaining = expected;
  std::ostringstream unexpected, missing;
  for (const auto& [key, message] : got) {
    auto it = remaining.find(key);
    if (it != remaining.end()) remaining.erase(it);
    else unexpected << "\n  " << Show(key) << " " << Printable(message);
  }
  for (const Key& key : remaining) missing << "\n  " << Show(key);
  EXPECT_TRUE(unexpected.str().empty()) << "reported but not expected:" << unexpected.str();
  EXPECT_TRUE(missing.str().empty()) << "expected but not reported:" << missing.str();
}

INSTANTIATE_TEST_SUITE_P(Fixtures, FixtureTest, testing::ValuesIn(FixtureNames()), TestName);

class SqlFixtureTest : public testing::TestWithParam<std::string> {};

// A script, linted as `pgconflint check --no-config SCRIPT.sql` does: alone,
// or, when a directory NAME.cluster/ is next to NAME.sql, with `--cluster`
// that data directory (whose files carry their own `# expect:` comments).
TEST_P(SqlFixtureTest, FindingsMatchExpectations) {
  const fs::path path = SqlFixtureDir() / GetParam();
  Annotations ann = ParseAnnotations(ReadAll(path), true);
  for (const std::string& e : ann.errors) ADD_FAILURE() << GetParam() << ": " << e;
  WorkspaceOptions wo;
  wo.use_config = false;
  wo.pg_version = ann.major;
  const fs::path cluster = SqlFixtureDir() / (path.stem().string() + ".cluster");
  if (fs::is_directory(cluster)) wo.sql_cluster = cluster.string();
  for (const std::string& fact : SplitList(ann.profile, ',')) {
    size_t eq = fact.find('=');
    ASSERT_NE(eq, std::string::npos) << GetParam() << ": bad profile fact \"" << fact << "\"";
    wo.profile_facts.push_back({fact.substr(0, eq), fact.substr(eq + 1)});
  }
  Workspace ws(wo);
  Analysis a;
  std::string error;
  ASSERT_TRUE(ws.Lint(path.string(), &a, &error)) << error;
  ASSERT_EQ(a.failure, Analysis::Failure::kNone) << a.failure_message;
  auto rel = [](const std::string& p) { return fs::path(p).lexically_relative(SqlFixtureDir()).string(); };
  std::multiset<Key> expected, got;
  std::set<std::string> seen_files;
  for (const LoadedFile& f : a.files) {
    if (!seen_files.insert(f.abs_path).second) continue;
    Annotations fa = f.abs_path == path.string() ? ann : ParseAnnotations(f.source.text());
    for (const auto& [line, codes] : fa.expect)
      for (const std::string& code : codes) expected.insert({rel(f.abs_path), line, code});
  }
  std::ostringstream unexpected;
  for (const Diagnostic& d : a.diagnostics) {
    ASSERT_GE(d.file, 0) << d.rule->code << " not tied to a file: " << Printable(d.message);
    const LoadedFile& f = a.files[d.file];
    Key key{rel(f.abs_path), f.source.LineOf(d.range.begin), d.rule->code};
    got.insert(key);
    if (!expected.count(key)) unexpected << "\n  " << Show(key, "sql") << " " << Printable(d.message);
  }
  std::ostringstream missing;
  for (const Key& key : expected)
    if (got.count(key) < expected.count(key)) missing << "\n  " << Show(key, "sql");
  EXPECT_EQ(got, expected) << "reported but not expected:" << unexpected.str() << "\nexpected but not reported:"
                           << missing.str();
}

INSTANTIATE_TEST_SUITE_P(SqlFixtures, SqlFixtureTest, testing::ValuesIn(SqlFixtureNames()), TestName);

TEST(FixtureCoverageTest, FixturesExist) { EXPECT_GE(FixtureNames().size(), 13u) << FixtureDir(); }

// No built-in rule goes untested by fixtures: each is expected somewhere, and
// has a near miss somewhere.
TEST(FixtureCoverageTest, EveryBuiltinRuleFiresAndHasANearMiss) {
  std::set<std::string> expected, near_miss;
  std::error_code ec;
  for (const fs::directory_entry& e : fs::recursive_directory_iterator(FixtureDir(), ec)) {
    if (!e.is_regular_file()) continue;
    Annotations ann = ParseAnnotations(ReadAll(e.path()));
    for (const auto& [line, codes] : ann.expect) expected.insert(codes.begin(), codes.end());
    for (const auto& [line, codes] : ann.near_miss) near_miss.insert(codes.begin(), codes.end());
  }
  ASSERT_FALSE(ec) << ec.message();
  for (const fs::directory_entry& e : fs::recursive_directory_iterator(SqlFixtureDir(), ec)) {
    if (!e.is_regular_file()) continue;
    Annotations ann = ParseAnnotations(ReadAll(e.path()), e.path().extension() == ".sql");
    for (const auto& [line, codes] : ann.expect) expected.insert(codes.begin(), codes.end());
    for (const auto& [line, codes] : ann.near_miss) near_miss.insert(codes.begin(), codes.end());
  }
  for (const RuleInfo& r : BuiltinRules()) {
    const std::string kind = r.example_kind;
    if (kind == "snapshot" || kind == "drift") continue;  // about running servers: see the top
    EXPECT_TRUE(expected.count(r.code)) << r.code << " " << r.name << ": no fixture line has `# expect: " << r.code
                                        << "`";
    EXPECT_TRUE(near_miss.count(r.code)) << r.code << " " << r.name << ": no fixture line has `# near-miss: "
                                         << r.code << "`";
  }
}

}  // namespace
}  // namespace pgconflint
