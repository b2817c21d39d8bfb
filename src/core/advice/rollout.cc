// The groups of a rollout and their statements.
#include "core/advice/rollout.h"

#include <algorithm>

#include "core/base/escape.h"
#include "core/base/strings.h"
#include "core/sql/sql_quote.h"

namespace pgconflint {
namespace {

// The two spellings of a rollout. Text: "N. heading:", the changes indented
// by three spaces, statements by five. Markdown (CommonMark): a heading per
// step, the changes as a list, prose as paragraphs and statements in fenced
// code blocks, so that a renderer keeps them apart.
class Writer {
 public:
  Writer(const RolloutStyle& style, std::ostream& o) : md_(style.markdown), level_(style.heading_level), o_(o) {}

  void Heading(int step, std::string_view title) {
    if (md_) o_ << std::string(level_, '#') << " " << step << ". " << MarkdownEscape(title) << "\n\n";
    else o_ << step << ". " << title << ":\n";
  }
  void Changes(const std::vector<RolloutStep>& v) {
    for (const RolloutStep& s : v) {
      if (md_) {
        o_ << "- " << MarkdownCode(s.param->name) << ": " << MarkdownCode(s.now) << " → " << MarkdownCode(s.value);
        if (!s.why.empty()) o_ << " (" << MarkdownEscape(s.why) << ")";
        if (!s.waits_for.empty())
          o_ << " (context " << ContextName(s.param->context) << ", but capped by " << MarkdownCode(s.waits_for)
             << ", which needs the restart)";
      } else {
        o_ << "   " << s.param->name << ": " << s.now << " -> " << s.value;
        if (!s.why.empty()) o_ << "  (" << s.why << ")";
        if (!s.waits_for.empty())
          o_ << "  [context " << ContextName(s.param->context) << ", but capped by " << s.waits_for
             << ", which needs the restart]";
      }
      o_ << "\n";
    }
    if (md_ && !v.empty()) o_ << "\n";
  }
  // A line of prose; `code` (SQL, or a shell command with `lang` "sh")
  // follows it on its line in text, in a block of its own in markdown.
  void Say(std::string_view prose, std::string_view code = "", const char* lang = "sql") {
    if (!md_) {
      o_ << "   " << prose << (code.empty() ? "" : " ") << code << "\n";
      return;
    }
    o_ << MarkdownEscape(prose) << "\n\n";
    if (!code.empty()) Code({std::string(code)}, lang);
  }
  // Prose in the statements' place (text: indented as they are).
  void Note(std::string_view prose) {
    if (md_) o_ << MarkdownEscape(prose) << "\n\n";
    else o_ << "     " << prose << "\n";
  }
  void Code(const std::vector<std::string>& lines, const char* lang = "sql") {
    if (lines.empty()) return;
    if (md_) o_ << "```" << lang << "\n";
    for (const std::string& l : lines) o_ << (md_ ? "" : "     ") << l << "\n";
    if (md_) o_ << "```\n\n";
  }
  void EndStep() {
    if (!md_) o_ << "\n";
  }

 private:
  bool md_;
  int level_;
  std::ostream& o_;
};

std::string NameList(const std::vector<RolloutStep>& v) {
  return CommaList(v, [](const RolloutStep& s) { return "'" + std::string(s.param->name) + "'"; });
}

void WriteRestart(const Rollout& r, int major, RolloutSource source, int step, Writer& w) {
  bool capped = std::any_of(r.restart.begin(), r.restart.end(), [](const RolloutStep& s) { return !s.waits_for.empty(); });
  w.Heading(step, std::string("In a restart window (context postmaster") +
                      (capped ? ", and the settings capped by those" : "") + ")");
  w.Changes(r.restart);
  if (source == RolloutSource::kAlterSystem) {
    std::vector<std::string> sql;
    for (const RolloutStep& s : r.restart) sql.push_back(AlterSystemStatement(*s.param, s.value));
    w.Code(sql);
  } else {
    w.Note(source == RolloutSource::kScript ? "run the changed script (a reload alone leaves these pending)"
                                            : "deploy the changed files (a reload alone leaves these pending)");
  }
  w.Say("before the restart:", "SELECT name, pending_restart FROM pg_settings WHERE pending_restart;");
  w.Say("restart (pg_ctl restart, or your service manager), then verify:");
  std::vector<std::string> verify;
  for (const RolloutStep& s : r.restart) verify.push_back("SHOW " + std::string(s.param->name) + ";");
  if (major >= 18)
    verify.push_back("SELECT name, setting FROM pg_settings WHERE name IN ('io_max_concurrency', 'io_combine_limit', "
                     "'io_max_combine_limit');  -- the effective values: `pgconflint show` explains them");
  w.Code(verify);
  w.EndStep();
}

// pg_hba.conf and pg_ident.conf: checked on disk before the reload (the
// views read the files, not what the server loaded), then tried with a new
// session (existing ones keep how they authenticated).
void WriteAuthFiles(const Rollout& r, int major, int step, Writer& w) {
  std::vector<std::string> files = r.hba_files;
  files.insert(files.end(), r.ident_files.begin(), r.ident_files.end());
  w.Heading(step, "Deploy the changed " + CommaList(files) + ", check that the server can load " +
                      (files.size() == 1 ? "it" : "them") + ", then reload");
  w.Say("before the reload (the view reads the file on disk; no rows: it loads):");
  std::vector<std::string> sql;
  if (!r.hba_files.empty()) sql.push_back("SELECT line_number, error FROM pg_hba_file_rules WHERE error IS NOT NULL;");
  if (!r.ident_files.empty() && major >= 15)
    sql.push_back("SELECT line_number, error FROM pg_ident_file_mappings WHERE error IS NOT NULL;");
  w.Code(sql);
  if (!r.ident_files.empty() && major < 15)
    w.Note("(PostgreSQL " + std::to_string(major) + " has no view of pg_ident.conf: after the reload, look for "
           "\"pg_ident.conf was not reloaded\" in the server log)");
  w.Code({"SELECT pg_reload_conf();"});
  w.Say("verify: a new session for each rule that changed (sessions already open keep how they authenticated), e.g.",
        "psql \"host=HOST dbname=DB user=USER\" -c 'SELECT 1'", "sh");
  w.EndStep();
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

void WriteRollout(const Rollout& r, int major, RolloutSource source, const RolloutStyle& style, std::ostream& o) {
  Writer w(style, o);
  int step = 1;
  if (!r.hba_files.empty() || !r.ident_files.empty()) WriteAuthFiles(r, major, step++, w);
  if (!r.session.empty()) {
    w.Heading(step++, "Try per session first (no server change), on the queries that matter");
    w.Changes(r.session);
    w.Say("SQL:");
    std::vector<std::string> sql;
    for (const RolloutStep& s : r.session)
      sql.push_back("SET " + std::string(s.param->name) + " = " + SettingValueText(s.param, s.value) + ";");
    w.Code(sql);
    w.Say("verify: EXPLAIN (ANALYZE, BUFFERS) of the query before and after, and a pg_stat_io snapshot:");
    w.Code({"SELECT backend_type, object, context, reads, read_bytes, read_time FROM pg_stat_io WHERE reads > 0;"});
    w.EndStep();
  }
  if (!r.tablespace_sql.empty()) {
    w.Heading(step++, "Per tablespace (takes effect for new queries, no reload)");
    w.Code(r.tablespace_sql);
    w.Say("verify:", "SELECT spcname, spcoptions FROM pg_tablespace;");
    w.EndStep();
  }
  if (!r.table_sql.empty()) {
    w.Heading(step++, "Per table, autovacuum (takes effect when autovacuum next looks at the table, no reload)");
    w.Code(r.table_sql);
    w.Say("verify:", "SELECT oid::regclass, reloptions FROM pg_class WHERE reloptions IS NOT NULL AND relkind = 'r';");
    w.EndStep();
  }
  if (!r.session.empty() || !r.reload.empty()) {
    std::vector<std::string> sql;
    if (source == RolloutSource::kAlterSystem) {
      w.Heading(step++, "Make it permanent with a reload");
      w.Changes(r.reload);
      for (const auto* v : {&r.session, &r.reload})
        for (const RolloutStep& s : *v) sql.push_back(AlterSystemStatement(*s.param, s.value));
    } else {
      w.Heading(step++, source == RolloutSource::kScript
                            ? "Run the changed script (its ALTER SYSTEM statements write postgresql.auto.conf), then reload"
                            : "Deploy the changed files, then reload");
      w.Changes(r.reload);
    }
    sql.push_back("SELECT pg_reload_conf();");
    w.Code(sql);
    if (source != RolloutSource::kAlterSystem)
      w.Say("check that the server read the files:",
            "SELECT sourcefile, sourceline, name, error FROM pg_file_settings WHERE error IS NOT NULL;");
    std::string names = NameList(r.session) + (r.session.empty() || r.reload.empty() ? "" : ", ") + NameList(r.reload);
    w.Say("verify:", "SELECT name, setting, unit, source FROM pg_settings WHERE name IN (" + names + ");");
    w.EndStep();
  }
  if (!r.restart.empty()) WriteRestart(r, major, source, step++, w);
}

}  // namespace pgconflint
