// The comparison, parameter by parameter, and the reason for each difference.
#include "core/review/drift.h"

#include <cstdlib>
#include <set>

#include "core/model/effective.h"
#include "core/model/secrets.h"
#include "core/server/snapshot_source.h"
#include "core/conf/classify.h"
#include "core/sql/sql_quote.h"
#include "core/knowledge/value.h"

namespace pgconflint {
namespace {

// Why the server runs `r` rather than the repository's value.
std::string Why(const SnapshotSetting& r) {
  const std::string at = r.sourcefile.empty() ? "" : " (" + r.sourcefile + ":" + std::to_string(r.sourceline) + ")";
  if (r.pending_restart) return "the server's files already say so, but a restart is pending";
  if (r.source == "configuration file") {
    if (NameOf(r.sourcefile) == NamedAs::kAutoConf)
      return "ALTER SYSTEM overrides it in postgresql.auto.conf" + at;
    return "a configuration file of the server sets it" + at;
  }
  if (r.source == "command line") return "the server's command line sets it, which overrides every file";
  if (r.source == "database" || r.source == "user" || r.source == "database user" || r.source == "global")
    return "a setting of the connecting " +
           std::string(r.source == "database" ? "database" : r.source == "global" ? "cluster (ALTER ROLE ALL)"
                                                                                  : "role") +
           " (ALTER " + (r.source == "database" ? "DATABASE" : "ROLE") + " ... SET) overrides it for this session";
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

}  // namespace

void CompareWithServer(const Snapshot& server, Analysis* repo) {
  if (!repo->catalog || repo->failure != Analysis::Failure::kNone) return;
  EffectiveConfig eff(*repo);
  std::set<std::string> seen;
  for (const SnapshotSetting& r : server.settings) {
    const Parameter* p = repo->catalog->Find(r.name);
    if (!p || !Comparable(r) || !seen.insert(p->name).second) continue;
    const Setting* s = eff.SettingFor(p->name);
    if (!s && !ClusterSource(r)) continue;  // neither side sets it
    std::optional<std::string> ours = eff.Configured(p->name);
    // A snapshot written by `pgconflint snapshot` holds its passwords masked.
    if (!ours || *ours == r.setting || MaskSecrets(*ours) == r.setting) continue;
    Location where = s ? Location{s->file, {s->name_range.begin, s->value_range.end}} : Location{};
    repo->Add(MakeDiagnostic(Rule(RuleId::kConfigurationDrift), where,
                             std::string(p->name) + " is " + QuoteLiteral(ShownWithUnit(*p, *ours)) + " here" +
                                 (s ? "" : " (the default)") + " but " +
                                 QuoteLiteral(ShownWithUnit(*p, r.setting)) + " on " +
                                 server.server + ": " + Why(r),
                             "deploy this configuration and reload (or restart), or update the repository to what "
                             "the server runs",
                             p->name));
  }
  if (!server.file_settings) return;
  for (const SnapshotFileSetting& f : *server.file_settings) {
    if (!server.Refused(f)) continue;
    repo->Add(MakeDiagnostic(Rule(RuleId::kServerRefusedSetting), {},
                             server.server + " did not apply " + f.sourcefile + ":" + std::to_string(f.sourceline) +
                                 (f.name.empty() ? "" : " (" + f.name + ")") + ": " + f.error,
                             "fix the server's file, then reload", f.name));
  }
}

}  // namespace pgconflint
