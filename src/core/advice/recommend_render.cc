// The five renderings of a recommendation. JSON is a contract (version 1);
// the conf and SQL outputs are held to `check` and to real servers by
// tests/unit/recommend_test.cc and tests/integration/test_recommend.py.
#include "core/advice/recommend_render.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <vector>

#include "core/rules/expr.h"
#include "core/advice/recommend_internal.h"
#include "core/sql/sql_quote.h"

namespace pgconflint {
namespace {

using recommend_internal::Num;
using J = nlohmann::ordered_json;

std::vector<const StorageRow*> Rows(const Recommendation& r, bool all) {
  std::vector<const StorageRow*> rows;
  for (size_t i = 0; i < r.matrix.size(); ++i)
    if (all || r.selected < 0 || static_cast<int>(i) == r.selected) rows.push_back(&r.matrix[i]);
  return rows;
}

// Pads to `n` display columns (UTF-8 continuation bytes take none).
std::string Pad(std::string s, size_t n) {
  size_t w = 0;
  for (unsigned char ch : s) w += (ch & 0xC0) != 0x80;
  if (w < n) s += std::string(n - w, ' ');
  return s;
}

J CellsJson(const std::vector<Cell>& v) {
  J a = J::array();
  for (const Cell& c : v)
    a.push_back({{"parameter", c.parameter}, {"value", c.value}, {"min", c.min.empty() ? J(nullptr) : J(c.min)},
                 {"max", c.max.empty() ? J(nullptr) : J(c.max)}, {"why", c.why}, {"source", c.source}});
  return a;
}

// The host's side of huge_pages: the vm.nr_hugepages line ("" when not advised).
std::string NrHugepagesLine(const Recommendation& r) {
  const HugePagesAdvice& h = r.huge_pages;
  if (h.value.empty()) return "";
  return "vm.nr_hugepages = " + Num(h.nr_hugepages) + " (huge pages of " +
         ExprValue::Number(h.page, Dim::kBytes).Display() + " for shared_memory_size " +
         Num(std::ceil(h.shared_memory / (1024 * 1024))) + "MB; sysctl, /etc/sysctl.d)";
}

J HugePagesJson(const Recommendation& r) {
  const HugePagesAdvice& h = r.huge_pages;
  if (h.value.empty()) return nullptr;
  return {{"shared_memory_bytes", h.shared_memory}, {"huge_page_size_bytes", h.page},
          {"vm.nr_hugepages", h.nr_hugepages}, {"huge_pages", h.value}, {"why", h.why}};
}

std::string RenderJson(const Recommendation& r, const std::vector<const StorageRow*>& rows) {
  J j;
  j["version"] = 1;
  j["pg_version"] = r.major;
  const Profile& p = r.profile;
  j["profile"] = {{"ram", ExprValue::Number(*p.ram_bytes, Dim::kBytes).Display()}, {"cpus", *p.cpus},
                  {"workload", WorkloadName(*p.workload)},
                  {"storage", p.storage ? J(StorageName(*p.storage)) : J(nullptr)}};
  j["assumptions"] = r.assumptions;
  J matrix = J::array();
  for (const StorageRow* row : rows)
    matrix.push_back({{"storage", StorageName(row->storage)}, {"title", row->title}, {"settings", CellsJson(row->cells)},
                      {"scheduler", row->scheduler}, {"mount", row->mount}, {"notes", row->notes}});
  j["storage"] = std::move(matrix);
  j["machine"] = CellsJson(r.machine);
  j["huge_pages"] = HugePagesJson(r);
  J ts = J::array();
  for (const TablespaceAdvice& t : r.tablespaces)
    ts.push_back({{"name", t.name}, {"storage", StorageName(t.storage)}, {"options", CellsJson(t.options)}, {"sql", t.sql}});
  j["tablespaces"] = std::move(ts);
  j["autovacuum"] = CellsJson(r.autovacuum);
  J tables = J::array();
  for (const TableClass& t : r.tables)
    tables.push_back({{"class", t.label}, {"rows", t.rows}, {"workload", t.workload}, {"options", CellsJson(t.options)},
                      {"vacuum_trigger", t.vacuum_trigger}, {"default_trigger", t.default_trigger}, {"sql", t.sql}});
  j["tables"] = std::move(tables);
  j["sources"] = r.sources;
  return j.dump(2) + "\n";
}

// A postgresql.conf fragment, or (sql) the same as ALTER SYSTEM statements
// plus the tablespace and per-table templates.
std::string RenderSettings(const Recommendation& r, bool sql) {
  const Catalog& cat = *Catalog::ForMajor(r.major);
  std::ostringstream o;
  const char* c = sql ? "-- " : "# ";
  o << c << "Recommended by pgconflint for " << RecommendationHeader(r) << ".\n";
  for (const std::string& a : r.assumptions) o << c << "assumption: " << a << "\n";
  auto emit = [&](const Cell& cell) {
    const Parameter* p = cat.Find(cell.parameter);
    if (!p) return;
    if (sql) {
      o << AlterSystemStatement(*p, cell.value) << "  -- " << cell.why << "\n";
      return;
    }
    o << Pad(cell.parameter + " = " + SettingValueText(p, cell.value), 40) << " # " << cell.why;
    if (!RangeText(cell).empty()) o << " (range " << RangeText(cell) << ")";
    o << "\n";
  };
  o << "\n" << c << "Machine\n";
  for (const Cell& cell : r.machine) emit(cell);
  if (!NrHugepagesLine(r).empty()) o << c << "OS: " << NrHugepagesLine(r) << "\n";
  if (r.selected >= 0) {
    o << "\n" << c << "Storage: " << r.matrix[r.selected].title << "\n";
    for (const Cell& cell : r.matrix[r.selected].cells) emit(cell);
  } else {
    o << "\n" << c << "Storage: not given (--storage); the storage settings keep their defaults\n";
  }
  o << "\n" << c << "Autovacuum\n";
  for (const Cell& cell : r.autovacuum) emit(cell);
  if (sql) {
    if (!r.tablespaces.empty()) o << "\n-- Tablespaces (only these four options exist per tablespace)\n";
    for (const TablespaceAdvice& t : r.tablespaces) o << t.sql << "  -- " << StorageName(t.storage) << "\n";
    o << "\n-- Per table, by size (templates: replace <table>)\n";
    for (const TableClass& t : r.tables) o << "-- " << t.label << ": " << t.sql << "\n";
    o << "\nSELECT pg_reload_conf();\n-- Parameters with context postmaster need a restart: "
         "SELECT name FROM pg_settings WHERE pending_restart;\n";
  } else if (!r.tablespaces.empty()) {
    o << "\n# Tablespaces: run `pgconflint recommend --format sql` for their ALTER TABLESPACE statements\n";
  }
  return o.str();
}

// The storage matrix: one row per storage type, one column per parameter
// (markdown); transposed for the terminal.
void WriteMatrix(const Recommendation& r, const std::vector<const StorageRow*>& rows, bool md, std::ostream& o) {
  std::vector<std::string> params;
  for (const StorageRow* row : rows)
    for (const Cell& c : row->cells)
      if (std::find(params.begin(), params.end(), c.parameter) == params.end()) params.push_back(c.parameter);
  auto value_of = [](const StorageRow* row, const std::string& p) {
    for (const Cell& c : row->cells)
      if (c.parameter == p) return c.value + (c.min.empty() && c.max.empty() ? "" : " (" + RangeText(c) + ")");
    return std::string("-");
  };
  o << (md ? "### " : "") << "Storage matrix\n\n";
  if (md) {
    o << "| storage |";
    for (const std::string& p : params) o << " " << p << " |";
    o << "\n|---|";
    for (size_t i = 0; i < params.size(); ++i) o << "---|";
    o << "\n";
    for (const StorageRow* row : rows) {
      o << "| " << StorageName(row->storage) << (r.selected >= 0 && row == &r.matrix[r.selected] ? " (selected)" : "") << " |";
      for (const std::string& p : params) o << " " << value_of(row, p) << " |";
      o << "\n";
    }
    return;
  }
  // Transposed: a column per storage type, its name on top.
  o << "  " << Pad("", 28);
  for (const StorageRow* row : rows) o << Pad(StorageName(row->storage), 25);
  o << "\n";
  for (const std::string& p : params) {
    o << "  " << Pad(p, 28);
    for (const StorageRow* row : rows) o << Pad(value_of(row, p), 25);
    o << "\n";
  }
}

void WriteWhy(const std::vector<const StorageRow*>& rows, bool md, std::ostream& o) {
  o << "\n" << (md ? "### " : "") << "Why, per storage type\n\n";
  for (const StorageRow* row : rows) {
    o << (md ? "#### " : "  ") << row->title << "\n" << (md ? "\n" : "");
    for (const Cell& c : row->cells)
      o << (md ? "- `" : "    ") << c.parameter << (md ? "`" : "") << " = " << c.value << ": " << c.why << " [" << c.source << "]\n";
    o << (md ? "- " : "    ") << "OS: I/O scheduler " << row->scheduler << "; mount " << row->mount << "\n";
    for (const std::string& n : row->notes) o << (md ? "- **" : "    ") << "warning: " << n << (md ? "**" : "") << "\n";
    o << "\n";
  }
}

void WriteMachineAndRest(const Recommendation& r, bool md, std::ostream& o) {
  o << (md ? "### " : "") << "Machine\n\n";
  if (md) o << "| parameter | value | range | why |\n|---|---|---|---|\n";
  for (const Cell& c : r.machine) {
    if (md) o << "| " << c.parameter << " | " << c.value << " | " << RangeText(c) << " | " << c.why << " |\n";
    else o << "  " << Pad(c.parameter, 34) << Pad(c.value, 10) << c.why << "\n";
  }
  if (!NrHugepagesLine(r).empty()) o << (md ? "\n" : "\n  ") << "OS: " << NrHugepagesLine(r) << "\n";
  if (!r.tablespaces.empty()) {
    o << "\n" << (md ? "### " : "") << "Tablespaces\n\n";
    for (const TablespaceAdvice& t : r.tablespaces) o << (md ? "- `" : "  ") << t.sql << (md ? "`" : "") << "\n";
  }
  o << "\n" << (md ? "### " : "") << "Autovacuum\n\n";
  for (const Cell& c : r.autovacuum) o << (md ? "- " : "  ") << c.parameter << " = " << c.value << ": " << c.why << "\n";
  o << "\n" << (md ? "" : "  ") << "Per table size (trigger = threshold + scale_factor x rows"
    << (r.major >= 18 ? ", capped by autovacuum_vacuum_max_threshold 100M" : "") << "):\n\n";
  if (md) o << "| class | dead tuples before vacuum | with defaults | statement |\n|---|---|---|---|\n";
  for (const TableClass& t : r.tables) {
    if (md) o << "| " << t.label << " | " << Num(t.vacuum_trigger) << " | " << Num(t.default_trigger) << " | `" << t.sql << "` |\n";
    else o << "  " << Pad(t.label, 26) << Pad(Num(t.vacuum_trigger), 12) << "(default " << Pad(Num(t.default_trigger) + ")", 13) << t.sql << "\n";
  }
  o << "\n" << (md ? "### " : "") << "Sources\n\n";
  for (const std::string& s : r.sources) o << (md ? "- " : "  ") << s << "\n";
}

std::string RenderText(const Recommendation& r, const std::vector<const StorageRow*>& rows, bool md) {
  std::ostringstream o;
  o << (md ? "## " : "") << "Recommendation for " << RecommendationHeader(r) << "\n\n";
  for (const std::string& a : r.assumptions) o << (md ? "- " : "  ") << "assumption: " << a << "\n";
  if (!r.assumptions.empty()) o << "\n";
  WriteMatrix(r, rows, md, o);
  WriteWhy(rows, md, o);
  WriteMachineAndRest(r, md, o);
  return o.str();
}

}  // namespace

std::string RenderRecommendation(const Recommendation& r, RecommendFormat format, bool all) {
  std::vector<const StorageRow*> rows = Rows(r, all);
  switch (format) {
    case RecommendFormat::kJson: return RenderJson(r, rows);
    case RecommendFormat::kConf: return RenderSettings(r, false);
    case RecommendFormat::kSql: return RenderSettings(r, true);
    case RecommendFormat::kMarkdown: return RenderText(r, rows, true);
    case RecommendFormat::kTable: break;
  }
  return RenderText(r, rows, false);
}

}  // namespace pgconflint
