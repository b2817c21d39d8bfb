// Module parameters and libraries, as guc.c's placeholders and
// define_custom_variable, and dfmgr.c's library loading, treat them.
#include "core/checks/extensions.h"

#include <algorithm>

#include <cstdlib>

#include "core/hba/hba.h"
#include "core/knowledge/hooks.h"
#include "core/base/quantity.h"
#include "core/base/spelling.h"
#include "core/knowledge/value.h"
#include "core/base/strings.h"

namespace pgconflint {
namespace {

// The settings that load libraries, and what loading through each means.
// local_preload_libraries is left out: it loads only from $libdir/plugins,
// where installations put no module by default.
constexpr const char* kSharedPreload = "shared_preload_libraries";
constexpr const char* kSessionLists[] = {"session_preload_libraries"};
constexpr const char* kArchiveLibrary = "archive_library";

std::string EffectiveText(const Analysis& a, const char* name) {
  if (const Setting* s = a.Effective(name)) return s->value ? *s->value : s->text;
  const Parameter* p = a.catalog ? a.catalog->Find(name) : nullptr;
  return p ? p->boot_val : "";
}

bool Lists(const Analysis& a, const char* name, const std::string& module) {
  for (const std::string& m : LibraryNames(EffectiveText(a, name)))
    if (m == module) return true;
  return false;
}

std::string Prefix(const std::string& name) { return name.substr(0, name.find('.')); }

// "pg_stat_statements (in shared_preload_libraries)" or how else it is loaded.
std::string HowLoaded(const ModuleLoad& l) {
  if (l.shared_preload) return "shared_preload_libraries";
  if (l.session_preload) return "session_preload_libraries";
  return "archive_library";
}

class Checker {
 public:
  Checker(const ExtensionSet& set, const HostFacts& host, Analysis* a) : set_(set), host_(host), a_(a) {}

  void Run() {
    for (Setting& s : a_->settings) {
      if (s.param || s.name.find('.') == std::string::npos) continue;
      Placeholder(s);
    }
    Libraries(kSharedPreload, true);
    for (const char* list : kSessionLists) Libraries(list, false);
  }

 private:
  void Add(RuleId id, const Setting& s, Range range, std::string message, std::string help) {
    a_->Add(MakeDiagnostic(Rule(id), {s.file, range}, std::move(message), std::move(help), s.name));
  }

  void Placeholder(Setting& s) {
    const ExtensionParameter* p = set_.Find(s.name);
    const ExtensionPrefix* prefix = nullptr;
    const ExtensionModule* m = p ? &set_.ModuleOf(*p) : set_.ModuleForPrefix(Prefix(s.name), &prefix);
    if (!m) return MisspeltPrefix(s);
    ModuleLoad load = LoadOf(*a_, m->name);
    // A script's LOAD reaches its session only, and the SETs after it.
    load.session_load = s.origin.kind == Origin::Kind::kSession &&
                        std::any_of(a_->session_loads.begin(), a_->session_loads.end(), [&](const SessionLoad& l) {
                          return l.module == m->name && l.offset < s.name_range.begin;
                        });
    if (!p) return UnknownUnderPrefix(s, *m, prefix, load);
    const Parameter& param = p->param;
    bool postmaster = param.context == Context::kPostmaster;
    bool defined = load.shared_preload || (!postmaster && p->defined_by_load && (load.any() || !m->extensions.empty()));
    if (!defined) return NeverApplied(s, *p, *m, load);
    ParsedValue v = CheckValue(*a_->catalog, host_, param, s.text);
    if (!v.ok()) {
      s.value.reset();
      s.applied = false;
      s.problem = v.message;
      if (s.ignored) return;
      if (s.origin.kind == Origin::Kind::kSession && load.session_load) {
        // The module is in the session already: SET itself fails.
        Diagnostic d = MakeDiagnostic(Rule(RuleId::kInvalidValue), {s.file, s.value_range}, v.message,
                                      v.hint.empty() ? "see `pgconflint params --extensions " + std::string(param.name) + "`"
                                                     : v.hint,
                                      s.name);
        d.Set(Outcome::kErrorsWhenRun, Severity::kError);
        a_->Add(std::move(d));
        return;
      }
      std::string when = load.shared_preload ? "at start" : load.any() ? "in every session that loads " + std::string(m->name)
                                                                      : "when a session loads " + std::string(m->name);
      Add(RuleId::kExtensionValueIgnored, s, s.value_range,
          v.message + ": " + m->name + " logs a WARNING " + when + " and uses the default " + DoubleQuoted(param.boot_val),
          v.hint.empty() ? "see `pgconflint params --extensions " + std::string(param.name) + "`" : v.hint);
      return;
    }
    s.value = v.normalized;
    s.number = v.number;
  }

  void UnknownUnderPrefix(Setting& s, const ExtensionModule& m, const ExtensionPrefix* prefix, const ModuleLoad& load) {
    s.applied = false;
    if (s.ignored) return;
    Suggester sug(s.name);
    for (const ExtensionParameter& q : ParametersOf(m)) sug.Consider(q.param.name);
    std::string what = DoubleQuoted(s.name) + " is no parameter of " + m.name;
    std::string warning = prefix && prefix->warning ? prefix->warning : "";
    std::string probe = std::string(prefix ? prefix->prefix : "") + ".pgconflint_probe";  // the harvest's probe name
    if (size_t at = warning.find(probe); at != std::string::npos) warning.replace(at, probe.size(), s.name);
    std::string effect;
    if (!load.any())
      effect = " (nothing loads " + std::string(m.name) + ", and once loaded it would not use this name)";
    else if (prefix && prefix->reserved)
      effect = ": " + std::string(prefix->prefix) + " is a reserved prefix, so the server logs \"WARNING: " + warning +
               "\" and drops the line";
    else if (!warning.empty())
      effect = ": the server logs \"WARNING: " + warning + "\" and the line has no effect";
    else
      effect = ": the line has no effect, and the server says nothing about it";
    Diagnostic d = MakeDiagnostic(Rule(RuleId::kExtensionParameterUnknown), {s.file, s.name_range}, what + effect,
                                  sug.best().empty() ? "see `pgconflint params --extensions " + std::string(m.name) + "`"
                                                     : "did you mean " + DoubleQuoted(sug.best()) + "?",
                                  s.name);
    if (!sug.best().empty())
      d.fixes.push_back(MakeFix("replace with " + sug.best(), FixSafety::kUnsafe, {s.file, s.name_range}, sug.best()));
    a_->Add(std::move(d));
  }

  // A prefix that no module owns but is one typo away from one that does.
  void MisspeltPrefix(const Setting& s) {
    if (s.ignored) return;
    std::string prefix = Prefix(s.name), rest = s.name.substr(prefix.size());
    Suggester sug(prefix);
    for (const std::string& m : set_.ModuleNames()) sug.Consider(m);
    if (sug.best().empty() || !set_.Find(sug.best() + rest)) return;
    std::string fixed = sug.best() + rest;
    Diagnostic d = MakeDiagnostic(Rule(RuleId::kExtensionParameterUnknown), {s.file, s.name_range},
                                  "no module defines " + DoubleQuoted(s.name) + ": the server keeps it as a placeholder that "
                                  "nothing reads",
                                  "did you mean " + DoubleQuoted(fixed) + "?", s.name);
    d.fixes.push_back(MakeFix("replace with " + fixed, FixSafety::kUnsafe, {s.file, s.name_range}, fixed));
    a_->Add(std::move(d));
  }

  void NeverApplied(Setting& s, const ExtensionParameter& p, const ExtensionModule& m, const ModuleLoad& load) {
    s.applied = false;
    if (s.ignored) return;
    bool postmaster = p.param.context == Context::kPostmaster;
    std::string name = m.name;
    if (load.any() && (postmaster || !p.defined_by_load)) {
      Add(RuleId::kExtensionNeedsPreload, s, s.name_range,
          DoubleQuoted(s.name) + " is never applied: " + name + " is loaded through " + HowLoaded(load) + ", but " +
              (postmaster ? "this parameter has context postmaster, which only a library in "
                            "shared_preload_libraries can define"
                          : name + " defines it only when loaded through shared_preload_libraries"),
          "add " + name + " to shared_preload_libraries (a restart is needed)");
      return;
    }
    std::string why = postmaster || !p.defined_by_load
                          ? name + " is not in shared_preload_libraries, the only way it defines this parameter"
                          : "nothing loads " + name + " (it is in no *_preload_libraries and no extension loads it)";
    Add(RuleId::kExtensionNotLoaded, s, s.name_range, DoubleQuoted(s.name) + " is never applied: " + why,
        "add " + name + " to shared_preload_libraries (a restart is needed), or remove the setting");
  }

  std::span<const ExtensionParameter> ParametersOf(const ExtensionModule& m) const {
    // Only the catalog that holds `m` has its parameters.
    for (const ExtensionCatalog* c : set_.user)
      for (const ExtensionModule& x : c->modules())
        if (&x == &m) return c->parameters();
    return set_.builtin ? set_.builtin->parameters() : std::span<const ExtensionParameter>();
  }

  // Every library a preload list names must exist on the server. Which
  // third-party libraries are installed is the server's business: only a name
  // one typo away from a module PostgreSQL ships (two for long names) is
  // reported; a short name is too close to too many modules to tell.
  void Libraries(const char* list, bool at_start) {
    const Setting* s = a_->Effective(list);
    if (!s || !s->value) return;
    for (const std::string& lib : LibraryNames(*s->value)) {
      if (set_.FindModule(lib)) continue;
      Suggester sug(lib);
      for (const std::string& m : set_.ModuleNames()) sug.Consider(m);
      if (sug.best().empty() || TypoDistance(lib, sug.best()) > (lib.size() >= 10 ? 2u : 1u)) continue;
      std::string effect = at_start ? "the server does not start (FATAL: could not access file " + DoubleQuoted(lib) + ")"
                                    : "every new session fails (FATAL: could not access file " + DoubleQuoted(lib) + ")";
      Diagnostic d = MakeDiagnostic(
          Rule(RuleId::kLibraryNotFound), {s->file, s->value_range},
          DoubleQuoted(lib) + " is no module that PostgreSQL " + std::to_string(a_->catalog->major()) +
              " ships; unless it is installed on the server, " + effect,
          "did you mean " + DoubleQuoted(sug.best()) + "? (a third-party library of that name must be installed on the "
          "server; describe it in an extension catalog to silence this)",
          list);
      a_->Add(std::move(d));
    }
  }

  const ExtensionSet& set_;
  const HostFacts& host_;
  Analysis* a_;
};

}  // namespace

std::vector<std::string> LibraryNames(const std::string& list_value) {
  std::vector<std::string> items, out;
  if (!SplitGucList(list_value, ',', &items)) return out;
  for (const std::string& item : items)
    if (std::string m = ModuleName(item); !m.empty()) out.push_back(std::move(m));
  return out;
}

ModuleLoad LoadOf(const Analysis& a, const std::string& module) {
  ModuleLoad l;
  l.shared_preload = Lists(a, kSharedPreload, module);
  for (const char* list : kSessionLists) l.session_preload = l.session_preload || Lists(a, list, module);
  l.archive_library = a.catalog && a.catalog->Find(kArchiveLibrary) && Lists(a, kArchiveLibrary, module);
  return l;
}

void CheckExtensionSettings(const ExtensionSet& extensions, const HostFacts& host, Analysis* a) {
  if (a->failure != Analysis::Failure::kNone || !a->catalog) return;
  Checker(extensions, host, a).Run();
  a->SettingsChanged();
}

// --- Advice -----------------------------------------------------------------

namespace {

class Advisor {
 public:
  Advisor(const ExtensionSet& set, const Profile& profile, Analysis* a) : set_(set), profile_(profile), a_(a) {}

  void Run() {
    IoTiming();
    StatementsMemory();
    StatementsTrackAll();
    AutoExplainTiming();
  }

 private:
  // The value the server uses for a module parameter (the deciding valid
  // setting, else the default); *at is the deciding line, if any.
  std::string Value(const char* name, const Setting** at = nullptr) const {
    const Setting* s = a_->Effective(name);
    if (at) *at = s;
    if (s && s->value) return *s->value;
    const ExtensionParameter* p = set_.Find(name);
    return p ? p->param.boot_val : "";
  }

  bool Known(const char* module) const { return set_.FindModule(module) != nullptr; }

  void Emit(RuleId id, const Setting* at, std::string message, std::string help, const char* parameter) {
    Location where;
    if (at) where = {at->file, {at->name_range.begin, at->value_range.end}};
    else if (!a_->files.empty()) where = {0, {0, 0}};
    a_->Add(MakeDiagnostic(Rule(id), where, std::move(message), std::move(help), parameter));
  }

  const Setting* Anchor(std::initializer_list<const char*> names) const {
    for (const char* n : names)
      if (const Setting* s = a_->Effective(n)) return s;
    return nullptr;
  }

  void IoTiming() {
    if (!a_->catalog->Find("track_io_timing") || EffectiveText(*a_, "track_io_timing") != "off") return;
    bool statements = Known("pg_stat_statements") && LoadOf(*a_, "pg_stat_statements").shared_preload;
    bool explain = Known("auto_explain") && LoadOf(*a_, "auto_explain").any() && Value("auto_explain.log_buffers") == "on";
    if (!statements && !explain) return;
    std::string who = statements ? "pg_stat_statements (in shared_preload_libraries) records" : "auto_explain "
                                                                                               "(log_buffers = on) logs";
    Emit(RuleId::kIoTimingNotTracked, Anchor({"track_io_timing", kSharedPreload}),
         "track_io_timing is off, so " + who + " no I/O time: its block read and write time columns stay 0",
         "set track_io_timing = on to measure I/O (check its cost first with pg_test_timing)", "track_io_timing");
  }

  void StatementsMemory() {
    const ExtensionParameter* p = set_.Find("pg_stat_statements.max");
    if (!p || !profile_.ram_bytes || p->shared_memory_per_unit <= 0) return;
    if (!LoadOf(*a_, "pg_stat_statements").shared_preload) return;
    const Setting* at = nullptr;
    double entries = strtod(Value("pg_stat_statements.max", &at).c_str(), nullptr);
    double bytes = entries * p->shared_memory_per_unit;
    if (bytes <= *profile_.ram_bytes * 0.01) return;
    Emit(RuleId::kPgStatStatementsMemory, at ? at : Anchor({kSharedPreload}),
         "pg_stat_statements.max = " + FormatWhole(entries) + " reserves about " + FormatHuman(bytes, Dim::kBytes) +
             " of shared memory at start (" + FormatWhole(p->shared_memory_per_unit) +
             " bytes per entry, measured on PostgreSQL " + std::to_string(a_->catalog->major()) +
             "), more than 1% of the machine's " + FormatHuman(*profile_.ram_bytes, Dim::kBytes) +
             " of RAM; the query texts file on disk grows with it, and reading the view loads it whole",
         "keep pg_stat_statements.max near the number of distinct statements you run (the default is 5000); "
         "raise it only when pg_stat_statements_info.dealloc keeps growing",
         "pg_stat_statements.max");
  }

  void StatementsTrackAll() {
    if (!Known("pg_stat_statements") || !LoadOf(*a_, "pg_stat_statements").shared_preload) return;
    const Setting* at = nullptr;
    if (Value("pg_stat_statements.track", &at) != "all") return;
    Emit(RuleId::kPgStatStatementsTrackAll, at,
         "pg_stat_statements.track = all also records every statement run inside functions and procedures: each "
         "one pays the tracking cost and takes an entry from pg_stat_statements.max, evicting top-level statements",
         "use track = top (the default) unless you are profiling PL/pgSQL code", "pg_stat_statements.track");
  }

  void AutoExplainTiming() {
    if (!Known("auto_explain") || !LoadOf(*a_, "auto_explain").any()) return;
    if (!profile_.workload || (*profile_.workload != Workload::kOltp && *profile_.workload != Workload::kWeb)) return;
    const Setting* at = nullptr;
    if (Value("auto_explain.log_analyze", &at) != "on" || Value("auto_explain.log_timing") != "on") return;
    if (strtod(Value("auto_explain.log_min_duration").c_str(), nullptr) < 0) return;
    Emit(RuleId::kAutoExplainTimingOverhead, at,
         "auto_explain.log_analyze = on with log_timing = on times every plan node of every statement, logged or "
         "not: on a busy " + WorkloadName(*profile_.workload) + " server that costs more than the statements "
         "themselves when the clock is slow",
         "set auto_explain.log_timing = off (row counts stay exact), or keep log_analyze off on this server",
         "auto_explain.log_analyze");
  }

  const ExtensionSet& set_;
  const Profile& profile_;
  Analysis* a_;
};

}  // namespace

void AddExtensionAdvice(const ExtensionSet& extensions, const Profile& profile, Analysis* a) {
  if (a->failure != Analysis::Failure::kNone || !a->catalog || a->files.empty()) return;
  Advisor(extensions, profile, a).Run();
}

}  // namespace pgconflint
