// Lint throughput (issue target: >= 100 MB/s) on large generated
// configurations, stage by stage, catalog 18:
//   Tokenize     the grammar's generated lexer, as the lint path uses it;
//   Parse        tokens + ParseConfigFp's line grammar;
//   AnalyzeText  loading, names, duplicates, values (the front end);
//   LintText     AnalyzeText + the built-in rules + suppression comments, with
//                no machine profile: what `pgconflint check FILE` does to one
//                file short of reading it and rendering the report.
// TokenizeWithTree (a full tree-sitter parse, the editor path) is there for
// comparison on the big corpora.
//
// Corpora, all generated in memory and deterministically (fixed seed, no
// std:: distributions, whose output differs between standard libraries):
//   mixed  - postgresql.conf.sample style: section banners, long comment
//            blocks, commented-out settings with trailing comments, and about
//            one live setting in six; default 64 MB.
//   dense  - live settings only (no comments, no blank lines): the worst case
//            per byte; default 64 MB.
//   tuned  - one realistic file: 300 distinct valid settings (~10 kB).
//   sample - PostgreSQL 18's postgresql.conf.sample, when .cache/postgres/18
//            exists (scripts/fetch-postgres.sh 18).
// Every live value is one that pgconflint itself accepts without a diagnostic
// when it stands alone, so the big corpora differ from real files only in that
// their settings repeat (each repeat is a PGC303 "set again" diagnostic; the
// `diagnostics` counter shows how many).
//
// Options (besides Google Benchmark's own --benchmark_* flags):
//   --size_mb=N   size of the mixed and dense corpora (default 64, env PGC_BENCH_MB)
//   --dump=DIR    also write the corpora to DIR/{mixed,dense,tuned}.conf and exit
//
// MB/s is 10^6 bytes per CPU second of the benchmark thread (Google
// Benchmark's own bytes_per_second column is the same rate in MiB/s). On an
// idle machine CPU and wall time agree (compare the Time and CPU columns); on
// a shared one the CPU-based rate is the one that measures the code.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "core/conf/analyze.h"
#include "core/model/analysis.h"
#include "core/knowledge/catalog.h"
#include "core/workspace/workspace.h"
#include "core/rules/profile.h"
#include "core/rules/rules.h"
#include "core/base/source_file.h"
#include "core/model/syntax.h"
#include "core/knowledge/value.h"

#ifndef PGC_SOURCE_DIR
#define PGC_SOURCE_DIR "."
#endif

namespace pgconflint {
namespace {

// splitmix64: the same sequence on every platform.
class Rng {
 public:
  explicit Rng(uint64_t seed) : s_(seed) {}
  uint64_t Next() {
    uint64_t z = (s_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  size_t Below(size_t n) { return n ? static_cast<size_t>(Next() % n) : 0; }
  bool OneIn(size_t n) { return Below(n) == 0; }

 private:
  uint64_t s_;
};

std::string QuoteValue(std::string_view v) {
  std::string out = "'";
  for (char c : v) {
    if (c == '\'') out += '\'';
    if (c == '\\') out += '\\';
    out += c;
  }
  return out + "'";
}

// An unquoted value must be one INTEGER, REAL, ID or UNQUOTED_STRING token.
bool SafeUnquoted(std::string_view v) {
  if (v.empty()) return false;
  for (char c : v)
    if (!(isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-')) return false;
  return isalnum(static_cast<unsigned char>(v[0])) || v[0] == '-';
}

struct Entry {
  const Parameter* param;
  std::vector<std::string> values;  // written forms, quotes included where needed
};

// Candidate written values of `p` (some valid, some not; the caller checks).
std::vector<std::string> Candidates(const Catalog& cat, const Parameter& p, Rng& rng) {
  std::vector<std::string> out;
  std::string boot = p.has_boot_val ? p.boot_val : "";
  switch (p.type) {
    case VarType::kBool:
      out = {"on", "off", "true", "false", "'on'", "yes", "0", "1"};
      break;
    case VarType::kInteger: {
      ParsedValue v = ParseValue(cat, p, boot);
      if (v.ok()) {
        double n = v.number;
        std::vector<double> numbers = {n};
        if (n > 0 && n * 4 <= p.max) numbers.push_back(n * 4);
        if (n > 1 && n / 2 >= p.min && static_cast<int64_t>(n) % 2 == 0) numbers.push_back(n / 2);
        for (double x : numbers) {
          std::string plain = std::to_string(static_cast<int64_t>(x));
          if (p.unit_kind != UnitKind::kNone && x != 0 && x != -1) {
            std::string with_unit = FormatWithUnit(x, p);
            out.push_back(with_unit);
            out.push_back("'" + with_unit + "'");
          } else {
            out.push_back(plain);
          }
        }
      }
      break;
    }
    case VarType::kReal:
      out = {boot};
      if (ParseValue(cat, p, boot).ok()) {
        double n = ParseValue(cat, p, boot).number;
        if (n > 0 && n * 2 <= p.max) out.push_back(FormatReal(n * 2));
      }
      break;
    case VarType::kEnum:
      for (const char* e : p.enumvals) out.push_back(SafeUnquoted(e) ? std::string(e) : QuoteValue(e));
      if (!boot.empty()) out.push_back(QuoteValue(boot));
      break;
    case VarType::kString:
      out.push_back(QuoteValue(boot));
      if (SafeUnquoted(boot)) out.push_back(boot);
      break;
  }
  // A little shuffling so that the corpus is not alphabetical per type.
  for (size_t i = out.size(); i > 1; --i) std::swap(out[i - 1], out[rng.Below(i)]);
  return out;
}

// Every parameter that can be set in a file, with values that pgconflint
// accepts without any diagnostic when the line stands alone.
std::vector<Entry> ValidEntries(const Catalog& cat) {
  Rng rng(18);
  AnalyzeOptions opts;
  opts.catalog = &cat;
  std::vector<Entry> entries;
  for (const Parameter& p : cat.parameters()) {
    if (!p.file_accepted || !p.in_pg_settings || !p.has_boot_val) continue;
    if (p.context == Context::kInternal) continue;
    Entry e{&p, {}};
    for (std::string& v : Candidates(cat, p, rng)) {
      std::string line = std::string(p.name) + " = " + v + "\n";
      Analysis a = AnalyzeText("/bench/check.conf", line, opts);
      if (a.diagnostics.empty() && a.settings.size() == 1 && a.settings[0].applied &&
          std::find(e.values.begin(), e.values.end(), v) == e.values.end())
        e.values.push_back(std::move(v));
    }
    if (!e.values.empty()) entries.push_back(std::move(e));
  }
  return entries;
}

std::string Upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(toupper(static_cast<unsigned char>(c)));
  return out;
}

// Wraps `text` into "# "-comment lines of at most ~76 columns.
void CommentBlock(std::string_view text, std::string* out) {
  std::istringstream words{std::string(text)};
  std::string word, line = "#";
  while (words >> word) {
    if (line.size() + 1 + word.size() > 76 && line.size() > 1) {
      *out += line + "\n";
      line = "#";
    }
    line += " " + word;
  }
  if (line.size() > 1) *out += line + "\n";
}

void Pad(std::string* line, size_t column) {
  // Tabs to about `column`, as the stock sample aligns its trailing comments.
  size_t width = line->size();
  do {
    *line += '\t';
    width = (width / 8 + 1) * 8;
  } while (width < column);
}

// postgresql.conf.sample style, grouped by category, repeated until `bytes`.
std::string MakeMixed(const std::vector<Entry>& entries, size_t bytes) {
  std::vector<const Entry*> order;
  for (const Entry& e : entries) order.push_back(&e);
  std::stable_sort(order.begin(), order.end(), [](const Entry* a, const Entry* b) {
    return strcmp(a->param->category, b->param->category) < 0;
  });
  Rng rng(0x5eed);
  std::string out;
  out.reserve(bytes + (1 << 16));
  const std::string rule(78, '-');
  size_t pass = 0;
  while (out.size() < bytes) {
    out += "# -----------------------------\n# PostgreSQL configuration file (part " + std::to_string(++pass) +
           ")\n# -----------------------------\n#\n";
    CommentBlock("This file consists of lines of the form: name = value (the equal sign is optional). "
                 "White space may be used. Comments are introduced with \"#\" anywhere on a line. The "
                 "complete list of parameter names and allowed values can be found in the PostgreSQL "
                 "documentation. Memory units: B = bytes, kB = kilobytes, MB = megabytes, GB = gigabytes, "
                 "TB = terabytes. Time units: us = microseconds, ms = milliseconds, s = seconds, "
                 "min = minutes, h = hours, d = days.",
                 &out);
    out += "\n";
    std::string_view category, section;
    for (const Entry* e : order) {
      const Parameter& p = *e->param;
      if (category != p.category) {
        category = p.category;
        std::string_view top = category.substr(0, category.find(" / "));
        if (top != section) out += "\n#" + rule + "\n# " + Upper(top) + "\n#" + rule + "\n";
        section = top;
        out += "\n";
        if (category.size() > top.size()) out += "# - " + std::string(category.substr(top.size() + 3)) + " -\n\n";
        if (rng.OneIn(3) && p.extra_desc[0]) {
          CommentBlock(p.extra_desc, &out);
          out += "\n";
        }
      }
      const std::string& value = e->values[rng.Below(e->values.size())];
      bool live = rng.OneIn(6);
      std::string line = (live ? "" : "#") + std::string(p.name) + " = " + value;
      Pad(&line, 40);
      line += "# ";
      line += p.short_desc;
      out += line + "\n";
      if (p.context == Context::kPostmaster) out += "\t\t\t\t\t# (change requires restart)\n";
      if (rng.OneIn(8) && p.min_val[0] && p.max_val[0])
        out += "\t\t\t\t\t# range " + std::string(p.min_val) + ".." + p.max_val + (p.unit[0] ? " " : "") +
               p.unit + "\n";
    }
    out += "\n\n#" + rule + "\n# CUSTOMIZED OPTIONS\n#" + rule + "\n\n# Add settings for extensions here\n";
  }
  return out;
}

// Live settings only; `name = value`, `name value` and `name=value` spellings.
std::string MakeDense(const std::vector<Entry>& entries, size_t bytes) {
  Rng rng(0xde05e);
  std::string out;
  out.reserve(bytes + 256);
  while (out.size() < bytes) {
    const Entry& e = entries[rng.Below(entries.size())];
    const std::string& value = e.values[rng.Below(e.values.size())];
    size_t style = rng.Below(8);
    out += e.param->name;
    out += style == 0 ? " " : style == 1 ? "=" : " = ";
    out += value;
    out += '\n';
  }
  return out;
}

// One realistic tuned file: the first 300 entries in a shuffled order, once each.
std::string MakeTuned(const std::vector<Entry>& entries, size_t count) {
  std::vector<const Entry*> order;
  for (const Entry& e : entries) order.push_back(&e);
  Rng rng(300);
  for (size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[rng.Below(i)]);
  order.resize(std::min(count, order.size()));
  std::string out = "# tuned configuration: " + std::to_string(order.size()) + " settings\n";
  for (const Entry* e : order)
    out += std::string(e->param->name) + " = " + e->values[rng.Below(e->values.size())] + "\n";
  return out;
}

struct Corpus {
  std::string name;
  std::string text;
};

const Catalog& Cat18() {
  const Catalog* c = Catalog::ForMajor(18);
  if (!c) {
    fprintf(stderr, "lint_bench: no catalog for PostgreSQL 18 (build with knowledge/pg18.json)\n");
    exit(2);
  }
  return *c;
}

void SetThroughput(benchmark::State& state, size_t bytes) {
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(bytes));
  state.counters["MB/s"] = benchmark::Counter(static_cast<double>(bytes) * state.iterations() / 1e6,
                                              benchmark::Counter::kIsRate);
  state.counters["MB"] = static_cast<double>(bytes) / 1e6;
}

void BM_Tokenize(benchmark::State& state, const Corpus* c) {
  SourceFile file("/bench/" + c->name + ".conf", c->text);
  size_t tokens = 0;
  for (auto _ : state) {
    std::vector<Token> t = Tokenize(file);
    tokens = t.size();
    benchmark::DoNotOptimize(t.data());
  }
  SetThroughput(state, c->text.size());
  state.counters["tokens"] = static_cast<double>(tokens);
}

void BM_TokenizeWithTree(benchmark::State& state, const Corpus* c) {
  SourceFile file("/bench/" + c->name + ".conf", c->text);
  size_t tokens = 0;
  for (auto _ : state) {
    std::vector<Token> t = TokenizeWithTree(file);
    tokens = t.size();
    benchmark::DoNotOptimize(t.data());
  }
  SetThroughput(state, c->text.size());
  state.counters["tokens"] = static_cast<double>(tokens);
}

void BM_Parse(benchmark::State& state, const Corpus* c) {
  SourceFile file("/bench/" + c->name + ".conf", c->text);
  size_t settings = 0;
  for (auto _ : state) {
    ParsedFile p = Parse(file);
    settings = p.settings.size();
    benchmark::DoNotOptimize(p.settings.data());
  }
  SetThroughput(state, c->text.size());
  state.counters["settings"] = static_cast<double>(settings);
}

void BM_Analyze(benchmark::State& state, const Corpus* c) {
  AnalyzeOptions opts;
  opts.catalog = &Cat18();
  const std::string name = "/bench/" + c->name + ".conf";
  size_t settings = 0, diagnostics = 0;
  for (auto _ : state) {
    Analysis a = AnalyzeText(name, c->text, opts);
    settings = a.settings.size();
    diagnostics = a.diagnostics.size();
    benchmark::DoNotOptimize(a.settings.data());
  }
  SetThroughput(state, c->text.size());
  state.counters["settings"] = static_cast<double>(settings);
  state.counters["diagnostics"] = static_cast<double>(diagnostics);
}

void BM_Lint(benchmark::State& state, const Corpus* c) {
  const Catalog& cat = Cat18();
  const RuleSet rules;  // the built-in rules
  const Profile profile;  // no machine facts, as `check` without profile flags
  const std::string name = "/bench/" + c->name + ".conf";
  size_t settings = 0, diagnostics = 0;
  for (auto _ : state) {
    Analysis a = LintText(name, c->text, cat, rules, profile);
    settings = a.settings.size();
    diagnostics = a.diagnostics.size();
    benchmark::DoNotOptimize(a.settings.data());
  }
  SetThroughput(state, c->text.size());
  state.counters["settings"] = static_cast<double>(settings);
  state.counters["diagnostics"] = static_cast<double>(diagnostics);
}

bool ReadFile(const std::string& path, std::string* out) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return false;
  out->assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
  return true;
}

}  // namespace
}  // namespace pgconflint

int main(int argc, char** argv) {
  using namespace pgconflint;
  size_t size_mb = 64;
  if (const char* env = getenv("PGC_BENCH_MB")) size_mb = strtoul(env, nullptr, 10);
  std::string dump;
  // Our own flags first; the rest go to Google Benchmark.
  std::vector<char*> rest = {argv[0]};
  for (int i = 1; i < argc; ++i) {
    if (strncmp(argv[i], "--size_mb=", 10) == 0) {
      size_mb = strtoul(argv[i] + 10, nullptr, 10);
    } else if (strncmp(argv[i], "--dump=", 7) == 0) {
      dump = argv[i] + 7;
    } else {
      rest.push_back(argv[i]);
    }
  }
  if (size_mb == 0 || size_mb > 250) {
    fprintf(stderr, "lint_bench: --size_mb must be 1..250 (pgconflint reads at most 256 MiB)\n");
    return 2;
  }
  int rest_argc = static_cast<int>(rest.size());
  benchmark::Initialize(&rest_argc, rest.data());
  if (benchmark::ReportUnrecognizedArguments(rest_argc, rest.data())) return 1;

  const Catalog& cat = Cat18();
  std::vector<Entry> entries = ValidEntries(cat);
  size_t values = 0;
  for (const Entry& e : entries) values += e.values.size();
  const size_t bytes = size_mb * 1000 * 1000;
  static std::vector<Corpus> big = {{"mixed", MakeMixed(entries, bytes)}, {"dense", MakeDense(entries, bytes)}};
  static std::vector<Corpus> small = {{"tuned300", MakeTuned(entries, 300)}};
  std::string sample;
  if (ReadFile(std::string(PGC_SOURCE_DIR) + "/.cache/postgres/18/share/postgresql/postgresql.conf.sample",
               &sample))
    small.push_back({"pg18_sample", std::move(sample)});

  if (!dump.empty()) {
    for (const auto* set : {&big, &small})
      for (const Corpus& c : *set) {
        std::ofstream f(dump + "/" + c.name + ".conf", std::ios::binary);
        f << c.text;
        fprintf(stderr, "wrote %s/%s.conf (%zu bytes)\n", dump.c_str(), c.name.c_str(), c.text.size());
      }
    return 0;
  }

  fprintf(stderr, "catalog %s: %zu settable parameters, %zu distinct valid values\n", cat.server_version(),
          entries.size(), values);
  for (const auto* set : {&big, &small})
    for (const Corpus& c : *set) {
      size_t lines = std::count(c.text.begin(), c.text.end(), '\n');
      fprintf(stderr, "corpus %-12s %10.3f MB, %9zu lines\n", c.name.c_str(), c.text.size() / 1e6, lines);
    }

  for (const Corpus& c : big) {
    for (auto [stage, fn] : {std::pair{"Tokenize", &BM_Tokenize}, std::pair{"Parse", &BM_Parse},
                             std::pair{"AnalyzeText", &BM_Analyze}, std::pair{"LintText", &BM_Lint},
                             std::pair{"TokenizeWithTree", &BM_TokenizeWithTree}}) {
      benchmark::RegisterBenchmark((std::string(stage) + "/" + c.name).c_str(), fn, &c)
          ->Unit(benchmark::kMillisecond)
          ->MinTime(2.0);
    }
  }
  for (const Corpus& c : small) {
    for (auto [stage, fn] : {std::pair{"Tokenize", &BM_Tokenize}, std::pair{"Parse", &BM_Parse},
                             std::pair{"AnalyzeText", &BM_Analyze}, std::pair{"LintText", &BM_Lint}}) {
      benchmark::RegisterBenchmark((std::string(stage) + "/" + c.name).c_str(), fn, &c)
          ->Unit(benchmark::kMicrosecond);
    }
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
