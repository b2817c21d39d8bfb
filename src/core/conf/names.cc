// Name resolution, as guc.c's find_option: case-insensitive lookup, old names
// (map_old_guc_names), custom placeholders (any dotted name), and names of
// other majors.
#include "core/conf/passes.h"
#include "core/base/strings.h"

namespace pgconflint {
namespace {

// Parameters removed before PostgreSQL 14 (the oldest major in the
// catalogs), with what replaced them, from the release notes of the major
// that removed them (https://www.postgresql.org/docs/release/<major>.0/).
// Parameters removed from 15 on are found in the catalogs themselves.
struct Removed {
  const char* name;
  const char* major;        // the first major without it
  const char* replacement;  // what to write instead
};
constexpr Removed kRemoved[] = {
    {"checkpoint_segments", "9.5", "max_wal_size (and min_wal_size), in size units"},
    {"max_fsm_pages", "8.4", "nothing: the free space map is sized automatically"},
    {"max_fsm_relations", "8.4", "nothing: the free space map is sized automatically"},
    {"operator_precedence_warning", "14", "nothing: the operator precedence changes of 9.5 it warned about are long done"},
    {"vacuum_cleanup_index_scale_factor", "14", "nothing: VACUUM decides on index cleanup itself"},
    {"wal_keep_segments", "13", "wal_keep_size, in size units (segments x wal_segment_size)"},
};

const Removed* FindRemoved(std::string_view name) {
  std::string lower = AsciiLower(name);
  for (const Removed& r : kRemoved)
    if (lower == r.name) return &r;
  return nullptr;
}

// A parameter of some supported major that later ones removed, with what
// replaced it when a later major has an old name mapped to it or a known
// successor.
constexpr std::pair<const char*, const char*> kSuccessors[] = {
    {"force_parallel_mode", "debug_parallel_query"},
    {"promote_trigger_file", "pg_ctl promote or SELECT pg_promote()"},
    {"stats_temp_directory", "nothing: statistics are kept in shared memory"},
    {"vacuum_defer_cleanup_age", "hot_standby_feedback or a replication slot"},
    {"db_user_namespace", "nothing: use distinct role names"},
};

// "io_method" exists in 18 only; "ssl_groups" in 18 is "ssl_ecdh_curve" before.
std::string NotInVersionHelp(const Catalog& cat, const std::string& name) {
  for (int m : Catalog::SupportedMajors()) {
    const Catalog* other = Catalog::ForMajor(m);
    const Parameter* p = other->Find(name);
    if (!p) continue;
    for (const Alias& al : other->aliases())
      if (AsciiLower(al.new_name) == AsciiLower(p->name) && cat.Find(al.old_name))
        return "in PostgreSQL " + std::to_string(cat.major()) + " this parameter is called " + al.old_name;
  }
  // Removed: the last major that has it is below the checked one.
  std::vector<int> majors = MajorsWithParameter(name);
  if (!majors.empty() && majors.back() < cat.major()) {
    std::string help = "removed in PostgreSQL " + std::to_string(majors.back() + 1);
    for (const auto& [old_name, successor] : kSuccessors)
      if (AsciiLower(name) == old_name) help += "; replaced by " + std::string(successor);
    return help + ": remove the line for " + std::to_string(cat.major());
  }
  return "remove the line for this major, or check with the --pg-version of the server you run";
}

void Renamed(Analysis* a, const Setting& s, const char* target) {
  Diagnostic d = MakeDiagnostic(Rule(RuleId::kRenamedParameter), {s.file, s.name_range},
                                DoubleQuoted(s.name) + " is an old name for " + DoubleQuoted(target),
                                "write " + std::string(target) + "; the old name still works but is undocumented",
                                target);
  // Which name is current depends on the major: safe only when it was named.
  d.fixes.push_back(MakeFix("rename to " + std::string(target) +
                                (a->major_assumed ? " (if the server runs PostgreSQL " +
                                                        std::to_string(a->catalog->major()) + ")"
                                                  : ""),
                            a->major_assumed ? FixSafety::kUnsafe : FixSafety::kSafe, {s.file, s.name_range}, target));
  d.tags |= kTagDeprecated;
  a->Add(std::move(d));
}

void Unknown(Analysis* a, const Setting& s) {
  const Catalog& cat = *a->catalog;
  std::vector<int> majors = MajorsWithParameter(s.name);
  if (!majors.empty()) {
    const std::string list = CommaList(majors);
    a->Add(MakeDiagnostic(Rule(RuleId::kParameterNotInVersion), {s.file, s.name_range},
                          "unrecognized configuration parameter " + DoubleQuoted(s.name) + " in PostgreSQL " +
                              std::to_string(cat.major()) + " (it exists in " + list + ")",
                          NotInVersionHelp(cat, s.name), s.name));
    return;
  }
  if (const Removed* r = FindRemoved(s.name)) {
    a->Add(MakeDiagnostic(Rule(RuleId::kUnknownParameter), {s.file, s.name_range},
                          "unrecognized configuration parameter " + DoubleQuoted(s.name) + ": it was removed in PostgreSQL " +
                              r->major,
                          std::string("replaced by ") + r->replacement + "; see https://www.postgresql.org/docs/release/" +
                              r->major + ".0/",
                          s.name));
    return;
  }
  std::vector<std::string> hint = cat.Suggest(s.name, 1);
  bool bom = s.name.compare(0, 3, "\xEF\xBB\xBF") == 0;
  std::string help = bom ? "the file starts with a UTF-8 byte order mark, which PostgreSQL reads as part of this "
                           "name: save the file without it"
                     : hint.empty() ? "check the spelling with `pgconflint params`; an extension's parameters "
                                      "need its prefix, e.g. auto_explain.log_min_duration"
                                    : "did you mean " + DoubleQuoted(hint[0]) + "?";
  Diagnostic d = MakeDiagnostic(Rule(RuleId::kUnknownParameter), {s.file, s.name_range},
                                "unrecognized configuration parameter " + DoubleQuoted(s.name), help, s.name);
  if (!hint.empty() && !bom)
    d.fixes.push_back(MakeFix("replace with " + hint[0], FixSafety::kUnsafe, {s.file, s.name_range}, hint[0]));
  a->Add(std::move(d));
}

}  // namespace

void ResolveNames(Analysis* a) {
  const Catalog& cat = *a->catalog;
  for (Setting& s : a->settings) {
    s.param = cat.Find(s.name);
    if (!s.param) {
      if (const char* target = cat.AliasTarget(s.name)) {
        s.param = cat.Find(target);
        Renamed(a, s, target);
      }
    }
    if (s.param || s.name.find('.') != std::string::npos) continue;  // known, or a custom placeholder
    Unknown(a, s);
  }
}

}  // namespace pgconflint
