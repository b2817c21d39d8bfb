// Fleets: snapshots taken by a bounded pool of threads (libpq connections
// are independent), then linted one by one in the input order.
#include "cli/fleet.h"

#include <unistd.h>

#include <nlohmann/json.hpp>

#include <atomic>
#include <exception>
#include <fstream>
#include <iostream>
#include <mutex>
#include <new>
#include <sstream>
#include <thread>

#include "core/knowledge/catalog.h"
#include "core/base/file_system.h"
#include "core/model/secrets.h"
#include "core/server/snapshot.h"
#include "live/live.h"
#include "report/text.h"

namespace pgconflint::cli {
namespace {

// Above this many servers, progress goes to stderr.
constexpr size_t kProgressAbove = 4;

// One server of the fleet: where its snapshot comes from, and what it held.
struct Server {
  std::string conninfo;  // or
  std::string snapshot_file;
  // Filled by Take():
  bool ok = false;
  std::string label, json, error;
};

bool ReadConninfoFile(const std::string& path, std::vector<std::string>* out) {
  RealFileSystem fs;
  std::string text, error;
  if (fs.Read(path, &text, &error) != ReadStatus::kOk) {
    PrintError(path + ": " + error);
    return false;
  }
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    size_t b = line.find_first_not_of(" \t\r");
    if (b == std::string::npos || line[b] == '#') continue;
    out->push_back(line.substr(b, line.find_last_not_of(" \t\r") + 1 - b));
  }
  return true;
}

// Takes the snapshots of `targets` with at most `jobs` threads (none when the taker must
// stay on the main thread).
void TakeAll(const SnapshotTaker& taker, int jobs, std::vector<Server>* targets) {
  std::vector<size_t> live;
  for (size_t i = 0; i < targets->size(); ++i)
    if (!(*targets)[i].conninfo.empty()) live.push_back(i);
  std::atomic<size_t> next{0}, done{0};
  std::mutex progress;
  const bool show = live.size() > kProgressAbove, tty = isatty(STDERR_FILENO);
  auto work = [&] {
    for (size_t k; (k = next++) < live.size();) {
      Server& t = (*targets)[live[k]];
      try {
        t.ok = taker.Take(t.conninfo, &t.json, &t.label, &t.error);
      } catch (const std::exception& e) {
        // One server's failure (a bug, memory running out) is that server's,
        // named and said as a failed Take says it: without the password.
        t.ok = false;
        t.label = MaskSecrets(t.conninfo);
        const bool memory = dynamic_cast<const std::bad_alloc*>(&e) != nullptr;
        t.error = t.label + ": " + (memory ? "out of memory" : ScrubSecrets(e.what(), SecretsIn(t.conninfo)));
      }
      size_t n = ++done;
      if (!show) continue;
      std::lock_guard<std::mutex> lock(progress);
      std::cerr << (tty ? "\r" : "") << "pgconflint: " << n << "/" << live.size() << " servers"
                << (tty && n < live.size() ? "" : "\n") << std::flush;
    }
  };
  const size_t n = std::min<size_t>(live.size(), static_cast<size_t>(std::max(jobs, 1)));
  if (n <= 1 || !taker.ThreadSafe()) {  // one server at a time, on this thread
    work();
    return;
  }
  std::vector<std::thread> pool;
  for (size_t i = 0; i < n; ++i) pool.emplace_back(work);
  for (std::thread& t : pool) t.join();
}

ServerRow RowFor(const Snapshot& s, const std::vector<Analysis>& mine, bool drift) {
  ServerRow r;
  r.server = s.server;
  // Without server_version (a hand-written snapshot), server_version_num as
  // PostgreSQL 10 on spells it: 180004 is 18.4.
  r.version = !s.server_version.empty()  ? s.server_version
              : s.server_version_num > 0 ? std::to_string(s.major()) + "." + std::to_string(s.server_version_num % 10000)
                                         : "";
  r.drift = drift ? 0 : -1;
  for (const Analysis& a : mine) {
    r.fatal = r.fatal || a.fatal();
    for (const Diagnostic& d : a.diagnostics) {
      (d.severity() == Severity::kError ? r.errors : d.severity() == Severity::kWarning ? r.warnings : r.info)++;
      if (drift && d.rule == &Rule(RuleId::kConfigurationDrift)) ++r.drift;
    }
  }
  for (const SnapshotSetting& x : s.settings) r.pending_restarts += x.pending_restart;
  return r;
}

// Lints one server (or each path against it); false on a configuration error.
// A root that could not be read (a major without knowledge) raises
// *exit_code to 2 (3 for an I/O error), as `check PATH` does.
bool LintServer(Workspace* ws, const Snapshot& s, const std::vector<std::string>& paths, bool fleet,
                std::vector<Analysis>* analyses, std::vector<ServerRow>* rows, int* exit_code) {
  std::vector<Analysis> mine;
  std::string error;
  if (paths.empty()) {
    mine.emplace_back();
    if (!ws->LintSnapshot(s, &mine.back(), &error)) return PrintError(error), false;
    // In a fleet every location names its server: two servers' pg_db_role_setting:1
    // or /srv/pg/postgresql.conf:3 would print alike.
    if (fleet)
      for (LoadedFile& f : mine.back().files)
        if (f.source.path() != s.server) f.source = SourceFile(s.server + " " + f.source.path(), f.source);
  }
  for (const std::string& p : paths) {
    mine.emplace_back();
    if (!ws->LintDrift(p, s, &mine.back(), &error)) return PrintError(error), false;
    mine.back().root = p + " vs " + s.server;
  }
  rows->push_back(RowFor(s, mine, !paths.empty()));
  for (const Analysis& a : mine) {
    if (a.failure == Analysis::Failure::kNone) continue;
    PrintError(s.server + ": " + a.failure_message);
    rows->back().error = a.failure_message;
    *exit_code = std::max(*exit_code, a.failure == Analysis::Failure::kIo ? kExitInternal : kExitUsage);
  }
  for (Analysis& a : mine) analyses->push_back(std::move(a));
  return true;
}

}  // namespace

void AddLiveOptions(CLI::App* command, LiveCheckOptions* o) {
  CLI::App* check = command->add_option_group("Live servers");
  check->add_option("--live", o->conninfos,
                    "Check a running server: a libpq connection string (URI or key=value; PG* variables and "
                    ".pgpass apply); repeatable. With PATH: compare PATH with the server (drift)")
      ->allow_extra_args(false);
  check->add_option("--live-file", o->conninfo_file, "A file of connection strings, one per line (# comments)");
  check->add_option("--snapshot", o->snapshots,
                    "Check a server from a snapshot file (`pgconflint snapshot`, scripts/snapshot.sql); repeatable")
      ->allow_extra_args(false);
  check->add_option("--jobs", o->jobs, "Servers snapshotted at once")->check(CLI::Range(1, 64))->capture_default_str();
  check->add_option("--summary", o->summary, "Print only the fleet summary table, in this format")
      ->check(CLI::IsMember({"text", "markdown", "json"}));
  check->add_option("--connect-timeout", o->connect_timeout_s, "Seconds to wait for each connection")
      ->check(CLI::Range(1, 3600))
      ->capture_default_str();
  check->add_option("--statement-timeout", o->statement_timeout_ms,
                    "Milliseconds for each snapshot query (no answer 2 s later ends that server's check)")
      ->check(CLI::Range(100, 3600000))
      ->capture_default_str();
}

int CheckServers(const CommonOptions& common, const LiveCheckOptions& o, const std::vector<std::string>& paths,
                 std::vector<Analysis>* analyses, std::vector<ServerRow>* rows, int* major) {
  std::vector<Server> targets;
  std::vector<std::string> conninfos = o.conninfos;
  if (!o.conninfo_file.empty() && !ReadConninfoFile(o.conninfo_file, &conninfos)) return kExitUsage;
  for (const std::string& c : conninfos) targets.push_back({c, "", false, "", "", ""});
  for (const std::string& f : o.snapshots) targets.push_back({"", f, false, "", "", ""});
  live::LibpqSnapshotTaker libpq({o.connect_timeout_s, o.statement_timeout_ms});
  TakeAll(o.taker ? *o.taker : static_cast<const SnapshotTaker&>(libpq), o.jobs, &targets);
  Workspace ws(MakeWorkspaceOptions(common, nullptr, &HostFor(common)));
  int exit_code = kExitOk;
  for (Server& t : targets) {
    Snapshot s;
    std::string error;
    if (!t.snapshot_file.empty()) {
      if (!ReadSnapshotFile(t.snapshot_file, &s)) return kExitUsage;
    } else if (!t.ok || !ReadSnapshot(t.json, &s, &error)) {
      PrintError(t.ok ? t.label + ": " + error : t.error);
      ServerRow r;
      r.server = t.label;
      r.error = t.ok ? error : t.error;
      rows->push_back(r);
      exit_code = kExitInternal;
      continue;
    }
    if (!*major && (common.major || Catalog::ForMajor(s.major())))
      *major = common.major ? common.major : s.major();
    if (!LintServer(&ws, s, paths, targets.size() > 1, analyses, rows, &exit_code)) return kExitUsage;
  }
  return exit_code;
}

void RenderSummary(const std::vector<ServerRow>& rows, const std::string& format, std::ostream& out) {
  auto cells = [](const ServerRow& r) {
    if (!r.error.empty())
      return std::vector<std::string>{r.server, r.version.empty() ? "-" : r.version, "-", "-", "-", "-", "-",
                                      (r.version.empty() ? "down: " : "not checked: ") + r.error};
    return std::vector<std::string>{r.server, r.version, r.fatal ? "yes" : "no", std::to_string(r.errors),
                                    std::to_string(r.warnings), std::to_string(r.pending_restarts),
                                    r.drift < 0 ? "-" : std::to_string(r.drift), "ok"};
  };
  const std::vector<std::string> head = {"server", "version", "fatal", "errors", "warnings", "pending restart", "drift", "status"};
  if (format == "json") {
    nlohmann::ordered_json arr = nlohmann::ordered_json::array();
    for (const ServerRow& r : rows)
      arr.push_back({{"server", r.server}, {"version", r.version.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(r.version)},
                     {"reachable", r.error.empty() || !r.version.empty()}, {"error", r.error.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(r.error)},
                     {"fatal", r.fatal}, {"errors", r.errors}, {"warnings", r.warnings}, {"info", r.info},
                     {"pending_restarts", r.pending_restarts},
                     {"drift", r.drift < 0 ? nlohmann::ordered_json() : nlohmann::ordered_json(r.drift)}});
    out << nlohmann::ordered_json({{"servers", arr}}).dump(2, ' ', false, nlohmann::json::error_handler_t::replace)
        << "\n";
    return;
  }
  std::vector<std::vector<std::string>> table = {head};
  for (const ServerRow& r : rows) table.push_back(cells(r));
  if (format == "markdown") {
    for (size_t i = 0; i < table.size(); ++i) {
      out << "|";
      for (const std::string& c : table[i]) out << " " << EscapeControls(c) << " |";
      out << "\n";
      if (i == 0) out << "|---|---|---|---:|---:|---:|---:|---|\n";
    }
    return;
  }
  // A line starts with the server's name: it cannot start a workflow command.
  auto shown = [](const std::string& text, size_t column) {
    return column == 0 ? LineStartSafe(EscapeControls(text)) : EscapeControls(text);
  };
  std::vector<size_t> width(head.size(), 0);
  for (const auto& row : table)
    for (size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], shown(row[c], c).size());
  for (const auto& row : table) {
    std::string line;
    for (size_t c = 0; c < row.size(); ++c) {
      std::string cell = shown(row[c], c);
      line += cell + (c + 1 < row.size() ? std::string(width[c] - cell.size() + 2, ' ') : "");
    }
    out << line << "\n";
  }
}

}  // namespace pgconflint::cli
