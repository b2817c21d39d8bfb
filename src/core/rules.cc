// Lookup over the generated rule table.
#include "core/rules.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "core/catalog.h"

namespace pgconflint {
namespace generated {
extern const RuleInfo kBuiltinRules[];
}

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

Severity RuleInfo::default_severity() const {
  Severity s = Severity::kError;
  ParseSeverity(severity, &s);
  return s;
}

Fatality RuleInfo::fatality() const {
  std::string_view f = fatal;
  if (f == "yes") return Fatality::kYes;
  if (f == "per-server") return Fatality::kPerServer;
  return Fatality::kNo;
}

std::span<const RuleInfo> BuiltinRules() {
  return {generated::kBuiltinRules, static_cast<size_t>(kBuiltinRuleCount)};
}

const RuleInfo& Rule(RuleId id) {
  const RuleInfo& r = generated::kBuiltinRules[static_cast<int>(id)];
  if (r.id != id) std::abort();  // the generator keeps the table in enum order
  return r;
}

const RuleInfo* FindRule(std::string_view code_or_name) {
  std::string key = AsciiLower(code_or_name);
  for (const RuleInfo& r : BuiltinRules())
    if (AsciiLower(r.code) == key || r.name == key) return &r;
  return nullptr;
}

}  // namespace pgconflint

// --- RuleSet --------------------------------------------------------------

#include <dirent.h>

#include <algorithm>
#include <toml++/toml.h>

#include "core/expr.h"
#include "core/rule_engine.h"

namespace pgconflint {

bool ParseVersionRange(std::string_view text, int* min_major, int* max_major) {
  std::string s(text);
  if (s.empty()) {
    *min_major = 0;
    *max_major = 99;
    return true;
  }
  size_t dash = s.find('-');
  char* end;
  long lo = strtol(s.substr(0, dash).c_str(), &end, 10);
  if (*end || lo <= 0) return false;
  long hi = lo;
  if (dash != std::string::npos) {
    std::string rest = s.substr(dash + 1);
    hi = rest.empty() ? 99 : strtol(rest.c_str(), &end, 10);
    if (!rest.empty() && (*end || hi < lo)) return false;
  }
  *min_major = static_cast<int>(lo);
  *max_major = static_cast<int>(hi);
  return true;
}

RuleSet::RuleSet() {
  for (const RuleInfo& r : BuiltinRules()) {
    all_.push_back(&r);
    if (r.when[0]) {
      std::string error;
      auto c = CompiledExpr::Parse(r.when, &error);
      if (!c) {  // the build's own rules are checked by tests; this is a broken invariant
        fprintf(stderr, "pgconflint: built-in rule %s: %s\n", r.code, error.c_str());
        std::abort();
      }
      conditions_.emplace_back(&r, std::move(c));
    }
  }
}

RuleSet::~RuleSet() = default;

const char* RuleSet::Keep(std::string s) {
  strings_.push_back(std::move(s));
  return strings_.back().c_str();
}

const RuleInfo* RuleSet::Find(std::string_view code_or_name) const {
  std::string key = AsciiLower(code_or_name);
  for (const RuleInfo* r : all_)
    if (AsciiLower(r->code) == key || r->name == key) return r;
  return nullptr;
}

const CompiledExpr* RuleSet::Condition(const RuleInfo* rule) const {
  for (const auto& [r, c] : conditions_)
    if (r == rule) return c.get();
  return nullptr;
}

bool RuleSet::AddFile(const std::string& path, std::string* error) {
  toml::table tbl;
  try {
    tbl = toml::parse_file(path);
  } catch (const toml::parse_error& e) {
    *error = path + ":" + std::to_string(e.source().begin.line) + ": " + std::string(e.description());
    return false;
  }
  auto* arr = tbl["rule"].as_array();
  if (!arr) {
    *error = path + ": no [[rule]] entries";
    return false;
  }
  for (auto& node : *arr) {
    auto* t = node.as_table();
    auto line = node.source().begin.line;
    std::string where = path + ":" + std::to_string(line);
    if (!t) {
      *error = where + ": [[rule]] must be a table";
      return false;
    }
    auto str = [&](const char* key, bool required, std::string* out) {
      auto v = (*t)[key].value<std::string>();
      if (!v && required) {
        *error = where + ": rule is missing \"" + key + "\"";
        return false;
      }
      *out = v.value_or("");
      return true;
    };
    std::string code, name, severity = "warning", category = "policy", fatal = "no", summary, why, fix,
        versions, bad, good, when, message, help, fix_safety, example_profile;
    if (!str("code", true, &code) || !str("name", true, &name) || !str("when", true, &when) ||
        !str("message", true, &message) || !str("summary", false, &summary) || !str("why", false, &why) ||
        !str("fix", false, &fix) || !str("versions", false, &versions) || !str("bad", false, &bad) ||
        !str("good", false, &good) || !str("help", false, &help) || !str("fix_safety", false, &fix_safety) ||
        !str("example_profile", false, &example_profile))
      return false;
    if (auto v = (*t)["severity"].value<std::string>()) severity = *v;
    if (auto v = (*t)["category"].value<std::string>()) category = *v;
    if (auto v = (*t)["fatal"].value<std::string>()) fatal = *v;
    Severity sev;
    if (!ParseSeverity(severity, &sev)) {
      *error = where + ": severity must be error, warning or info";
      return false;
    }
    if (Find(code) || Find(name)) {
      *error = where + ": rule " + code + " (" + name + ") is already defined";
      return false;
    }
    if (name.empty() || name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-") != std::string::npos) {
      *error = where + ": rule name must be kebab-case";
      return false;
    }
    int lo, hi;
    if (!ParseVersionRange(versions, &lo, &hi)) {
      *error = where + ": versions must look like 14-18, 17- or 18";
      return false;
    }
    std::string expr_error;
    auto cond = CompiledExpr::Parse(when, &expr_error);
    if (!cond) {
      *error = where + ": in when: " + expr_error;
      return false;
    }
    // A misspelt name would make the rule silently never fire.
    for (const std::string& id : cond->identifiers())
      if (!IsKnownIdentifier(id)) {
        *error = where + ": in when: unknown name \"" + id + "\" (a parameter of PostgreSQL 14-18, or profile.*, "
                 "effective.*, running.*, build.*, pg.major)";
        return false;
      }
    std::string anchor;
    if (auto* anchors = (*t)["anchor"].as_array())
      for (auto& x : *anchors)
        if (auto s = x.value<std::string>()) anchor += (anchor.empty() ? "" : "\n") + *s;
    user_refs_.emplace_back();
    if (auto* refs = (*t)["references"].as_array())
      for (auto& x : *refs)
        if (auto s = x.value<std::string>()) user_refs_.back().push_back(Keep(*s));
    user_refs_.back().push_back(nullptr);
    RuleInfo r{RuleId{}, Keep(code), Keep(name), Keep(severity), Keep(category), Keep(fatal), Keep(summary),
               Keep(why), Keep(fix), Keep(versions), Keep(bad), Keep(good), 0, user_refs_.back().data(),
               Keep(when), Keep(message), Keep(help), Keep(anchor), "", Keep(fix_safety), Keep(example_profile),
               lo, hi, false};
    user_rules_.push_back(r);
    all_.push_back(&user_rules_.back());
    conditions_.emplace_back(&user_rules_.back(), std::move(cond));
  }
  return true;
}

bool RuleSet::AddDirectory(const std::string& dir, std::string* error) {
  DIR* d = opendir(dir.c_str());
  if (!d) {
    *error = dir + ": " + strerror(errno);
    return false;
  }
  std::vector<std::string> files;
  while (dirent* e = readdir(d)) {
    std::string n = e->d_name;
    if (n.size() > 5 && n.compare(n.size() - 5, 5, ".toml") == 0 && n[0] != '.') files.push_back(dir + "/" + n);
  }
  closedir(d);
  std::sort(files.begin(), files.end());
  for (const std::string& f : files)
    if (!AddFile(f, error)) return false;
  return true;
}

}  // namespace pgconflint
