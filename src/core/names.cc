// Name resolution, as guc.c's find_option: case-insensitive lookup, old names
// (map_old_guc_names), custom placeholders (any dotted name), and names of
// other majors.
#include "core/passes.h"

namespace pgconflint {
namespace {

std::string Quote(std::string_view s) { return "\"" + std::string(s) + "\""; }

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
  return "remove the line for this major, or check with the --pg-version of the server you run";
}

void Renamed(Analysis* a, const Setting& s, const char* target) {
  Diagnostic d = MakeDiagnostic(Rule(RuleId::kRenamedParameter), {s.file, s.name_range},
                                Quote(s.name) + " is an old name for " + Quote(target),
                                "write " + std::string(target) + "; the old name still works but is undocumented",
                                target);
  d.fixes.push_back(MakeFix("rename to " + std::string(target), FixSafety::kSafe, {s.file, s.name_range}, target));
  d.tags |= kTagDeprecated;
  a->Add(std::move(d));
}

void Unknown(Analysis* a, const Setting& s) {
  const Catalog& cat = *a->catalog;
  std::vector<int> majors = MajorsWithParameter(s.name);
  if (!majors.empty()) {
    std::string list;
    for (size_t i = 0; i < majors.size(); ++i) list += (i ? ", " : "") + std::to_string(majors[i]);
    a->Add(MakeDiagnostic(Rule(RuleId::kParameterNotInVersion), {s.file, s.name_range},
                          "unrecognized configuration parameter " + Quote(s.name) + " in PostgreSQL " +
                              std::to_string(cat.major()) + " (it exists in " + list + ")",
                          NotInVersionHelp(cat, s.name), s.name));
    return;
  }
  std::vector<std::string> hint = cat.Suggest(s.name, 1);
  bool bom = s.name.compare(0, 3, "\xEF\xBB\xBF") == 0;
  std::string help = bom ? "the file starts with a UTF-8 byte order mark, which PostgreSQL reads as part of this "
                           "name: save the file without it"
                     : hint.empty() ? "check the spelling with `pgconflint params`; an extension's parameters "
                                      "need its prefix, e.g. auto_explain.log_min_duration"
                                    : "did you mean " + Quote(hint[0]) + "?";
  Diagnostic d = MakeDiagnostic(Rule(RuleId::kUnknownParameter), {s.file, s.name_range},
                                "unrecognized configuration parameter " + Quote(s.name), help, s.name);
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
