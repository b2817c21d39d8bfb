// The rule registry: the generated table of built-in rules, and the rules of
// one run (built-in plus user rule files, read by core/rules/rule_file.h).
#include "core/rules/rules.h"

#include "core/rules/profile.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "core/knowledge/catalog.h"
#include "core/rules/expr.h"
#include "core/base/file_system.h"

namespace pgconflint {
namespace generated {
extern const RuleInfo kBuiltinRules[];
extern const int kBuiltinRuleCount;
extern const int kRuleIndex[];  // by RuleId value
extern const ConditionImage kConditionImages[];  // by table index
}  // namespace generated

std::span<const RuleInfo> BuiltinRules() {
  return {generated::kBuiltinRules, static_cast<size_t>(generated::kBuiltinRuleCount)};
}

const RuleInfo& Rule(RuleId id) {
  if (id == RuleId::kUnnamed) std::abort();
  const RuleInfo& r = generated::kBuiltinRules[generated::kRuleIndex[static_cast<int>(id)]];
  if (r.id != id) std::abort();  // the generator writes kRuleIndex in RuleId order
  return r;
}

const RuleInfo* FindRule(std::string_view code_or_name) {
  std::string key = AsciiLower(code_or_name);
  for (const RuleInfo& r : BuiltinRules())
    if (AsciiLower(r.code) == key || r.name == key) return &r;
  return nullptr;
}

namespace {

// The parameters of every supported major, asked of the catalogs' hash tables
// (nothing is built when a rule file loads).
class CatalogParameterNames : public ParameterNames {
 public:
  bool Has(std::string_view name) const override { return !MajorsWithParameter(name).empty(); }
  void ForEach(const std::function<void(std::string_view)>& fn) const override {
    for (int m : Catalog::SupportedMajors())
      for (const Parameter& p : Catalog::ForMajor(m)->parameters()) fn(p.name);
  }
};

}  // namespace

RuleFileOptions RuntimeRuleFileOptions(bool builtin) {
  static const CatalogParameterNames names;
  RuleFileOptions o;
  o.builtin = builtin;
  o.parameters = &names;
  o.majors.assign(Catalog::SupportedMajors().begin(), Catalog::SupportedMajors().end());
  o.check_profile = [](const std::string& facts, std::string* error) {
    Profile p;
    return SetProfileFacts(&p, facts, error);
  };
  return o;
}

// --- RuleSet --------------------------------------------------------------

RuleSet::RuleSet() : builtin_conditions_(BuiltinRules().size()) {
  for (const RuleInfo& r : BuiltinRules()) {
    all_.push_back(&r);
    if (!r.when[0]) continue;
    // Parsed by the build (generator): rebuilt here without parsing.
    const size_t i = static_cast<size_t>(&r - BuiltinRules().data());
    const ConditionImage& image = generated::kConditionImages[i];
    auto c = CompiledExpr::FromImage(r.when, image.nodes, image.identifiers);
    if (!c) {  // the generator wrote a broken image: a build defect
      fprintf(stderr, "pgconflint: built-in rule %s: its compiled condition is malformed\n", r.code);
      std::abort();
    }
    builtin_conditions_[i] = std::move(c);
  }
}

RuleSet::~RuleSet() = default;

const char* RuleSet::Keep(std::string s) {
  strings_.push_back(std::move(s));
  return strings_.back().c_str();
}

const RuleInfo* RuleSet::Find(std::string_view code_or_name) const {
  if (const RuleInfo* r = FindRule(code_or_name)) return r;
  if (user_keys_.empty()) return nullptr;
  auto it = user_keys_.find(AsciiLower(code_or_name));
  return it == user_keys_.end() ? nullptr : it->second;
}

const CompiledExpr* RuleSet::Condition(const RuleInfo* rule) const {
  if (rule->builtin) return builtin_conditions_[static_cast<size_t>(rule - BuiltinRules().data())].get();
  auto it = user_conditions_.find(rule);
  return it == user_conditions_.end() ? nullptr : it->second.get();
}

bool RuleSet::AddText(std::string_view text, const std::string& path, std::string* error) {
  RuleFileOptions options = RuntimeRuleFileOptions(false);
  options.taken = [this](std::string_view code_or_name) {
    const RuleInfo* r = Find(code_or_name);
    return r ? std::string(r->builtin ? "built-in rule " : "rule ") + r->code : std::string();
  };
  std::vector<RuleDecl> decls;
  if (!ParseRuleFile(text, path, options, &decls, error)) return false;
  for (RuleDecl& d : decls) {
    std::string anchor;
    for (const std::string& a : d.anchors) anchor += (anchor.empty() ? "" : "\n") + a;
    user_refs_.emplace_back();
    for (const std::string& ref : d.references) user_refs_.back().push_back(Keep(ref));
    user_refs_.back().push_back(nullptr);
    RuleInfo r{RuleId{},       Keep(d.code),    Keep(d.name),     d.severity_level,  Keep(d.category),
               d.outcome_value, d.per_finding,  Keep(d.summary),  Keep(d.why),       Keep(d.fix),
               {d.min_major, d.max_major},      Keep(d.bad),      Keep(d.good),      d.example_pg_version,
               user_refs_.back().data(),        Keep(d.when),     Keep(d.message),   Keep(d.help),
               Keep(anchor),    "",             d.fix_kind,       Keep(d.example_profile),
               Keep(d.example_kind),            Keep(d.example_context),             false};
    user_rules_.push_back(r);
    const RuleInfo* added = &user_rules_.back();
    all_.push_back(added);
    user_keys_.emplace(AsciiLower(added->code), added);  // the rule file's reader refused clashes
    user_keys_.emplace(added->name, added);
    user_conditions_.emplace(added, std::move(d.condition));
  }
  return true;
}

bool RuleSet::AddFile(const FileSystem& fs, const std::string& path, std::string* error) {
  std::string text, cause;
  if (ReadDataFile(fs, path, &text, &cause) != ReadStatus::kOk) {
    *error = path + ": " + cause;
    return false;
  }
  return AddText(text, path, error);
}

bool RuleSet::AddPath(const FileSystem& fs, const std::string& path, std::string* error) {
  if (fs.Stat(path).type == FileInfo::Type::kDirectory) return AddDirectory(fs, path, error);
  return AddFile(fs, path, error);
}

bool RuleSet::AddDirectory(const FileSystem& fs, const std::string& dir, std::string* error) {
  std::vector<DirEntry> entries;
  if (!fs.List(dir, &entries, error)) {
    *error = dir + ": " + *error;
    return false;
  }
  std::vector<std::string> files;
  for (const DirEntry& e : entries) {
    const std::string& n = e.name;
    if (n.size() > 5 && n.compare(n.size() - 5, 5, ".toml") == 0 && n[0] != '.') files.push_back(dir + "/" + n);
  }
  std::sort(files.begin(), files.end());
  for (const std::string& f : files)
    if (!AddFile(fs, f, error)) return false;
  return true;
}

bool RuleSet::AddFile(const std::string& path, std::string* error) { return AddFile(RealFileSystem(), path, error); }
bool RuleSet::AddDirectory(const std::string& dir, std::string* error) {
  return AddDirectory(RealFileSystem(), dir, error);
}
bool RuleSet::AddPath(const std::string& path, std::string* error) { return AddPath(RealFileSystem(), path, error); }

}  // namespace pgconflint
