// The comparison, parameter by parameter, and the reason for each difference.
#include "core/review/drift.h"

#include <cstdlib>
#include <set>
#include <unordered_map>

#include "core/model/effective.h"
#include "core/model/secrets.h"
#include "core/server/server_state.h"
#include "core/server/snapshot_source.h"
#include "core/conf/classify.h"
#include "core/sql/sql_quote.h"
#include "core/knowledge/sql_knowledge.h"
#include "core/knowledge/value.h"

namespace pgconflint {
namespace {

// What the server's files say of each parameter: the line that decides it
// (the last one, applied or waiting for a restart), with its value as
// `postgres -C` prints it. A parameter is absent when the files do not set
// it or its value is refused, and every one when pg_file_settings is not
// visible.
struct FileValue {
  const SnapshotFileSetting* row = nullptr;
  std::string value;
};
std::unordered_map<const Parameter*, FileValue> ServerFileValues(const Snapshot& server, const Catalog& cat) {
  std::unordered_map<const Parameter*, FileValue> out;
  if (!server.file_settings) return out;
  for (const SnapshotFileSetting& f : *server.file_settings) {
    const Parameter* p = f.name.empty() ? nullptr : cat.FindAnyName(f.name);
    if (!p) continue;
    FileValue& v = out[p];
    if (!v.row || f.seqno > v.row->seqno) v.row = &f;
  }
  for (auto it = out.begin(); it != out.end();) {
    const SnapshotFileSetting& row = *it->second.row;
    ParsedValue v = ParseValue(cat, *it->first, row.setting);
    if (server.Refused(row) || !v.ok()) {
      it = out.erase(it);
      continue;
    }
    it->second.value = v.normalized;
    ++it;
  }
  return out;
}

std::string Where(const SnapshotFileSetting& f) {
  return f.sourcefile + ":" + std::to_string(f.sourceline) +
         (NameOf(f.sourcefile) == NamedAs::kAutoConf ? ", written by ALTER SYSTEM" : "");
}

// Why the server runs `r` rather than the repository's `ours`; `files`: what
// the server's files say.
std::string Why(const Parameter& p, const SnapshotSetting& r, const FileValue& files, const std::string& ours) {
  const std::string at = r.sourcefile.empty() ? "" : " (" + r.sourcefile + ":" + std::to_string(r.sourceline) + ")";
  if (r.pending_restart && files.row && files.value != ours)
    return "its files say " + QuoteLiteral(ShownWithUnit(p, files.value)) + " (" + Where(*files.row) +
           "), which the next restart applies";
  if (r.pending_restart) return "the server's files already say so, but a restart is pending";
  if (r.source == "configuration file") {
    if (NameOf(r.sourcefile) == NamedAs::kAutoConf)
      return "ALTER SYSTEM overrides it in postgresql.auto.conf" + at;
    return "a configuration file of the server sets it" + at;
  }
  if (r.source == "command line") return "the server's command line sets it, which overrides every file";
  if (ServerDefault(r)) return "the server runs the default: the repository's setting is not deployed";
  if (r.source == "environment variable") return "an environment variable of the server sets it";
  return "its source is " + r.source;
}

// Only parameters the server's configuration decides (not the connecting
// client's own settings, nor computed ones).
bool Comparable(const SnapshotSetting& r) {
  return r.source != "client" && r.source != "session" && r.source != "interactive" && r.source != "override" &&
         r.source != "test" && r.context != "internal";
}

// A value of the connecting session's database or role (ALTER DATABASE/ROLE
// ... SET): pg_settings does not show the cluster's value under it.
bool SessionScoped(const SnapshotSetting& r) {
  return r.source == "database" || r.source == "user" || r.source == "database user" || r.source == "global";
}

// The value the repository gives the sessions of `database` and `role`:
// its own ALTER DATABASE/ROLE ... SET of that scope, else the cluster's.
std::optional<std::string> ScopedValue(const Analysis& repo, const EffectiveConfig& eff, const Parameter& p,
                                       const std::string& database, const std::string& role) {
  const Setting* found = nullptr;
  for (const Setting& s : repo.settings)
    if (s.param == &p && s.applied && !s.origin.cluster_wide() && s.origin.kind != Origin::Kind::kSession &&
        s.origin.database == database && s.origin.role == role)
      found = &s;
  if (found) return found->value;
  return eff.Configured(p.name);
}

// "work_mem is '64MB' here", or "... here (the default)" when the repository does not set it.
std::string Here(const Parameter& p, const std::string& ours, const Setting* s) {
  return std::string(p.name) + " is " + QuoteLiteral(ShownWithUnit(p, ours)) + " here" + (s ? "" : " (the default)");
}

// PGC1103 at the repository's line `s` (at the root when it does not set the parameter).
void AddDrift(Analysis* repo, const Setting* s, const Parameter& p, std::string message,
              std::string help = "deploy this configuration and reload (or restart), or update the repository to "
                                 "what the server runs") {
  Location where = s ? Location{s->file, {s->name_range.begin, s->value_range.end}} : Location{};
  repo->Add(MakeDiagnostic(Rule(RuleId::kConfigurationDrift), where, std::move(message), std::move(help), p.name));
}

// The cluster's values: pg_settings (and, for a value waiting for a restart
// or hidden under the session's database or role setting, what the
// server's files say).
void CompareClusterValues(const Snapshot& server, const EffectiveConfig& eff, Analysis* repo) {
  const Catalog& cat = *repo->catalog;
  const std::unordered_map<const Parameter*, FileValue> file_values = ServerFileValues(server, cat);
  std::set<std::string> seen;
  for (const SnapshotSetting& r : server.settings) {
    const Parameter* p = cat.Find(r.name);
    if (!p || !Comparable(r) || !seen.insert(p->name).second) continue;
    const Setting* s = eff.SettingFor(p->name);
    const auto found = file_values.find(p);
    const FileValue files = found == file_values.end() ? FileValue{} : found->second;
    if (!s && !ClusterSource(r) && !files.row) continue;  // neither side sets it
    std::optional<std::string> ours = eff.Configured(p->name);
    if (!ours) continue;
    const std::string here = Here(*p, *ours, s);
    // A snapshot written by `pgconflint snapshot` holds its passwords masked.
    auto same = [&](const std::string& theirs) { return *ours == theirs || MaskSecrets(*ours) == theirs; };
    if (SessionScoped(r)) {
      // The database or role setting is compared below; the cluster's value is the files'.
      if (files.row && !same(files.value))
        AddDrift(repo, s, *p,
                 here + " but " + QuoteLiteral(ShownWithUnit(*p, files.value)) + " in the files of " + server.server +
                     " (" + Where(*files.row) + ")");
      continue;
    }
    if (!same(r.setting)) {
      AddDrift(repo, s, *p,
               here + " but " + QuoteLiteral(ShownWithUnit(*p, r.setting)) + " on " + server.server + ": " +
                   Why(*p, r, files, *ours));
    } else if (r.pending_restart && files.row && !same(files.value)) {
      AddDrift(repo, s, *p,
               here + " and on " + server.server + " now, but its files say " +
                   QuoteLiteral(ShownWithUnit(*p, files.value)) + " (" + Where(*files.row) +
                   "): the next restart changes it");
    }
  }
}

// Each database and role setting of the server (pg_db_role_setting) whose
// value differs from the one the repository gives its sessions.
void CompareScopedValues(const Snapshot& server, const EffectiveConfig& eff, Analysis* repo) {
  const Catalog& cat = *repo->catalog;
  const SqlFacts* facts = SqlFacts::ForMajor(cat.major());
  auto ident = [facts](const std::string& name) {
    return facts ? QuoteIdentifierIfNeeded(*facts, name) : QuoteIdentifier(name);
  };
  for (const SnapshotDbRoleSetting& row : server.db_role_settings) {
    const std::string scope = !row.database.empty() && !row.role.empty()
                                  ? "role " + row.role + " in database " + row.database
                              : !row.database.empty() ? "database " + row.database
                              : !row.role.empty()     ? "role " + row.role
                                                      : "every role (ALTER ROLE ALL)";
    const std::string statement =
        row.role.empty() && !row.database.empty() ? "ALTER DATABASE " + ident(row.database)
        : "ALTER ROLE " + (row.role.empty() ? std::string("ALL") : ident(row.role)) +
              (row.database.empty() ? "" : " IN DATABASE " + ident(row.database));
    for (const std::string& item : row.settings) {
      const size_t eq = item.find('=');
      if (eq == std::string::npos) continue;
      const Parameter* p = cat.FindAnyName(item.substr(0, eq));
      if (!p) continue;
      ParsedValue v = ParseValue(cat, *p, item.substr(eq + 1));
      std::optional<std::string> ours = ScopedValue(*repo, eff, *p, row.database, row.role);
      if (!v.ok() || !ours || v.normalized == *ours) continue;
      const Setting* s = eff.SettingFor(p->name);
      AddDrift(repo, s, *p,
               Here(*p, *ours, s) + " but " + QuoteLiteral(ShownWithUnit(*p, v.normalized)) + " for " +
                   scope + " on " + server.server + ": " + statement + " SET " + p->name +
                   " overrides the configuration for its sessions",
               "keep that setting in the repository (a runbook with the statement), or remove it on the server: " +
                   statement + " RESET " + p->name);
    }
  }
}

}  // namespace

void CompareWithServer(const Snapshot& server, Analysis* repo) {
  if (!repo->catalog || repo->failure != Analysis::Failure::kNone) return;
  EffectiveConfig eff(*repo);
  CompareClusterValues(server, eff, repo);
  CompareScopedValues(server, eff, repo);
  if (!server.file_settings) return;
  for (const SnapshotFileSetting& f : *server.file_settings)
    if (server.Refused(f)) repo->Add(RefusedLineFinding(server, f, {}));
}

}  // namespace pgconflint
