// `pgconflint recommend` held to its promises over the whole profile space:
// the conf rendering passes `check` under the same profile, every recommended
// value is a valid value of its parameter and lies in its own range, and the
// SQL renderings quote values and identifiers the way PostgreSQL reads them.
// The real-server side (postgres -C, ALTER SYSTEM on a running 18) is in
// tests/integration/test_recommend.py.
#include "core/advice/recommend.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <map>
#include <set>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "core/knowledge/catalog.h"
#include "core/model/effective.h"
#include "core/workspace/workspace.h"
#include "core/advice/recommend_render.h"
#include "core/base/quantity.h"
#include "core/sql/sql_quote.h"
#include "core/rules/rules.h"
#include "core/knowledge/value.h"
#include "test_support.h"

namespace pgconflint {
namespace {

using namespace test;

const std::vector<Storage> kStorages = Storage::All();

// A storage type of knowledge/storage.toml by name.
Storage S(const char* name) {
  std::optional<Storage> s = Storage::Named(name);
  EXPECT_TRUE(s.has_value()) << name;
  return s.value_or(Storage());
}

// The profile as `pgconflint recommend` flags, for failure messages.
std::string Describe(const Profile& p, int major) {
  std::ostringstream o;
  o << "--pg-version " << major;
  if (p.ram_bytes) o << " --ram " << static_cast<long long>(*p.ram_bytes / kMB) << "MB";
  if (p.cpus) o << " --cpus " << *p.cpus;
  if (p.storage) o << " --storage " << StorageName(*p.storage);
  if (p.workload) o << " --workload " << WorkloadName(*p.workload);
  if (p.connections) o << " --connections " << *p.connections;
  for (const auto& [n, s] : p.tablespaces) o << " --tablespace '" << n << "=" << StorageName(s) << "'";
  if (p.io_uring) o << " --io-uring " << (*p.io_uring ? "yes" : "no");
  if (p.os) o << " --os " << *p.os;
  if (p.container) o << " --container " << ContainerName(*p.container);
  if (p.headroom) o << " --headroom " << *p.headroom;
  if (p.nodes_per_query) o << " --nodes-per-query " << *p.nodes_per_query;
  return o.str();
}

// Where the recommendations are linted: a directory that is on no disk and in
// no git work tree, so that a lint reads only the text. A name relative to the
// working directory (inside the repository under CTest) made every lint walk
// the whole work tree, build trees included: the unit tests took 37 s, 7.5 s
// without it.
constexpr const char* kLintedConf = "/recommend-test/recommend.conf";

// Warnings and errors of the conf rendering linted under the same profile.
std::vector<std::string> LintProblems(const Recommendation& r, const std::string& conf) {
  const Catalog& cat = *Catalog::ForMajor(r.major);
  Analysis a = LintText(kLintedConf, conf, cat, TheRuleSet(), r.profile);
  std::vector<std::string> out;
  if (a.failure != Analysis::Failure::kNone) out.push_back("analysis failure: " + a.failure_message);
  for (const Diagnostic& d : a.diagnostics)
    if (d.severity() == Severity::kError || d.severity() == Severity::kWarning)
      out.push_back(std::string(SeverityName(d.severity())) + " " + d.rule->code + ": " + d.message);
  return out;
}

// Every cell of the recommendation with where it came from.
std::vector<std::pair<std::string, const Cell*>> AllCells(const Recommendation& r) {
  std::vector<std::pair<std::string, const Cell*>> v;
  for (const Cell& c : r.machine) v.push_back({"machine", &c});
  for (const StorageRow& row : r.matrix)
    for (const Cell& c : row.cells) v.push_back({"storage " + StorageName(row.storage), &c});
  for (const Cell& c : r.autovacuum) v.push_back({"autovacuum", &c});
  for (const TablespaceAdvice& t : r.tablespaces)
    for (const Cell& c : t.options) v.push_back({"tablespace " + t.name, &c});
  for (const TableClass& t : r.tables)
    for (const Cell& c : t.options) v.push_back({"table class " + t.label, &c});
  return v;
}

// Problems with one cell: its value (and min/max) must be valid values of the
// parameter, and a min..max range must hold the value.
// Each problem is keyed by "parameter: what" so that a sweep can report each
// kind once.
struct Problem {
  std::string key, text;
};

std::vector<Problem> CellProblems(const Catalog& cat, const std::string& where, const Cell& c) {
  std::vector<Problem> out;
  auto bad = [&](const std::string& what) {
    out.push_back({c.parameter + ": " + what, where + ": " + c.parameter + " = " + c.value + " (min \"" + c.min +
                                                  "\", max \"" + c.max + "\"): " + what});
  };
  const Parameter* p = cat.Find(c.parameter);
  if (!p) {
    bad("not a parameter of PostgreSQL " + std::to_string(cat.major()));
    return out;
  }
  ParsedValue v = ParseValue(cat, *p, c.value);
  if (!v.ok()) bad("value refused: " + v.message);
  if (v.ok() && v.rounded) bad("value is rounded by the server to " + v.normalized);
  std::optional<ParsedValue> lo, hi;
  if (!c.min.empty()) {
    lo = ParseValue(cat, *p, c.min);
    if (!lo->ok()) bad("min refused: " + lo->message);
  }
  if (!c.max.empty()) {
    hi = ParseValue(cat, *p, c.max);
    if (!hi->ok()) bad("max refused: " + hi->message);
  }
  bool numeric = p->type == VarType::kInteger || p->type == VarType::kReal;
  if (!c.max.empty() && c.min.empty()) bad("a max without a min");
  if (numeric && v.ok() && lo && hi && lo->ok() && hi->ok()) {
    if (lo->number > hi->number) bad("inverted range");
    if (v.number < lo->number || v.number > hi->number) bad("value outside its own range");
  }
  return out;
}

// Parses the identifier after "ALTER TABLESPACE " as PostgreSQL would:
// "..." with "" for a quote, else folded to lower case up to the blank.
std::string TablespaceIdentifier(const std::string& sql, bool* quoted) {
  const std::string head = "ALTER TABLESPACE ";
  if (sql.rfind(head, 0) != 0) return "<no ALTER TABLESPACE>";
  size_t i = head.size();
  std::string name;
  *quoted = i < sql.size() && sql[i] == '"';
  if (*quoted) {
    for (++i; i < sql.size(); ++i) {
      if (sql[i] == '"') {
        if (i + 1 < sql.size() && sql[i + 1] == '"') {
          name += '"';
          ++i;
          continue;
        }
        break;
      }
      name += sql[i];
    }
    if (i + 1 >= sql.size() || sql[i + 1] != ' ') return "<unterminated or junk after the identifier>";
    return name;
  }
  for (; i < sql.size() && sql[i] != ' '; ++i) name += static_cast<char>(tolower(static_cast<unsigned char>(sql[i])));
  return name;
}

// PostgreSQL 18's reserved keywords and those that cannot be a tablespace name
// unquoted (pg_get_keywords() catcode R and T; ColId accepts only U and C).
bool NeedsQuotingAsKeyword(const std::string& w) {
  static const char* const kWords[] = {
      "all", "analyse", "analyze", "and", "any", "array", "as", "asc", "asymmetric", "both", "case", "cast",
      "check", "collate", "column", "constraint", "create", "current_catalog", "current_date", "current_role",
      "current_time", "current_timestamp", "current_user", "default", "deferrable", "desc", "distinct", "do",
      "else", "end", "except", "false", "fetch", "for", "foreign", "from", "grant", "group", "having", "in",
      "initially", "intersect", "into", "lateral", "leading", "limit", "localtime", "localtimestamp", "not",
      "null", "offset", "on", "only", "or", "order", "placing", "primary", "references", "returning", "select",
      "session_user", "some", "symmetric", "system_user", "table", "then", "to", "trailing", "true", "union",
      "unique", "user", "using", "variadic", "when", "where", "window", "with",
      // type_func_name keywords
      "authorization", "binary", "collation", "concurrently", "cross", "current_schema", "freeze", "full",
      "ilike", "inner", "is", "isnull", "join", "left", "like", "natural", "notnull", "outer", "overlaps",
      "right", "similar", "tablesample", "verbose"};
  for (const char* k : kWords)
    if (w == k) return true;
  return false;
}

// --- Generators ---------------------------------------------------------------

rc::Gen<std::string> TablespaceName() {
  return rc::gen::oneOf(
      rc::gen::element<std::string>("fast", "archive", "iscsi", "ts_1", "Cold Archive", "table", "user", "o\"q",
                                    "pg_default", "nvme2"),
      rc::gen::suchThat(rc::gen::container<std::string>(
                            rc::gen::element('a', 'b', 'z', '_', '0', '9', 'X', ' ', '"', '\'', '-', '.')),
                        [](const std::string& s) { return !s.empty() && s.size() <= 20; }));
}

struct RecommendCase {
  Profile profile;
  int major;
};

// The profile space of the issue: RAM 256MB..1TB, 1..128 CPUs, every storage,
// every workload, connections 5..5000 or none, 0..3 tablespaces, io_uring
// yes/no/unknown, PostgreSQL 14..18; plus the OS and container facts that
// steer io_method. The memory-model knobs keep their defaults here.
RecommendCase GenCase() {
  RecommendCase c;
  Profile& p = c.profile;
  // Log-spread RAM in MB: as many small machines as big ones.
  int ram_mb = *rc::gen::oneOf(rc::gen::inRange(256, 1024 + 1), rc::gen::inRange(1024, 8 * 1024 + 1),
                               rc::gen::inRange(8 * 1024, 64 * 1024 + 1), rc::gen::inRange(64 * 1024, 1024 * 1024 + 1));
  p.ram_bytes = ram_mb * kMB;
  p.cpus = *rc::gen::oneOf(rc::gen::inRange(1, 9), rc::gen::inRange(1, 129));
  if (*rc::gen::inRange(0, 8) != 0) p.storage = *rc::gen::elementOf(kStorages);
  if (*rc::gen::inRange(0, 8) != 0) p.workload = *rc::gen::elementOf(AllWorkloads());
  if (*rc::gen::arbitrary<bool>()) p.connections = *rc::gen::inRange(5, 5001);
  int n = *rc::gen::inRange(0, 4);
  for (int i = 0; i < n; ++i) p.tablespaces[*TablespaceName()] = *rc::gen::elementOf(kStorages);
  int uring = *rc::gen::inRange(0, 3);
  if (uring) p.io_uring = uring == 1;
  int os = *rc::gen::inRange(0, 6);
  static const char* const kOs[] = {"linux", "freebsd", "macos", "windows"};
  if (os < 4) p.os = kOs[os];
  int container = *rc::gen::inRange(0, 5);
  if (container < 3) p.container = static_cast<ContainerKind>(container);
  c.major = *rc::gen::inRange(14, 19);
  return c;
}

// --- Properties -----------------------------------------------------------------

// Recommend, or the one refusal allowed: connections the profile gives are
// never lowered, so when they do not fit even at the smallest work_mem the
// recommender refuses with the numbers and the choices.
bool RecommendOrRefuse(const RecommendCase& c, const Catalog& cat, Recommendation* r) {
  std::string error;
  if (Recommend(c.profile, cat, r, &error)) return true;
  RC_ASSERT(c.profile.connections.has_value());
  RC_ASSERT(error.find("do not fit") != std::string::npos);
  RC_ASSERT(error.find("pooler") != std::string::npos);
  return false;
}

RC_GTEST_PROP(RecommendProperty, ConfPassesCheckUnderTheSameProfile, ()) {
  RecommendCase c = GenCase();
  const Catalog* cat = Catalog::ForMajor(c.major);
  RC_ASSERT(cat != nullptr);
  Recommendation r;
  if (!RecommendOrRefuse(c, *cat, &r)) return;
  RC_ASSERT(r.major == c.major);
  std::string conf = RenderRecommendation(r, RecommendFormat::kConf, false);
  std::vector<std::string> problems = LintProblems(r, conf);
  if (!problems.empty()) {
    std::string all;
    for (const std::string& s : problems) all += "\n  " + s;
    RC_FAIL("recommend " + Describe(c.profile, c.major) + " --format conf fails check:" + all + "\n" + conf);
  }
}

RC_GTEST_PROP(RecommendProperty, ConfRoundTripsEveryRecommendedValue, ()) {
  RecommendCase c = GenCase();
  const Catalog& cat = *Catalog::ForMajor(c.major);
  Recommendation r;
  if (!RecommendOrRefuse(c, cat, &r)) return;
  std::string conf = RenderRecommendation(r, RecommendFormat::kConf, false);
  Analysis a = LintText(kLintedConf, conf, cat, TheRuleSet(), r.profile);
  // The cells the conf output promises: machine, the selected storage row, autovacuum.
  std::vector<const Cell*> expected;
  for (const Cell& cell : r.machine) expected.push_back(&cell);
  if (r.selected >= 0)
    for (const Cell& cell : r.matrix[r.selected].cells) expected.push_back(&cell);
  for (const Cell& cell : r.autovacuum) expected.push_back(&cell);
  for (const Cell* cell : expected) {
    const Parameter* p = cat.Find(cell->parameter);
    RC_ASSERT(p != nullptr);
    ParsedValue want = ParseValue(cat, *p, cell->value);
    const Setting* got = nullptr;
    for (const Setting& s : a.settings)
      if (s.name == cell->parameter) got = &s;
    if (!got || !got->applied || !got->value || *got->value != want.normalized)
      RC_FAIL("recommend " + Describe(c.profile, c.major) + ": " + cell->parameter + " = " + cell->value +
              " is not what the conf output sets (" + (got && got->value ? *got->value : "nothing") + ", want " +
              want.normalized + ")");
  }
  // Nothing else is set, and nothing twice.
  RC_ASSERT(a.settings.size() == expected.size());
  // Without --storage the storage block is left out, and said so.
  if (!c.profile.storage) RC_ASSERT(conf.find("Storage: not given") != std::string::npos);
}

RC_GTEST_PROP(RecommendProperty, EveryCellIsAValidValueOfItsParameter, ()) {
  RecommendCase c = GenCase();
  const Catalog& cat = *Catalog::ForMajor(c.major);
  Recommendation r;
  if (!RecommendOrRefuse(c, cat, &r)) return;
  std::vector<std::string> problems;
  for (const auto& [where, cell] : AllCells(r)) {
    const Parameter* p = cat.Find(cell->parameter);
    if (!p) {
      problems.push_back(where + ": " + cell->parameter + " is not a parameter of " + std::to_string(c.major));
      continue;
    }
    ParsedValue v = ParseValue(cat, *p, cell->value);
    if (!v.ok()) problems.push_back(where + ": " + cell->parameter + " = " + cell->value + ": " + v.message);
    for (const std::string* bound : {&cell->min, &cell->max})
      if (!bound->empty() && !ParseValue(cat, *p, *bound).ok())
        problems.push_back(where + ": " + cell->parameter + " bound " + *bound + " refused");
  }
  if (!problems.empty()) {
    std::string all;
    for (const std::string& s : problems) all += "\n  " + s;
    RC_FAIL("recommend " + Describe(c.profile, c.major) + ":" + all);
  }
}

RC_GTEST_PROP(RecommendProperty, EveryValueLiesWithinItsOwnRange, ()) {
  RecommendCase c = GenCase();
  const Catalog& cat = *Catalog::ForMajor(c.major);
  Recommendation r;
  if (!RecommendOrRefuse(c, cat, &r)) return;
  std::vector<std::string> problems;
  for (const auto& [where, cell] : AllCells(r))
    for (const Problem& pr : CellProblems(cat, where, *cell)) problems.push_back(pr.text);
  if (!problems.empty()) {
    std::string all;
    for (const std::string& s : problems) all += "\n  " + s;
    RC_FAIL("recommend " + Describe(c.profile, c.major) + ":" + all);
  }
}

// The range a storage row offers for effective_io_concurrency and
// maintenance_io_concurrency must be usable: above the resolved
// io_max_concurrency (at most 64 while it stays -1, as recommended) `check`
// warns (PGC404), so the top of the range would fail the first property.
RC_GTEST_PROP(RecommendProperty, IoConcurrencyRangeStaysBelowIoMaxConcurrency, ()) {
  RecommendCase c = GenCase();
  c.major = 18;
  const Catalog& cat = *Catalog::ForMajor(18);
  Recommendation r;
  if (!RecommendOrRefuse(c, cat, &r)) return;
  std::string conf = RenderRecommendation(r, RecommendFormat::kConf, false);
  Analysis a = LintText(kLintedConf, conf, cat, TheRuleSet(), r.profile);
  EffectiveConfig eff(a);
  std::optional<DerivedValue> io_max = eff.Derived("io_max_concurrency");
  RC_ASSERT(io_max.has_value());
  for (const StorageRow& row : r.matrix)
    for (const Cell& cell : row.cells)
      if ((cell.parameter == "effective_io_concurrency" || cell.parameter == "maintenance_io_concurrency") &&
          !cell.max.empty() && strtod(cell.max.c_str(), nullptr) > io_max->value.number)
        RC_FAIL("recommend " + Describe(c.profile, 18) + ": " + StorageName(row.storage) + " " + cell.parameter +
                " range " + cell.min + " .. " + cell.max + " goes above the resolved io_max_concurrency " +
                std::to_string(static_cast<int>(io_max->value.number)) + " (check warns PGC404 there)");
}

// The memory-model knobs (--headroom, --nodes-per-query) change the formulas;
// what comes out must still start and pass check.
RC_GTEST_PROP(RecommendProperty, MemoryModelKnobsStillPassCheck, ()) {
  // Ten profiles per run: the failing corner (little RAM, a large headroom) is
  // small, and each case costs a fraction of a millisecond.
  for (int k = 0; k < 10; ++k) {
    RecommendCase c = GenCase();
    // Small machines are where the knobs bite: half the cases get 1-3GB of RAM.
    if (*rc::gen::arbitrary<bool>()) c.profile.ram_bytes = *rc::gen::inRange(1024, 3 * 1024 + 1) * kMB;
    c.profile.headroom = *rc::gen::oneOf(rc::gen::inRange(0, 51), rc::gen::inRange(35, 51)) / 100.0;
    c.profile.nodes_per_query = *rc::gen::inRange(1, 9);
    const Catalog& cat = *Catalog::ForMajor(c.major);
    Recommendation r;
    std::string error;
    if (!Recommend(c.profile, cat, &r, &error)) {
      // Refusing is allowed only with the reason and what to change.
      RC_ASSERT(error.find("do not fit") != std::string::npos);
      continue;
    }
    std::vector<std::string> problems = LintProblems(r, RenderRecommendation(r, RecommendFormat::kConf, false));
    if (!problems.empty()) {
      std::string all;
      for (const std::string& s : problems) all += "\n  " + s;
      RC_FAIL("recommend " + Describe(c.profile, c.major) + " --format conf fails check:" + all);
    }
  }
}

RC_GTEST_PROP(RecommendProperty, JsonCarriesTheSameCells, ()) {
  RecommendCase c = GenCase();
  const Catalog& cat = *Catalog::ForMajor(c.major);
  Recommendation r;
  if (!RecommendOrRefuse(c, cat, &r)) return;
  nlohmann::json j = nlohmann::json::parse(RenderRecommendation(r, RecommendFormat::kJson, false));
  RC_ASSERT(j["pg_version"].get<int>() == c.major);
  RC_ASSERT(j["machine"].size() == r.machine.size());
  for (size_t i = 0; i < r.machine.size(); ++i) {
    RC_ASSERT(j["machine"][i]["parameter"].get<std::string>() == r.machine[i].parameter);
    RC_ASSERT(j["machine"][i]["value"].get<std::string>() == r.machine[i].value);
  }
  RC_ASSERT(j["tablespaces"].size() == c.profile.tablespaces.size());
  // Without --storage every row is shown; with it, only the selected one.
  RC_ASSERT(j["storage"].size() == (c.profile.storage ? 1u : r.matrix.size()));
}

// Every ALTER TABLESPACE names the tablespace so that PostgreSQL reads back
// exactly the profile's name: "" inside quotes, keywords quoted.
RC_GTEST_PROP(RecommendProperty, TablespaceSqlNamesTheTablespace, ()) {
  RecommendCase c = GenCase();
  int n = *rc::gen::inRange(1, 4);
  for (int i = 0; i < n; ++i) c.profile.tablespaces[*TablespaceName()] = *rc::gen::elementOf(kStorages);
  const Catalog& cat = *Catalog::ForMajor(c.major);
  Recommendation r;
  if (!RecommendOrRefuse(c, cat, &r)) return;
  RC_ASSERT(r.tablespaces.size() == c.profile.tablespaces.size());
  for (const TablespaceAdvice& t : r.tablespaces) {
    bool quoted = false;
    std::string read_back = TablespaceIdentifier(t.sql, &quoted);
    RC_ASSERT(t.options.size() == 4u);
    if (read_back != t.name)
      RC_FAIL("tablespace \"" + t.name + "\": " + t.sql + " names \"" + read_back + "\"");
    if (!quoted && NeedsQuotingAsKeyword(t.name))
      RC_FAIL("tablespace \"" + t.name + "\" is a keyword and must be quoted: " + t.sql);
  }
}

// The typed value of machine cell `name` (memory in bytes), or nullopt.
std::optional<double> MachineValue(const Recommendation& r, const Catalog& cat, const std::string& name) {
  for (const Cell& cell : r.machine)
    if (cell.parameter == name) {
      std::string v = cell.value;
      if (v.size() >= 2 && v.front() == '\'') v = v.substr(1, v.size() - 2);
      const Parameter& param = *cat.Find(name);
      double n = ParseValue(cat, param, v).number;  // in the base unit (kB, 8kB pages)
      return param.unit_kind == UnitKind::kNone ? n : n * param.unit_amount;
    }
  return std::nullopt;
}

// Issue 9: an explicit --connections is never lowered (max_connections is
// at least it), and work_mem x (connections + parallel workers) x nodes per
// backend x hash_mem_multiplier, with the fixed memory, stays within RAM.
RC_GTEST_PROP(RecommendProperty, ExplicitConnectionsKeptAndWorkMemWithinRam, ()) {
  RecommendCase c = GenCase();
  c.profile.connections = *rc::gen::inRange(5, 5001);
  const Catalog& cat = *Catalog::ForMajor(c.major);
  Recommendation r;
  if (!RecommendOrRefuse(c, cat, &r)) return;
  std::optional<double> conns = MachineValue(r, cat, "max_connections");
  std::optional<double> work_mem = MachineValue(r, cat, "work_mem");
  std::optional<double> workers = MachineValue(r, cat, "max_parallel_workers");
  std::optional<double> shared = MachineValue(r, cat, "shared_buffers");
  RC_ASSERT(conns && work_mem && workers && shared);
  RC_ASSERT(*conns >= *c.profile.connections);
  double backends = *c.profile.connections + *workers;
  double sort_hash = backends * *work_mem * NodesPerQuery(c.profile) * 2.0;  // hash_mem_multiplier 2.0
  if (*shared + sort_hash > *c.profile.ram_bytes)
    RC_FAIL("recommend " + Describe(c.profile, c.major) + ": shared_buffers + " + std::to_string(backends) +
            " backends x work_mem x hash_mem_multiplier exceed RAM");
}

// --- Examples -------------------------------------------------------------------

TEST(RecommendTest, RefusesAProfileWithoutRamOrCpus) {
  const Catalog& cat = *Catalog::ForMajor(18);
  Profile no_cpus = MakeProfile(64, 16), no_ram = MakeProfile(64, 16);
  no_cpus.cpus.reset();
  no_ram.ram_bytes.reset();
  for (const Profile& p : {Profile(), no_cpus, no_ram}) {
    Recommendation r;
    std::string error;
    EXPECT_FALSE(Recommend(p, cat, &r, &error));
    EXPECT_NE(error.find("--ram"), std::string::npos) << error;
    EXPECT_NE(error.find("--cpus"), std::string::npos) << error;
  }
  Recommendation r;
  std::string error;
  EXPECT_FALSE(Recommend(MakeProfile(0.2, 4), cat, &r, &error));
  EXPECT_NE(error.find("256MB"), std::string::npos) << error;
  EXPECT_TRUE(Recommend(MakeProfile(0.25, 1), cat, &r, &error)) << error;
  EXPECT_TRUE(Recommend(MakeProfile(0.5, 4), cat, &r, &error)) << error;
}

TEST(RecommendTest, FillsAndAnnouncesTheDefaults) {
  Recommendation r;
  std::string error;
  ASSERT_TRUE(Recommend(MakeProfile(64, 16), *Catalog::ForMajor(18), &r, &error)) << error;
  ASSERT_TRUE(r.profile.workload.has_value());
  EXPECT_EQ(*r.profile.workload, Workload::kMixed);
  EXPECT_EQ(r.selected, -1);
  EXPECT_EQ(r.matrix.size(), Storage::All().size());
  std::string assumptions;
  for (const std::string& a : r.assumptions) assumptions += a + "\n";
  EXPECT_NE(assumptions.find("workload not given"), std::string::npos) << assumptions;
  EXPECT_NE(assumptions.find("connections not given"), std::string::npos) << assumptions;
  EXPECT_NE(assumptions.find("storage not given"), std::string::npos) << assumptions;
}

TEST(RecommendTest, VersionSpecificParametersFollowTheMajor) {
  for (int major = 14; major <= 18; ++major) {
    Profile p = MakeProfile(64, 16);
    p.storage = S("nvme");
    Recommendation r;
    std::string error;
    ASSERT_TRUE(Recommend(p, *Catalog::ForMajor(major), &r, &error)) << error;
    std::string conf = RenderRecommendation(r, RecommendFormat::kConf, false);
    EXPECT_EQ(conf.find("io_method") != std::string::npos, major >= 18) << major;
    EXPECT_EQ(conf.find("autovacuum_worker_slots") != std::string::npos, major >= 18) << major;
    EXPECT_EQ(conf.find("io_combine_limit") != std::string::npos, major >= 17) << major;
    if (major == 17) {
      EXPECT_NE(conf.find("io_combine_limit = '128kB'"), std::string::npos) << conf;
    }
  }
}

// io_uring only where the profile allows it, on high-latency storage, on Linux.
TEST(RecommendTest, IoUringOnlyWhereTheProfileAllowsIt) {
  struct Row {
    Storage storage;
    std::optional<bool> uring;
    std::optional<std::string> os;
    const char* method;
  };
  const Row rows[] = {
      {S("network-block"), true, std::nullopt, "io_uring"}, {S("network-block"), true, "linux", "io_uring"},
      {S("network-block"), true, "freebsd", "worker"},      {S("network-block"), false, "linux", "worker"},
      {S("network-block"), std::nullopt, "linux", "worker"}, {S("nvme"), true, "linux", "worker"},
      {S("raid-san"), true, std::nullopt, "io_uring"},
  };
  for (const Row& row : rows) {
    Profile p = MakeProfile(32, 8);
    p.storage = row.storage;
    p.io_uring = row.uring;
    p.os = row.os;
    Recommendation r;
    std::string error;
    ASSERT_TRUE(Recommend(p, *Catalog::ForMajor(18), &r, &error)) << error;
    const Cell* m = RecommendedCell(r, "io_method");
    ASSERT_NE(m, nullptr);
    EXPECT_EQ(m->value, row.method) << Describe(p, 18);
    // io_workers is recommended exactly when the workers run.
    EXPECT_EQ(RecommendedCell(r, "io_workers") != nullptr, m->value == "worker") << Describe(p, 18);
  }
}

// io_workers never below the server's default (each worker performs one I/O
// at a time) unless the storage type's minimum comes from a measurement on a
// machine as small (cloud-block: 1 worker on a t3.micro, 2 vCPUs); so 8GB
// and 4 CPUs never get fewer than 3; network-block at most the 16 that helped
// on 16 CPUs where 32 hurt.
TEST(RecommendTest, IoWorkersBelowTheDefaultOnlyWhereMeasured) {
  const Catalog& cat = *Catalog::ForMajor(18);
  const int default_workers = std::atoi(cat.Find("io_workers")->boot_val);
  for (const StorageType& t : BuiltinStorageFacts().types)
    for (int cpus : {1, 2, 3, 4, 8, 16, 32, 64}) {
      Profile p = MakeProfile(cpus == 4 ? 8 : 16, cpus);
      p.storage = S(t.name.c_str());
      Recommendation r;
      std::string error;
      ASSERT_TRUE(Recommend(p, cat, &r, &error)) << error;
      const Cell* w = RecommendedCell(r, "io_workers");
      ASSERT_NE(w, nullptr) << t.name;
      const int workers = std::stoi(w->value);
      if (t.name == "cloud-block" && cpus <= 2) {  // measured on 2 vCPUs only
        EXPECT_GE(workers, 1);
      } else {
        EXPECT_GE(workers, default_workers) << t.name << " on " << cpus << " CPUs";
      }
      if (t.name == "network-block") {
        EXPECT_LE(workers, 16) << cpus << " CPUs";
      }
      EXPECT_LE(workers, 32);
    }
}

// Issue 28: `--io-uring yes --build-features none` wrote io_method = io_uring,
// which a build without liburing refuses.
TEST(RecommendTest, IoUringNeedsLiburingInTheBuild) {
  struct Row {
    std::optional<std::set<std::string>> features;
    const char* method;
  };
  const Row rows[] = {{std::nullopt, "io_uring"},
                      {std::set<std::string>{}, "worker"},
                      {std::set<std::string>{"lz4", "zstd"}, "worker"},
                      {std::set<std::string>{"liburing"}, "io_uring"}};
  for (const Row& row : rows) {
    Profile p = MakeProfile(32, 8);
    p.storage = S("network-block");
    p.io_uring = true;
    p.build_features = row.features;
    Recommendation r;
    std::string error;
    ASSERT_TRUE(Recommend(p, *Catalog::ForMajor(18), &r, &error)) << error;
    const bool liburing = row.features.value_or(std::set<std::string>{"liburing"}).count("liburing") > 0;
    for (const StorageRow& m : r.matrix)
      for (const Cell& c : m.cells) {
        if (c.parameter == "io_method" && !liburing) {
          EXPECT_EQ(c.value, "worker") << StorageName(m.storage);
        }
      }
    EXPECT_EQ(RecommendedCell(r, "io_method")->value, row.method);
  }
}

// The tablespace of the issue: nvme data directory, ts_reports on
// network-block, OLAP, io_uring available. io_method is server-wide: io_uring
// becomes the candidate because the reporting tablespace waits on the
// network, and the tablespace's effective_io_concurrency is the measured 48.
TEST(RecommendTest, HighLatencyReportingTablespaceSteersTheServerWideIoMethod) {
  struct Row {
    Workload workload;
    std::optional<bool> uring;
    bool with_storage;
    const char* method;
    const char* tablespace_eic;
  };
  const Row rows[] = {
      {Workload::kOlap, true, true, "io_uring", "48"},  {Workload::kMixed, true, true, "io_uring", "48"},
      {Workload::kOltp, true, true, "worker", "16"},    {Workload::kOlap, false, true, "worker", "48"},
      {Workload::kOlap, std::nullopt, true, "worker", "48"}, {Workload::kOlap, true, false, "io_uring", "48"},
  };
  for (const Row& row : rows) {
    Profile p = MakeProfile(128, 32);
    if (row.with_storage) p.storage = S("nvme");
    p.workload = row.workload;
    p.io_uring = row.uring;
    p.tablespaces["ts_reports"] = S("network-block");
    Recommendation r;
    std::string error;
    ASSERT_TRUE(Recommend(p, *Catalog::ForMajor(18), &r, &error)) << error;
    const Cell* method = RecommendedCell(r, "io_method");
    const std::string what = Describe(p, 18);
    if (!row.with_storage && std::string(row.method) == "worker") {
      EXPECT_EQ(method, nullptr) << what;
    } else {
      ASSERT_NE(method, nullptr) << what;
      EXPECT_EQ(method->value, row.method) << what;
    }
    if (std::string(row.method) == "io_uring") {
      EXPECT_NE(method->why.find("ts_reports"), std::string::npos) << method->why;
      EXPECT_NE(method->why.find("server-wide"), std::string::npos) << method->why;
      EXPECT_EQ(method->min, "worker");
      EXPECT_EQ(RecommendedCell(r, "io_workers"), nullptr) << what << ": io_workers is unused under io_uring";
    }
    ASSERT_EQ(r.tablespaces.size(), 1u);
    for (const Cell& c : r.tablespaces[0].options)
      if (c.parameter == "effective_io_concurrency") {
        EXPECT_EQ(c.value, row.tablespace_eic) << what;
        EXPECT_EQ(c.source, "measured-iscsi");
      }
    // The same on 17 keeps every storage row's io_method out (17 has none).
    ASSERT_TRUE(Recommend(p, *Catalog::ForMajor(17), &r, &error)) << error;
    EXPECT_EQ(RecommendedCell(r, "io_method"), nullptr);
  }
}

// cloud-block's measured 1 (effective_io_concurrency, maintenance, one I/O
// worker) was taken on 2 vCPUs, partly CPU starvation: larger machines start
// at PostgreSQL's defaults.
TEST(RecommendTest, CloudBlockStartsAtOneOnlyOnMachinesAsSmallAsTheMeasurement) {
  const Catalog& cat = *Catalog::ForMajor(18);
  struct Row {
    double ram_gb;
    int cpus;
    const char* eic;
    int workers;
  };
  const Row rows[] = {{1, 2, "1", 1}, {1, 1, "1", 1}, {8, 4, "16", 3}, {64, 16, "16", 4}};
  for (const Row& row : rows) {
    Profile p = MakeProfile(row.ram_gb, row.cpus);
    p.storage = S("cloud-block");
    Recommendation r;
    std::string error;
    ASSERT_TRUE(Recommend(p, cat, &r, &error)) << error;
    for (const char* name : {"effective_io_concurrency", "maintenance_io_concurrency"}) {
      const Cell* c = RecommendedCell(r, name);
      ASSERT_NE(c, nullptr);
      EXPECT_EQ(c->value, row.eic) << name << " " << Describe(p, 18);
      EXPECT_EQ(c->source, row.cpus <= 2 ? "measured-cloud" : "docs-resource") << name;
    }
    EXPECT_EQ(std::stoi(RecommendedCell(r, "io_workers")->value), row.workers) << Describe(p, 18);
  }
}

// Issue 28's acceptance: OLAP on 128GB (32 CPUs) keeps shared_buffers +
// (connections + parallel workers) x work_mem x 2 nodes x hash_mem_multiplier
// within RAM, and memory-overcommit on the output under the same profile
// counts the same nodes (one model) and is silent; oltp keeps one node.
TEST(RecommendTest, WorkMemCountsTheWorkloadsNodesPerQuery) {
  const Catalog& cat = *Catalog::ForMajor(18);
  for (Workload w : AllWorkloads()) {
    Profile p = MakeProfile(128, 32);
    p.workload = w;
    p.storage = S("nvme");
    Recommendation r;
    std::string error;
    ASSERT_TRUE(Recommend(p, cat, &r, &error)) << error;
    const double sb = *MachineValue(r, cat, "shared_buffers"), wm = *MachineValue(r, cat, "work_mem");
    const double backends = *MachineValue(r, cat, "max_connections") + *MachineValue(r, cat, "max_parallel_workers");
    const double nodes = w == Workload::kOlap ? 2 : 1;
    EXPECT_LE(sb + backends * wm * nodes * 2.0, *p.ram_bytes) << WorkloadName(w);
    EXPECT_EQ(r.machine[3].parameter, "work_mem");
    EXPECT_NE(r.machine[3].why.find("x " + FormatNumber(NodesPerQuery(r.profile)) + " sort/hash node"),
              std::string::npos)
        << r.machine[3].why;
    EXPECT_EQ(LintProblems(r, RenderRecommendation(r, RecommendFormat::kConf, false)), std::vector<std::string>{});
    if (w == Workload::kOlap) {
      EXPECT_GE(NodesPerQuery(r.profile), 3);
      EXPECT_LT(wm, 200 * kMB) << "479MB at one node per backend (issue 28)";
    }
  }
}

// A grid over the small and unusual corners, reporting every cell outside its
// own range at once (the property above stops at the first).
TEST(RecommendTest, EveryCellWithinItsRangeOnAGrid) {
  std::map<std::string, std::pair<int, std::string>> found;  // key -> (count, first example)
  for (int major = 14; major <= 18; ++major) {
    const Catalog& cat = *Catalog::ForMajor(major);
    for (double ram : {0.25, 0.375, 0.5, 0.75, 1.0, 2.0, 4.0, 16.0, 64.0, 1024.0})
      for (int cpus : {1, 2, 3, 4, 16, 128})
        for (Workload w : AllWorkloads()) {
          Profile p = MakeProfile(ram, cpus);
          p.workload = w;
          Recommendation r;
          std::string error;
          ASSERT_TRUE(Recommend(p, cat, &r, &error)) << error;
          for (const auto& [where, cell] : AllCells(r))
            for (const Problem& pr : CellProblems(cat, where, *cell)) {
              auto& f = found[pr.key];
              if (f.first++ == 0) f.second = "recommend " + Describe(p, major) + ": " + pr.text;
            }
        }
  }
  for (const auto& [key, f] : found) ADD_FAILURE() << key << " (" << f.first << " times), e.g. " << f.second;
}

// Every cell names where it comes from: a formula here, or a source of
// knowledge/storage.toml, which the sources list prints with its text.
TEST(RecommendTest, EveryCellCitesAKnownSource) {
  Profile p = MakeProfile(64, 16);
  p.storage = S("network-block");
  p.tablespaces["archive"] = S("cold-object");
  Recommendation r;
  std::string error;
  ASSERT_TRUE(Recommend(p, *Catalog::ForMajor(18), &r, &error)) << error;
  const StorageFacts& facts = BuiltinStorageFacts();
  for (const auto& [where, cell] : AllCells(r))
    EXPECT_TRUE(cell->source == "formula" || facts.sources.count(cell->source))
        << where << ": " << cell->parameter << " cites \"" << cell->source << "\"";
  ASSERT_EQ(r.sources.size(), facts.sources.size());
  for (const std::string& s : r.sources) EXPECT_EQ(s.find("../"), std::string::npos) << s;
}

// The knobs corner found by the property above, pinned: 1GB of RAM, 128 CPUs
// (10 autovacuum workers), half the RAM kept as headroom. max_connections
// must stay above superuser_reserved_connections (3) or the server refuses to
// start (PGC512), and the worst case must still fit (PGC601).
// A machine whose fixed memory leaves no room for connections gets a refusal
// that says what to change, never a configuration the server cannot start.
// 24TB of RAM made effective_cache_size 18TB, 40TB made shared_buffers 10TB:
// both beyond what the server accepts. Each is capped at its maximum, and said.
TEST(RecommendTest, HugeRamIsCappedAtEachParametersMaximum) {
  for (int major : Catalog::SupportedMajors())
    for (double tb : {24.0, 40.0, 1e6}) {
      const Catalog& cat = *Catalog::ForMajor(major);
      Profile p;
      p.ram_bytes = tb * 1024 * kGB;
      p.cpus = 64;
      Recommendation r;
      std::string error;
      ASSERT_TRUE(Recommend(p, cat, &r, &error)) << error;
      for (const auto& [where, cell] : AllCells(r)) {
        const Parameter* param = cat.Find(cell->parameter);
        ASSERT_NE(param, nullptr) << cell->parameter;
        EXPECT_TRUE(ParseValue(cat, *param, cell->value).ok()) << major << " " << tb << "TB " << where << ": "
                                                                << cell->parameter << " = " << cell->value;
      }
      std::string assumptions;
      for (const std::string& a : r.assumptions) assumptions += a + "\n";
      if (tb >= 100) {  // a tenth of the RAM is more than the maximum
        EXPECT_NE(assumptions.find("shared_buffers capped at"), std::string::npos) << assumptions;
      }
      EXPECT_NE(assumptions.find("effective_cache_size capped at"), std::string::npos) << assumptions;
    }
}

TEST(RecommendTest, TinyMachineWithALargeHeadroomIsRefusedNotBroken) {
  Profile p = MakeProfile(1, 128);
  p.storage = S("nvme");
  p.workload = Workload::kOlap;
  p.headroom = 0.47;
  Recommendation r;
  std::string error;
  if (Recommend(p, *Catalog::ForMajor(18), &r, &error)) {
    for (const std::string& s : LintProblems(r, RenderRecommendation(r, RecommendFormat::kConf, false)))
      ADD_FAILURE() << Describe(p, 18) << ": " << s;
  } else {
    EXPECT_NE(error.find("--headroom"), std::string::npos) << error;
  }
}

// --- SQL rendering ---------------------------------------------------------------

TEST(RecommendTest, SqlRenderingUsesAlterSystemStatementForEveryCell) {
  Profile p = MakeProfile(64, 16);
  p.storage = S("nvme");
  Recommendation r;
  std::string error;
  ASSERT_TRUE(Recommend(p, *Catalog::ForMajor(18), &r, &error)) << error;
  std::string sql = RenderRecommendation(r, RecommendFormat::kSql, false);
  for (const Cell& c : r.machine)
    EXPECT_NE(sql.find(AlterSystemStatement(P18(c.parameter.c_str()), c.value)), std::string::npos) << c.parameter;
  // No statement may sit inside a transaction block: ALTER SYSTEM refuses that.
  EXPECT_EQ(sql.find("BEGIN"), std::string::npos);
}

// --- Tablespace identifiers -----------------------------------------------------

// Names are always written as quoted identifiers (quotes doubled): valid for
// keywords and any case, and the same tablespace as the unquoted lower-case name.
TEST(RecommendTest, TablespaceIdentifiersAreQuoted) {
  struct Row {
    const char* name;
    const char* ident;
  };
  const Row rows[] = {
      {"fast", "\"fast\""},       {"ts_1", "\"ts_1\""},      {"Fast", "\"Fast\""},
      {"cold archive", "\"cold archive\""}, {"1st", "\"1st\""}, {"o\"q", "\"o\"\"q\""},
      {"table", "\"table\""},     {"user", "\"user\""},      {"select", "\"select\""},
  };
  for (const Row& row : rows) {
    Profile p = MakeProfile(16, 4);
    p.tablespaces[row.name] = S("nvme");
    Recommendation r;
    std::string error;
    ASSERT_TRUE(Recommend(p, *Catalog::ForMajor(18), &r, &error)) << error;
    ASSERT_EQ(r.tablespaces.size(), 1u);
    EXPECT_EQ(r.tablespaces[0].sql.substr(0, r.tablespaces[0].sql.find(" SET (")),
              std::string("ALTER TABLESPACE ") + row.ident)
        << row.name;
  }
}

}  // namespace
}  // namespace pgconflint
