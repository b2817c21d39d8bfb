// Reading and validating rule files (see rule_file.h). toml++ is called here
// (through core/base/toml_read.h) and nowhere else for rules.
#include "core/rules/rule_file.h"

#include <algorithm>
#include <unordered_map>


#include "core/base/strings.h"
#include "core/rules/rule_names.h"
#include "core/base/spelling.h"
#include "core/base/toml_read.h"

namespace pgconflint {

std::string_view SeverityName(Severity s) {
  switch (s) {
    case Severity::kError: return "error";
    case Severity::kWarning: return "warning";
    case Severity::kInfo: return "info";
  }
  return "error";
}

bool ParseSeverity(std::string_view s, Severity* out) {
  if (s == "error") *out = Severity::kError;
  else if (s == "warning") *out = Severity::kWarning;
  else if (s == "info") *out = Severity::kInfo;
  else return false;
  return true;
}

namespace {

struct OutcomeWords {
  Outcome outcome;
  const char* name;
  const char* sentence;
};
constexpr OutcomeWords kOutcomes[] = {
    {Outcome::kRefusesStart, "refuses-start", "PostgreSQL refuses to start"},
    {Outcome::kRefusesReload, "refuses-reload",
     "PostgreSQL refuses the file at a reload and keeps its old values (pg_ident.conf: the file is not loaded)"},
    {Outcome::kErrorsWhenRun, "errors-when-run", "the statement fails when it runs"},
    {Outcome::kIgnoresLine, "ignores-line", "PostgreSQL reads the file and skips the line"},
    {Outcome::kAdvisory, "advisory", "PostgreSQL accepts it; the finding is advice"},
};

}  // namespace

std::string_view OutcomeName(Outcome o) {
  for (const OutcomeWords& w : kOutcomes)
    if (w.outcome == o) return w.name;
  return "advisory";
}

std::string_view OutcomeSentence(Outcome o) {
  for (const OutcomeWords& w : kOutcomes)
    if (w.outcome == o) return w.sentence;
  return "";
}

bool ParseOutcome(std::string_view s, Outcome* out) {
  for (const OutcomeWords& w : kOutcomes)
    if (s == w.name) {
      *out = w.outcome;
      return true;
    }
  return false;
}

std::string_view FixKindName(FixKind k) {
  switch (k) {
    case FixKind::kNone: return "";
    case FixKind::kSafe: return "safe";
    case FixKind::kNeedsRestart: return "needs-restart";
    case FixKind::kReview: return "review";
  }
  return "";
}

std::string MajorRange::Text() const {
  if (min <= 0 && max >= 99) return "every major";
  if (max >= 99) return std::to_string(min) + " and later";
  if (min == max) return std::to_string(min);
  return std::to_string(min) + " to " + std::to_string(max);
}

namespace {

// A major: one or two digits, 1 to 99 (no sign, no blanks, no overflow).
bool ParseMajor(std::string_view s, int* out) {
  if (s.empty() || s.size() > 2) return false;
  int v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
  }
  if (v < 1) return false;
  *out = v;
  return true;
}

}  // namespace

bool ParseVersionRange(std::string_view text, int* min_major, int* max_major) {
  if (text.empty()) {
    *min_major = 0;
    *max_major = 99;
    return true;
  }
  size_t dash = text.find('-');
  int lo = 0, hi = 0;
  if (!ParseMajor(text.substr(0, dash), &lo)) return false;
  hi = lo;
  if (dash != std::string_view::npos) {
    std::string_view rest = text.substr(dash + 1);
    if (rest.empty()) hi = 99;
    else if (!ParseMajor(rest, &hi) || hi < lo) return false;
  }
  *min_major = lo;
  *max_major = hi;
  return true;
}

int RuleDecl::Line(std::string_view key) const {
  auto it = key_lines.find(key);
  return it == key_lines.end() ? line : it->second;
}

namespace {

// Every key a [[rule]] may have, where it goes, and who must give it.
struct KeySpec {
  const char* key;
  std::string RuleDecl::*text;                 // a string, or
  std::vector<std::string> RuleDecl::*list;    // an array of strings, or
  int RuleDecl::*integer;                      // an integer
  bool builtin_required;
  bool user_required;
};
constexpr KeySpec kKeys[] = {
    {"code", &RuleDecl::code, nullptr, nullptr, true, true},
    {"name", &RuleDecl::name, nullptr, nullptr, true, true},
    {"severity", &RuleDecl::severity, nullptr, nullptr, true, false},
    {"category", &RuleDecl::category, nullptr, nullptr, true, false},
    {"outcome", &RuleDecl::outcome, nullptr, nullptr, true, false},
    {"fatal", &RuleDecl::fatal, nullptr, nullptr, false, false},
    {"versions", &RuleDecl::versions, nullptr, nullptr, false, false},
    {"summary", &RuleDecl::summary, nullptr, nullptr, true, false},
    {"when", &RuleDecl::when, nullptr, nullptr, false, true},
    {"evaluator", &RuleDecl::evaluator, nullptr, nullptr, false, false},
    {"anchor", nullptr, &RuleDecl::anchors, nullptr, false, false},
    {"message", &RuleDecl::message, nullptr, nullptr, false, true},
    {"help", &RuleDecl::help, nullptr, nullptr, false, false},
    {"why", &RuleDecl::why, nullptr, nullptr, true, false},
    {"fix", &RuleDecl::fix, nullptr, nullptr, false, false},
    {"fix_safety", &RuleDecl::fix_safety, nullptr, nullptr, false, false},
    {"bad", &RuleDecl::bad, nullptr, nullptr, true, false},
    {"good", &RuleDecl::good, nullptr, nullptr, true, false},
    {"example_profile", &RuleDecl::example_profile, nullptr, nullptr, false, false},
    {"example_pg_version", nullptr, nullptr, &RuleDecl::example_pg_version, false, false},
    {"example_kind", &RuleDecl::example_kind, nullptr, nullptr, false, false},
    {"example_context", &RuleDecl::example_context, nullptr, nullptr, false, false},
    {"references", nullptr, &RuleDecl::references, nullptr, true, false},
};

// The categories of the built-in rules (docs group rules by them); user rules
// may add their own.
constexpr const char* kBuiltinCategories[] = {
    "aio", "auth", "caps", "durability", "extensions", "includes", "live", "memory", "names", "ops",
    "security", "sql", "startup", "storage", "suppressions", "syntax", "values",
};
constexpr const char* kFixSafeties[] = {"safe", "needs-restart", "review"};
// `outcome` also takes this: each finding states its own (it depends on the
// server's build, host or the line).
constexpr char kPerFinding[] = "per-finding";
// What a rule's bad and good examples are: a configuration file (the
// default), a SQL script, a server snapshot (the JSON of `pgconflint
// snapshot`), or a configuration file compared with the snapshot in
// example_context (drift).
constexpr const char* kExampleKinds[] = {"conf", "sql", "snapshot", "drift"};

bool IsKebab(std::string_view s) {
  if (s.empty() || s.front() == '-' || s.back() == '-' || s.find("--") != std::string_view::npos) return false;
  return s.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-") == std::string_view::npos;
}

// "ORG001": upper-case letters, then digits.
bool IsRuleCode(std::string_view s) {
  size_t letters = s.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZ");
  return letters != 0 && letters != std::string_view::npos &&
         s.find_first_not_of("0123456789", letters) == std::string_view::npos;
}

template <size_t N>
bool OneOf(const char* const (&table)[N], std::string_view s) {
  return std::find(std::begin(table), std::end(table), s) != std::end(table);
}

// Reads and checks one [[rule]] table into a declaration.
class EntryReader {
 public:
  EntryReader(const std::string& path, const RuleFileOptions& options, RuleDecl* decl, std::string* error)
      : path_(path), options_(options), d_(*decl), error_(error) {}

  bool Read(const toml::table& t) {
    return ReadKeys(t) && CheckRequired() && CheckDeclaration() && CheckExamples() && CompileExpressions();
  }

 private:
  bool Fail(std::string_view key, const std::string& cause) {
    *error_ = path_ + ":" + std::to_string(d_.Line(key)) + ": " + cause;
    return false;
  }
  bool ReadKeys(const toml::table& t);
  bool ReadValue(const KeySpec& spec, const toml::node& value);
  bool CheckRequired();
  bool CheckOutcome();
  bool CheckDeclaration();
  bool CheckExamples();
  bool CompileExpressions();
  IdentifierCheck NameCheck() const {
    const ParameterNames* params = options_.parameters;
    return [params](std::string_view name, std::string* e) { return CheckRuleName(name, *params, e); };
  }

  const std::string& path_;
  const RuleFileOptions& options_;
  RuleDecl& d_;
  std::string* error_;
};

bool EntryReader::ReadKeys(const toml::table& t) {
  for (const auto& [key, value] : t) {
    std::string_view k = key.str();
    d_.key_lines[std::string(k)] = static_cast<int>(value.source().begin.line);
    const KeySpec* spec = nullptr;
    for (const KeySpec& s : kKeys)
      if (k == s.key) spec = &s;
    if (!spec) {
      Suggester s(k);
      for (const KeySpec& x : kKeys) s.Consider(x.key);
      return Fail(k, "unknown key \"" + std::string(k) + "\" in [[rule]]" + s.Hint());
    }
    if (!ReadValue(*spec, value)) return false;
  }
  return true;
}

bool EntryReader::ReadValue(const KeySpec& spec, const toml::node& value) {
  if (spec.text) {
    const auto* s = value.as_string();
    if (!s) return Fail(spec.key, std::string(spec.key) + " must be a string");
    d_.*spec.text = s->get();
  } else if (spec.list) {
    const auto* a = value.as_array();
    if (!a) return Fail(spec.key, std::string(spec.key) + " must be an array of strings");
    for (const toml::node& x : *a) {
      const auto* s = x.as_string();
      if (!s) return Fail(spec.key, std::string(spec.key) + " must be an array of strings");
      (d_.*spec.list).push_back(s->get());
    }
  } else {
    // Only an integer node is read as one: toml++ converting a float is undefined for 1e300.
    const auto* i = value.as_integer();
    if (!i || i->get() < 0 || i->get() > 99) return Fail(spec.key, std::string(spec.key) + " must be a major such as 17");
    d_.*spec.integer = static_cast<int>(i->get());
  }
  return true;
}

bool EntryReader::CheckRequired() {
  for (const KeySpec& s : kKeys)
    if ((options_.builtin ? s.builtin_required : s.user_required) && !d_.key_lines.count(s.key))
      return Fail("", "rule is missing \"" + std::string(s.key) + "\"");
  if (!d_.when.empty() && d_.message.empty()) return Fail("when", "a rule with \"when\" needs a \"message\"");
  if (options_.builtin && d_.references.empty()) return Fail("references", "a built-in rule needs a reference");
  if (!options_.builtin) {
    if (!d_.key_lines.count("category")) d_.category = "policy";
  }
  return true;
}

// outcome, or (user rules written before it) fatal: yes, no, per-server.
bool EntryReader::CheckOutcome() {
  if (d_.key_lines.count("fatal")) {
    if (options_.builtin) return Fail("fatal", "built-in rules declare \"outcome\", not \"fatal\"");
    if (d_.key_lines.count("outcome")) return Fail("fatal", "give \"outcome\" or \"fatal\", not both");
    if (d_.fatal == "yes") d_.outcome = OutcomeName(Outcome::kRefusesStart);
    else if (d_.fatal == "no") d_.outcome = OutcomeName(Outcome::kAdvisory);
    else if (d_.fatal == "per-server") d_.outcome = kPerFinding;
    else return Fail("fatal", "fatal must be yes, no or per-server (or write outcome = \"advisory\")");
  }
  if (d_.outcome.empty()) d_.outcome = OutcomeName(Outcome::kAdvisory);
  d_.per_finding = d_.outcome == kPerFinding;
  if (!d_.per_finding && !ParseOutcome(d_.outcome, &d_.outcome_value)) {
    std::string names;
    for (const OutcomeWords& w : kOutcomes) names += std::string(w.name) + ", ";
    return Fail("outcome", "outcome must be one of " + names + "or " + kPerFinding);
  }
  if (d_.per_finding) d_.outcome_value = Outcome::kAdvisory;  // what a finding is unless it says otherwise
  // A refusal is an error; the severity a rule declares is that of its advice.
  if (!d_.key_lines.count("severity") && !options_.builtin)
    d_.severity = IsRefusal(d_.outcome_value) ? "error" : "warning";
  if (!ParseSeverity(d_.severity, &d_.severity_level)) return Fail("severity", "severity must be error, warning or info");
  if (IsRefusal(d_.outcome_value) && d_.severity_level != Severity::kError)
    return Fail("severity", "a rule whose outcome is " + d_.outcome + " has severity \"error\": the server refuses");
  return true;
}

bool EntryReader::CheckDeclaration() {
  if (options_.builtin ? !((d_.code.size() == 6 || d_.code.size() == 7) && d_.code.rfind("PGC", 0) == 0 &&
                           IsRuleCode(d_.code))
                       : !IsRuleCode(d_.code) || d_.code.rfind("PGC", 0) == 0)
    return Fail("code", "code \"" + d_.code + "\" must be " +
                            (options_.builtin ? "PGC and three or four digits" : "upper-case letters and digits, such as "
                                                                         "ORG001, not starting with PGC (built-in)"));
  if (!IsKebab(d_.name)) return Fail("name", "rule name \"" + d_.name + "\" must be kebab-case (such as fsync-off)");
  if (!CheckOutcome()) return false;
  if (!IsKebab(d_.category)) return Fail("category", "category \"" + d_.category + "\" must be kebab-case");
  if (options_.builtin && !OneOf(kBuiltinCategories, d_.category)) {
    Suggester s(d_.category);
    for (const char* c : kBuiltinCategories) s.Consider(c);
    return Fail("category",
                "unknown category \"" + d_.category + "\"" + s.Hint() + " (" + CommaList(kBuiltinCategories) + ")");
  }
  if (!ParseVersionRange(d_.versions, &d_.min_major, &d_.max_major))
    return Fail("versions", "versions must look like 14-18, 17- or 18 (majors 1 to 99)");
  if (!d_.fix_safety.empty() && !OneOf(kFixSafeties, d_.fix_safety))
    return Fail("fix_safety", "fix_safety must be one of " + CommaList(kFixSafeties));
  for (FixKind k : {FixKind::kSafe, FixKind::kNeedsRestart, FixKind::kReview})
    if (d_.fix_safety == FixKindName(k)) d_.fix_kind = k;
  if (!d_.evaluator.empty()) {
    if (!options_.builtin) return Fail("evaluator", "only built-in rules have custom evaluators: use \"when\"");
    if (!d_.when.empty()) return Fail("evaluator", "a rule has \"when\" or \"evaluator\", not both");
  }
  return true;
}

bool EntryReader::CheckExamples() {
  std::string cause;
  if (options_.check_profile && !options_.check_profile(d_.example_profile, &cause))
    return Fail("example_profile", "example_profile: " + cause);
  if (!d_.example_kind.empty() && !OneOf(kExampleKinds, d_.example_kind))
    return Fail("example_kind", "example_kind must be one of " + CommaList(kExampleKinds));
  if (!d_.example_context.empty() && d_.example_kind != "sql" && d_.example_kind != "drift")
    return Fail("example_context", "example_context is for example_kind = \"sql\" or \"drift\"");
  if (d_.example_kind == "drift" && d_.example_context.empty())
    return Fail("example_context", "a drift example needs the snapshot it is compared with in example_context");
  if (!d_.key_lines.count("example_pg_version")) return true;
  int v = d_.example_pg_version;
  if (std::find(options_.majors.begin(), options_.majors.end(), v) == options_.majors.end() || v < d_.min_major ||
      v > d_.max_major)
    return Fail("example_pg_version", "example_pg_version " + std::to_string(v) +
                                          " is not a supported major within the rule's versions");
  return true;
}

bool EntryReader::CompileExpressions() {
  const IdentifierCheck check = NameCheck();
  std::string cause;
  if (!d_.when.empty() && !(d_.condition = CompiledExpr::Parse(d_.when, &cause, check)))
    return Fail("when", "in when: " + cause);
  if (!CheckTemplate(d_.message, &cause, check)) return Fail("message", "in message: " + cause);
  if (!CheckTemplate(d_.help, &cause, check)) return Fail("help", "in help: " + cause);
  for (const std::string& anchor : d_.anchors) {
    size_t bar = anchor.find('|');
    std::string_view name = std::string_view(anchor).substr(0, bar), rest;
    if (ClassifyName(name, &rest) != NameKind::kParameter)
      return Fail("anchor", "anchor \"" + std::string(name) + "\" must be a parameter name");
    if (!CheckRuleName(name, *options_.parameters, &cause)) return Fail("anchor", "in anchor: " + cause);
    if (bar != std::string::npos && !CompiledExpr::Parse(anchor.substr(bar + 1), &cause, check))
      return Fail("anchor", "in the guard of anchor " + std::string(name) + ": " + cause);
  }
  return true;
}

// The codes and names of the declarations read so far, and of options.taken.
class UsedKeys {
 public:
  UsedKeys(const std::vector<RuleDecl>& decls, const RuleFileOptions& options) : decls_(decls), options_(options) {
    for (size_t i = 0; i < decls.size(); ++i) Add(i);
  }
  void Add(size_t i) {
    index_.emplace(decls_[i].code, i);
    index_.emplace(decls_[i].name, i);
  }
  // Whether `key` is used; *where then says by whom.
  bool Has(const std::string& key, std::string* where) const {
    if (auto it = index_.find(key); it != index_.end()) {
      const RuleDecl& d = decls_[it->second];
      *where = "rule " + d.code + " (" + d.file + ":" + std::to_string(d.line) + ")";
      return true;
    }
    if (options_.taken) *where = options_.taken(key);
    return options_.taken && !where->empty();
  }

 private:
  const std::vector<RuleDecl>& decls_;
  const RuleFileOptions& options_;
  std::unordered_map<std::string, size_t> index_;
};

}  // namespace

bool ParseRuleFile(std::string_view text, const std::string& path, const RuleFileOptions& options,
                   std::vector<RuleDecl>* out, std::string* error) {
  toml::table tbl;
  if (!ParseToml(text, path, &tbl, error)) return false;
  for (const auto& [key, value] : tbl)
    if (key.str() != "rule") {
      *error = path + ":" + std::to_string(value.source().begin.line) + ": unknown key \"" + std::string(key.str()) +
               "\" (a rule file holds [[rule]] entries)";
      return false;
    }
  const toml::array* rules = tbl["rule"].as_array();
  if (!rules || rules->empty()) {
    *error = path + ": no [[rule]] entries";
    return false;
  }
  const size_t before = out->size();
  UsedKeys used(*out, options);
  auto rollback = [&] {
    out->erase(out->begin() + static_cast<std::ptrdiff_t>(before), out->end());
    return false;
  };
  auto fail = [&](int line, const std::string& cause) {
    *error = path + ":" + std::to_string(line) + ": " + cause;
    return rollback();
  };
  for (const toml::node& node : *rules) {
    RuleDecl d;
    d.file = path;
    d.line = static_cast<int>(node.source().begin.line);
    const toml::table* t = node.as_table();
    if (!t) return fail(d.line, "rule must be a [[rule]] table");
    if (!EntryReader(path, options, &d, error).Read(*t)) return rollback();
    std::string where;
    if (used.Has(d.code, &where)) return fail(d.Line("code"), "code " + d.code + " is already used by " + where);
    if (used.Has(d.name, &where)) return fail(d.Line("name"), "name " + d.name + " is already used by " + where);
    out->push_back(std::move(d));
    used.Add(out->size() - 1);
  }
  return true;
}

}  // namespace pgconflint
