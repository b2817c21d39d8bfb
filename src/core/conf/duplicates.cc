// Duplicates, as ProcessConfigFileInternal treats them: the last line of a
// parameter wins; an earlier line with exactly the same spelling is ignored
// (never validated by the server), other spellings are applied in turn.
#include <map>
#include <utility>

#include "core/conf/passes.h"
#include "core/base/strings.h"

namespace pgconflint {
namespace {

// The whole line around `r`, its newline included.
Range WholeLine(const std::string& text, Range r) {
  size_t begin = r.begin == 0 ? std::string::npos : text.rfind('\n', r.begin - 1);
  begin = begin == std::string::npos ? 0 : begin + 1;
  size_t end = text.find('\n', r.end);
  end = end == std::string::npos ? text.size() : end + 1;
  return {static_cast<uint32_t>(begin), static_cast<uint32_t>(end)};
}

}  // namespace

void ResolveDuplicates(Analysis* a) {
  // Known parameters are keyed by their catalog entry (aliases included),
  // custom ones by their lower-cased name. Earlier entries with exactly the
  // same spelling are ignored (known parameters only); spellings that differ
  // are all applied, in order.
  std::unordered_map<const Parameter*, size_t> last_by_param;
  std::unordered_map<std::string, size_t> last_by_custom;
  // The server marks every earlier line of exactly the same spelling as
  // ignored, however many other spellings stand between them.
  std::map<std::pair<const Parameter*, std::string>, size_t> last_by_spelling;
  for (size_t i = 0; i < a->settings.size(); ++i) {
    Setting& s = a->settings[i];
    if (!s.param && s.name.find('.') == std::string::npos) continue;  // unknown: already an error
    if (s.origin.kind == Origin::Kind::kSession) continue;            // each SET stands alone
    size_t* last;
    bool fresh;
    if (!s.origin.cluster_wide()) {
      // Per database/role: duplicates only within the same scope.
      std::string key = s.origin.database + '\0' + s.origin.role + '\0' +
                        AsciiLower(s.param ? std::string_view(s.param->name) : std::string_view(s.name));
      auto [it, inserted] = last_by_custom.try_emplace(std::move(key), i);
      last = &it->second;
      fresh = inserted;
    } else if (s.param) {
      auto [it, inserted] = last_by_param.try_emplace(s.param, i);
      last = &it->second;
      fresh = inserted;
    } else {
      auto [it, inserted] = last_by_custom.try_emplace(AsciiLower(s.name), i);
      last = &it->second;
      fresh = inserted;
    }
    if (s.param && s.origin.cluster_wide()) {
      auto [it, inserted] = last_by_spelling.try_emplace({s.param, s.name}, i);
      if (!inserted) a->settings[std::exchange(it->second, i)].ignored = true;
    }
    if (fresh) continue;
    Setting& prev = a->settings[*last];
    if (prev.name == s.name && s.param && !s.origin.cluster_wide()) prev.ignored = true;
    prev.overridden_by = static_cast<int>(i);
    *last = i;
  }
}

namespace {

// One overridden line within its own file: reported there, with the fix that
// deletes it.
void ReportOverriddenLine(Analysis* a, const Setting& prev, const Setting& s) {
  std::string name = s.param ? s.param->name : s.name;
  // A line the server skips (a later line has its spelling) is not "applied" either.
  bool same_spelling = prev.name == s.name || !s.param || prev.ignored;
  std::string msg = DoubleQuoted(prev.name) + (AsciiLower(prev.name) == AsciiLower(name) ? "" : " (" + name + ")") +
                    " is set again later, so this line has no effect";
  if (!prev.problem.empty()) msg += "; its value is invalid too (" + prev.problem + ")";
  std::string help = same_spelling ? "delete this line, or move the value you want to the last occurrence"
                                   : "delete this line; PostgreSQL applies both because they are spelled "
                                     "differently (" + prev.name + ", " + s.name + ") and the later one wins";
  Diagnostic d = MakeDiagnostic(Rule(RuleId::kSettingOverridden), {prev.file, prev.name_range}, msg, help, name);
  d.notes.push_back({{s.file, {s.name_range.begin, s.value_range.end}}, "set again here (" + DoubleQuoted(s.raw) + ")"});
  d.tags |= kTagUnnecessary;
  // Deleting a dead line within its own file changes nothing the server
  // does; but a fix never removes a comment: a commented line needs a reader.
  const std::string& text = a->files[prev.file].source.text();
  Range line = WholeLine(text, {prev.name_range.begin, prev.value_range.end});
  const bool commented = text.substr(prev.value_range.end, line.end - prev.value_range.end).find('#') != std::string::npos;
  d.fixes.push_back(MakeFix(commented ? "delete the overridden line and its comment" : "delete the overridden line",
                            commented ? FixSafety::kUnsafe : FixSafety::kSafe, {prev.file, line}, ""));
  a->Add(std::move(d));
}

// The include directive in `file` through which `included` was read, or null.
const IncludeSite* IncludedThrough(const Analysis& a, int file, int included, std::vector<IncludeSite>* chain) {
  *chain = a.IncludeChain(included);
  for (const IncludeSite& site : *chain)
    if (site.file == file) return &site;
  return nullptr;
}

// The lines of `file` that the settings of `by` override: one finding, at the
// include directive that reads `by` when there is one (the usual way to tune
// initdb's postgresql.conf is to append an include), else at the first
// overridden line; a note at each overridden line. Nothing to delete: the
// override is how that layout works.
void ReportOverriddenByFile(Analysis* a, int file, int by, const std::vector<std::pair<size_t, size_t>>& pairs) {
  const std::string& by_path = a->files[by].source.path();
  std::vector<IncludeSite> chain;
  const IncludeSite* site = IncludedThrough(*a, file, by, &chain);
  const Setting& first = a->settings[pairs[0].first];
  Location where{file, first.name_range};
  if (site) {
    const std::string& text = a->files[file].source.text();
    Range line = WholeLine(text, {site->offset, site->offset});
    uint32_t end = line.end;
    while (end > site->offset && (text[end - 1] == '\n' || text[end - 1] == '\r')) --end;
    where = {file, {site->offset, end}};
  }
  const std::string names = CommaList(pairs, [&](const auto& pair) {
    const Setting& s = a->settings[pair.second];
    return s.param ? std::string(s.param->name) : s.name;
  });
  const bool auto_conf = a->files[by].auto_conf;
  // A file included twice: its second reading overrides the first.
  const bool itself = a->files[by].abs_path == a->files[file].abs_path;
  std::string msg = (itself ? "this file is read again later (included twice), and that reading"
                            : by_path + (!site                      ? ""
                                         : chain.back().file == file ? " (included here)"
                                                                     : " (included through this line)")) +
                    " overrides " + std::to_string(pairs.size()) + " setting" + (pairs.size() == 1 ? "" : "s") +
                    " of this file: " + names;
  std::string help = auto_conf ? "ALTER SYSTEM values in postgresql.auto.conf win over this file: change them with "
                                 "ALTER SYSTEM, or ALTER SYSTEM RESET to let this file decide"
                               : "nothing to do if that is the layout you meant (the later file wins); the notes "
                                 "show each line of this file that has no effect";
  Diagnostic d = MakeDiagnostic(Rule(RuleId::kSettingOverridden), where, msg, help,
                                pairs.size() == 1 ? (first.param ? first.param->name : first.name) : "");
  for (const auto& [prev_i, next_i] : pairs) {
    const Setting& prev = a->settings[prev_i];
    const Setting& s = a->settings[next_i];
    std::string note = DoubleQuoted(prev.name) + " = " + DoubleQuoted(prev.raw) + " here has no effect: " + by_path + ":" +
                       std::to_string(s.line) + " sets " + DoubleQuoted(s.raw);
    if (!prev.problem.empty()) note += " (and this value is invalid: " + prev.problem + ")";
    d.notes.push_back({{prev.file, {prev.name_range.begin, prev.value_range.end}}, note});
  }
  a->Add(std::move(d));
}

}  // namespace

void ReportOverridden(Analysis* a) {
  // (overridden file, overriding file) -> (overridden, overriding) settings.
  std::map<std::pair<int, int>, std::vector<std::pair<size_t, size_t>>> across;
  for (size_t i = 0; i < a->settings.size(); ++i) {
    const Setting& prev = a->settings[i];
    if (prev.overridden_by < 0) continue;
    const Setting& s = a->settings[prev.overridden_by];
    if (prev.file == s.file) ReportOverriddenLine(a, prev, s);
    else across[{prev.file, s.file}].push_back({i, static_cast<size_t>(prev.overridden_by)});
  }
  for (const auto& [files, pairs] : across) ReportOverriddenByFile(a, files.first, files.second, pairs);
}

void RunPasses(Analysis* a, const HostFacts& host) {
  ResolveNames(a);
  ResolveDuplicates(a);
  CheckValues(a, host);
  ReportOverridden(a);
  a->SortDiagnostics();
}

void RunReachPasses(Analysis* a, const HostFacts& host) {
  static constexpr std::string_view kFileParameters[] = {"hba_file", "ident_file"};
  ResolveNames(a);
  ResolveDuplicates(a);
  CheckValues(a, host, kFileParameters);
}

}  // namespace pgconflint
