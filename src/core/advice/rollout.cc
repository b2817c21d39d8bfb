// The groups of a rollout and their statements.
#include "core/advice/rollout.h"

#include <algorithm>

#include "core/sql/sql_quote.h"

namespace pgconflint {
namespace {

void List(const std::vector<RolloutStep>& v, std::ostream& o) {
  for (const RolloutStep& s : v) {
    o << "   " << s.param->name << ": " << s.now << " -> " << s.value;
    if (!s.why.empty()) o << "  (" << s.why << ")";
    if (!s.waits_for.empty())
      o << "  [context " << ContextName(s.param->context) << ", but capped by " << s.waits_for
        << ", which needs the restart]";
    o << "\n";
  }
}

std::string NameList(const std::vector<RolloutStep>& v) {
  std::string n;
  for (const RolloutStep& s : v) n += (n.empty() ? "'" : ", '") + std::string(s.param->name) + "'";
  return n;
}

void WriteRestart(const Rollout& r, int major, RolloutSource source, const std::string& heading, std::ostream& o) {
  bool capped = std::any_of(r.restart.begin(), r.restart.end(), [](const RolloutStep& s) { return !s.waits_for.empty(); });
  o << heading << ". In a restart window (context postmaster" << (capped ? ", and the settings capped by those" : "")
    << "):\n";
  List(r.restart, o);
  if (source == RolloutSource::kAlterSystem)
    for (const RolloutStep& s : r.restart) o << "     " << AlterSystemStatement(*s.param, s.value) << "\n";
  else if (source == RolloutSource::kScript)
    o << "     run the changed script (a reload alone leaves these pending)\n";
  else
    o << "     deploy the changed files (a reload alone leaves these pending)\n";
  o << "   before the restart: SELECT name, pending_restart FROM pg_settings WHERE pending_restart;\n"
       "   restart (pg_ctl restart, or your service manager), then verify:\n";
  for (const RolloutStep& s : r.restart) o << "     SHOW " << s.param->name << ";\n";
  if (major >= 18)
    o << "     SELECT name, setting FROM pg_settings WHERE name IN ('io_max_concurrency', 'io_combine_limit', "
         "'io_max_combine_limit');  -- the effective values: `pgconflint show` explains them\n";
  o << "\n";
}

std::string Joined(const std::vector<std::string>& v) {
  std::string out;
  for (const std::string& s : v) out += (out.empty() ? "" : ", ") + s;
  return out;
}

// pg_hba.conf and pg_ident.conf: checked on disk before the reload (the
// views read the files, not what the server loaded), then tried with a new
// session (existing ones keep how they authenticated).
void WriteAuthFiles(const Rollout& r, int major, const std::string& heading, std::ostream& o) {
  std::vector<std::string> files = r.hba_files;
  files.insert(files.end(), r.ident_files.begin(), r.ident_files.end());
  o << heading << ". Deploy the changed " << Joined(files) << ", check that the server can load "
    << (files.size() == 1 ? "it" : "them") << ", then reload:\n";
  o << "   before the reload (the view reads the file on disk; no rows: it loads):\n";
  if (!r.hba_files.empty()) o << "     SELECT line_number, error FROM pg_hba_file_rules WHERE error IS NOT NULL;\n";
  if (!r.ident_files.empty()) {
    if (major >= 15)
      o << "     SELECT line_number, error FROM pg_ident_file_mappings WHERE error IS NOT NULL;\n";
    else
      o << "     (PostgreSQL " << major << " has no view of pg_ident.conf: after the reload, look for "
        << "\"pg_ident.conf was not reloaded\" in the server log)\n";
  }
  o << "     SELECT pg_reload_conf();\n"
       "   verify: a new session for each rule that changed (sessions already open keep how they "
       "authenticated), e.g. psql \"host=HOST dbname=DB user=USER\" -c 'SELECT 1'\n\n";
}

}  // namespace

void AddRolloutStep(RolloutStep step, RolloutSource source, Rollout* r) {
  switch (step.param->context) {
    case Context::kInternal: return;
    case Context::kPostmaster: r->restart.push_back(std::move(step)); return;
    case Context::kUser:
      (source == RolloutSource::kAlterSystem ? r->session : r->reload).push_back(std::move(step));
      return;
    default: r->reload.push_back(std::move(step)); return;
  }
}

void WaitForCaps(Rollout* r) {
  static const std::pair<const char*, const char*> kCappedBy[] = {
      {"max_parallel_workers", "max_worker_processes"},
      {"max_parallel_workers_per_gather", "max_worker_processes"},
      {"max_parallel_maintenance_workers", "max_worker_processes"},
      {"autovacuum_max_workers", "autovacuum_worker_slots"},
      {"io_combine_limit", "io_max_combine_limit"},
  };
  auto in_restart = [&](const char* n) {
    return std::any_of(r->restart.begin(), r->restart.end(),
                       [&](const RolloutStep& s) { return std::string_view(s.param->name) == n; });
  };
  for (auto* group : {&r->session, &r->reload}) {
    for (auto it = group->begin(); it != group->end();) {
      const char* capped_by = nullptr;
      for (const auto& [dep, cap] : kCappedBy)
        if (std::string_view(it->param->name) == dep && in_restart(cap)) capped_by = cap;
      if (capped_by) {
        it->waits_for = capped_by;
        r->restart.push_back(*it);
        it = group->erase(it);
      } else {
        ++it;
      }
    }
  }
}

void WriteRollout(const Rollout& r, int major, RolloutSource source, const char* h, std::ostream& o) {
  int step = 1;
  if (!r.hba_files.empty() || !r.ident_files.empty()) WriteAuthFiles(r, major, std::string(h) + std::to_string(step++), o);
  if (!r.session.empty()) {
    o << h << step++ << ". Try per session first (no server change), on the queries that matter:\n";
    List(r.session, o);
    o << "   SQL:\n";
    for (const RolloutStep& s : r.session) o << "     SET " << s.param->name << " = " << SettingValueText(s.param, s.value) << ";\n";
    o << "   verify: EXPLAIN (ANALYZE, BUFFERS) of the query before and after, and a pg_stat_io snapshot:\n"
         "     SELECT backend_type, object, context, reads, read_bytes, read_time FROM pg_stat_io WHERE reads > 0;\n\n";
  }
  if (!r.tablespace_sql.empty()) {
    o << h << step++ << ". Per tablespace (takes effect for new queries, no reload):\n";
    for (const std::string& sql : r.tablespace_sql) o << "     " << sql << "\n";
    o << "   verify: SELECT spcname, spcoptions FROM pg_tablespace;\n\n";
  }
  if (!r.session.empty() || !r.reload.empty()) {
    if (source == RolloutSource::kAlterSystem) {
      o << h << step++ << ". Make it permanent with a reload:\n";
      List(r.reload, o);
      for (const auto* v : {&r.session, &r.reload})
        for (const RolloutStep& s : *v) o << "     " << AlterSystemStatement(*s.param, s.value) << "\n";
    } else {
      o << h << step++
        << (source == RolloutSource::kScript
                ? ". Run the changed script (its ALTER SYSTEM statements write postgresql.auto.conf), then reload:\n"
                : ". Deploy the changed files, then reload:\n");
      List(r.reload, o);
    }
    o << "     SELECT pg_reload_conf();\n";
    if (source != RolloutSource::kAlterSystem)
      o << "   check that the server read the files: SELECT sourcefile, sourceline, name, error FROM pg_file_settings "
           "WHERE error IS NOT NULL;\n";
    o << "   verify: SELECT name, setting, unit, source FROM pg_settings WHERE name IN (" << NameList(r.session)
      << (r.session.empty() || r.reload.empty() ? "" : ", ") << NameList(r.reload) << ");\n\n";
  }
  if (!r.restart.empty()) WriteRestart(r, major, source, std::string(h) + std::to_string(step++), o);
}

}  // namespace pgconflint
