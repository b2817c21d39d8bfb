// Value validation, as ProcessConfigFileInternal applies each line: settable
// in a file at all, then parse_and_validate_value with the check hooks, then
// (up to 17) the process-count sum that those hooks check line by line.
#include <algorithm>
#include <optional>
#include <unordered_map>
#include <utility>

#include "core/knowledge/hooks.h"
#include "core/knowledge/platform.h"
#include "core/knowledge/unit_spelling.h"
#include "core/conf/passes.h"
#include "core/conf/process_counts.h"
#include "core/conf/stats_flags.h"
#include "core/conf/value_warnings.h"
#include "core/base/strings.h"

namespace pgconflint {
namespace {

// The recovery_target* parameters' assign hooks: assigning any of them
// while another one holds a target is an error ("multiple recovery
// targets specified"), even when the new value is empty; an empty value
// clears the target. The lines are assigned in file order, superseded ones
// skipped.
class RecoveryTargets {
 public:
  void Check(const Setting& s, ParsedValue* v) {
    static constexpr std::string_view kNames[] = {"recovery_target", "recovery_target_lsn", "recovery_target_name",
                                                  "recovery_target_time", "recovery_target_xid"};
    if (std::find(std::begin(kNames), std::end(kNames), s.param->name) == std::end(kNames)) return;
    if (holder_ && holder_->param != s.param) {
      v->problem = ValueProblem::kInvalid;
      v->message = "multiple recovery targets specified";
      v->hint = "set only one of recovery_target, recovery_target_lsn, recovery_target_name, recovery_target_time "
                "and recovery_target_xid (" + std::string(holder_->param->name) + " is set to " +
                DoubleQuoted(holder_->text) + "); remove the other lines";
      note_ = {{holder_->file, {holder_->name_range.begin, holder_->value_range.end}},
               "the recovery target set here"};
      return;
    }
    holder_ = v->normalized.empty() ? nullptr : &s;
  }
  // The note for the finding Check just caused.
  std::optional<Note> TakeNote() { return std::exchange(note_, std::nullopt); }

 private:
  const Setting* holder_ = nullptr;
  std::optional<Note> note_;
};

// The statistics switches of the lines applied so far (StatsFlags), with
// the line that turned each on.
class StatsLines {
 public:
  void Check(const Setting& s, ParsedValue* v) {
    const std::string_view name = s.param->name;
    if (!StatsFlags::Tracks(name)) return;
    auto on = [this](std::string_view n) { return Holder(n) != nullptr; };
    const std::string_view blocker = StatsFlags::Blocker(name, on);
    StatsFlags::Check(*s.param, v, on);
    if (!v->ok()) {
      const Setting* h = Holder(blocker);
      note_ = {{h->file, {h->name_range.begin, h->value_range.end}}, std::string(blocker) + " turned on here"};
      return;
    }
    for (auto& [n, holder] : on_)
      if (n == name) holder = v->normalized == "on" ? &s : nullptr;
  }
  std::optional<Note> TakeNote() { return std::exchange(note_, std::nullopt); }

 private:
  const Setting* Holder(std::string_view name) const {
    for (const auto& [n, holder] : on_)
      if (n == name) return holder;
    return nullptr;
  }
  std::pair<std::string_view, const Setting*> on_[4] = {{StatsFlags::kStatement, nullptr},
                                                        {StatsFlags::kStages[0], nullptr},
                                                        {StatsFlags::kStages[1], nullptr},
                                                        {StatsFlags::kStages[2], nullptr}};
  std::optional<Note> note_;
};

// Read-only parameters, and parameters ALTER SYSTEM refuses found in an
// auto.conf. Returns false when the line cannot set a value at all.
bool CheckSettable(Analysis* a, const Setting& s) {
  const Parameter& p = *s.param;
  // The harvest records what `postgres -C` does with the boot value in a
  // file; "cannot be changed" means no value can be set there.
  if (!SettableInFile(p)) {
    if (!s.ignored) {
      Diagnostic d = MakeDiagnostic(Rule(RuleId::kParameterNotSettableInFile), {s.file, s.name_range}, p.file_message,
                                    "remove the line: this parameter is read-only (set when PostgreSQL is built, "
                                    "or by initdb)",
                                    p.name);
      d.Set(Outcome::kRefusesStart, Severity::kError);
      a->Add(std::move(d));
    }
    return false;
  }
  if (a->files[s.file].auto_conf && !SettableByAlterSystem(p) && !s.ignored) {
    Diagnostic d = MakeDiagnostic(Rule(RuleId::kParameterNotSettableInFile), {s.file, s.name_range},
                                  "ALTER SYSTEM cannot set " + DoubleQuoted(p.name) + " (" + p.alter_system_message +
                                      "), so this line was written into postgresql.auto.conf by hand",
                                  "move it to postgresql.conf", p.name);
    d.Set(Outcome::kAdvisory, Severity::kWarning);
    a->Add(std::move(d));
  }
  return true;
}

// A value only this machine's facts refuse (a locale, a time zone, the stack
// limit), when this is not the server's host: the server's host decides.
bool HostDecides(const ParsedValue& v, const HostFacts& host) { return v.host_dependent && !host.is_server_host(); }

void ReportRefused(Analysis* a, const Setting& s, const ParsedValue& v, const HostFacts& host,
                   std::optional<Note> note = std::nullopt) {
  const Parameter& p = *s.param;
  RuleId rule = v.problem == ValueProblem::kOutOfRange ? RuleId::kValueOutOfRange : RuleId::kInvalidValue;
  std::string help = v.hint;
  if (help.empty() && p.type == VarType::kBool) help = "use on or off (also true/false, yes/no, 1/0)";
  if (help.empty() && p.min_val[0])
    help = std::string("the range is ") + p.min_val + " .. " + p.max_val +
           (p.unit[0] ? std::string(" (unit ") + p.unit + ")" : "");
  if (help.empty()) help = "see `pgconflint params " + std::string(p.name) + "`";
  Diagnostic d = MakeDiagnostic(Rule(rule), {s.file, s.value_range}, v.message, help, p.name);
  if (note) d.notes.push_back(std::move(*note));
  // '2gb': the unit in the server's spelling, when the server takes that.
  if (std::optional<std::string> fixed = AcceptedUnitCaseFix(*a->catalog, host, p, s.text)) {
    d.help = UnitCaseHelp(*fixed, help);
    d.fixes.push_back(MakeFix("write '" + *fixed + "'", FixSafety::kSafe, {s.file, s.value_range},
                              s.quoted ? "'" + *fixed + "'" : *fixed));
  }
  if (HostDecides(v, host)) {
    // Only this machine's facts refuse it: the server's host decides, and
    // the value is taken as written (CheckValues).
    d.Set(Outcome::kAdvisory, Severity::kWarning);
    d.message = DoubleQuoted(s.text) + " for " + DoubleQuoted(p.name) +
                " is unknown to the machine running pgconflint: whether the server accepts it depends on the "
                "server's host";
    d.help = v.hint + (v.hint.empty() ? "" : " ") +
             "Check it there, or run pgconflint on the server's host with --server-host yes.";
  } else if (!s.origin.cluster_wide()) {
    // A per-database or per-role value the statement stored (ALTER ROLE app
    // SET session_authorization = '': NOTICE, ALTER ROLE): no server refuses
    // to start for it; each session it applies to logs a WARNING at its start
    // (role "" does not exist, PostgreSQL 18) and keeps the value it had.
    d.Set(Outcome::kIgnoresLine, Severity::kWarning);
    d.help = "the statement stores it, and each session it applies to logs a WARNING when it starts and keeps its "
             "previous value: remove it with ALTER ROLE/DATABASE ... RESET " + std::string(p.name);
  }
  a->Add(std::move(d));
}

// Parameters hidden from pg_settings whose type the harvest could not tell
// (role, seed, session_authorization...) have no range; the server refuses
// most values for them at start-up, so only their boot value is taken as
// valid in the cluster's configuration. Per-database, per-role and session
// settings are the statements' business: the server stores them.
void RefuseHidden(const Parameter& p, const Setting& s, ParsedValue* v) {
  if (!v->ok() || p.in_pg_settings || p.type != VarType::kString || !s.origin.cluster_wide() ||
      s.text == p.boot_val)
    return;
  v->problem = ValueProblem::kInvalid;
  v->message = "invalid value for parameter " + DoubleQuoted(p.name) + ": " + DoubleQuoted(s.text);
  v->hint = DoubleQuoted(p.name) + " is an internal parameter (hidden from pg_settings); do not set it in a "
            "configuration file";
}

}  // namespace

void CheckValues(Analysis* a, const HostFacts& host, std::span<const std::string_view> only) {
  const Catalog& cat = *a->catalog;
  ProcessCounts counts(cat);
  RecoveryTargets targets;
  StatsLines stats;
  for (Setting& s : a->settings) {
    if (!only.empty() && (!s.param || std::find(only.begin(), only.end(), s.param->name) == only.end())) continue;
    if (!s.param) {
      if (s.name.find('.') != std::string::npos) {  // custom placeholder: any string
        s.value = s.text;
        s.applied = !s.ignored;
      }
      continue;
    }
    const Parameter& p = *s.param;
    if (!CheckSettable(a, s)) continue;
    ParsedValue v = CheckValue(cat, host, p, s.text);
    RefuseHidden(p, s, &v);
    if (v.ok() && a->os) ApplyPlatformLimit(p, *a->os, cat.major(), &v);
    if (v.ok() && !s.ignored) counts.Check(p, &v, true);
    if (v.ok() && !s.ignored && s.origin.cluster_wide()) targets.Check(s, &v);
    if (v.ok() && !s.ignored && s.origin.cluster_wide()) stats.Check(s, &v);
    if (!v.ok()) {
      std::optional<Note> note = targets.TakeNote();
      if (!note) note = stats.TakeNote();
      if (!s.ignored) ReportRefused(a, s, v, host, std::move(note));
      if (!HostDecides(v, host)) {
        s.problem = v.message;
        continue;
      }
      // Taken as written: one value this machine cannot judge must not
      // change what the rest of the file means (derived values, other rules).
      v = ParseValue(cat, p, s.text);
    }
    s.value = v.normalized;
    s.number = v.number;
    s.applied = !s.ignored;
    if (p.file_value_ignored && s.origin.cluster_wide()) {
      // Accepted, and without effect: the server keeps the boot value.
      s.value = p.boot_val;
      if (!s.ignored) {
        Diagnostic d = MakeDiagnostic(Rule(RuleId::kParameterNotSettableInFile), {s.file, s.name_range},
                                      DoubleQuoted(p.name) + " in a configuration file has no effect: the server keeps " +
                                          DoubleQuoted(p.boot_val),
                                      "set it per session or per transaction (SET, BEGIN ... ISOLATION LEVEL), or "
                                      "per role or database with ALTER ROLE/DATABASE ... SET",
                                      p.name);
        d.Set(Outcome::kIgnoresLine, Severity::kWarning);
        a->Add(std::move(d));
      }
    }
    // A server reports values in the base unit: no spelling to warn about.
    if (!s.ignored && s.origin.kind != Origin::Kind::kServer) WarnAboutValue(s, v, a);
  }
}

}  // namespace pgconflint
