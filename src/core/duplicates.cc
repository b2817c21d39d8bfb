// Duplicates, as ProcessConfigFileInternal treats them: the last line of a
// parameter wins; an earlier line with exactly the same spelling is ignored
// (never validated by the server), other spellings are applied in turn.
#include "core/passes.h"

namespace pgconflint {
namespace {

std::string Quote(std::string_view s) { return "\"" + std::string(s) + "\""; }

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
  for (size_t i = 0; i < a->settings.size(); ++i) {
    Setting& s = a->settings[i];
    if (!s.param && s.name.find('.') == std::string::npos) continue;  // unknown: already an error
    size_t* last;
    bool fresh;
    if (s.param) {
      auto [it, inserted] = last_by_param.try_emplace(s.param, i);
      last = &it->second;
      fresh = inserted;
    } else {
      auto [it, inserted] = last_by_custom.try_emplace(AsciiLower(s.name), i);
      last = &it->second;
      fresh = inserted;
    }
    if (fresh) continue;
    Setting& prev = a->settings[*last];
    if (prev.name == s.name && s.param) prev.ignored = true;
    prev.overridden_by = static_cast<int>(i);
    *last = i;
  }
}

void ReportOverridden(Analysis* a) {
  for (const Setting& prev : a->settings) {
    if (prev.overridden_by < 0) continue;
    const Setting& s = a->settings[prev.overridden_by];
    std::string name = s.param ? s.param->name : s.name;
    bool same_spelling = prev.name == s.name || !s.param;
    std::string msg = Quote(prev.name) + (AsciiLower(prev.name) == AsciiLower(name) ? "" : " (" + name + ")") +
                      " is set again later, so this line has no effect";
    if (!prev.problem.empty()) msg += "; its value is invalid too (" + prev.problem + ")";
    std::string help = same_spelling ? "delete this line, or move the value you want to the last occurrence"
                                     : "delete this line; PostgreSQL applies both because they are spelled "
                                       "differently (" + prev.name + ", " + s.name + ") and the later one wins";
    Diagnostic d = MakeDiagnostic(Rule(RuleId::kSettingOverridden), {prev.file, prev.name_range}, msg, help, name);
    d.notes.push_back({{s.file, {s.name_range.begin, s.value_range.end}},
                       "set again here (" + Quote(s.raw) + ")"});
    d.tags |= kTagUnnecessary;
    // Deleting a dead line changes nothing the server does. Within one file
    // that is plainly safe; across files (a tuning file included at the end
    // overrides initdb's lines) it needs a reader.
    const std::string& text = a->files[prev.file].source.text();
    d.fixes.push_back(MakeFix("delete the overridden line",
                              prev.file == s.file ? FixSafety::kSafe : FixSafety::kUnsafe,
                              {prev.file, WholeLine(text, {prev.name_range.begin, prev.value_range.end})}, ""));
    a->Add(std::move(d));
  }
}

void RunPasses(Analysis* a, const HostFacts& host) {
  ResolveNames(a);
  ResolveDuplicates(a);
  CheckValues(a, host);
  ReportOverridden(a);
  a->SortDiagnostics();
}

}  // namespace pgconflint
