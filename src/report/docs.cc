// Generated rule documentation.
#include "report/docs.h"

#include <sys/stat.h>

#include <sstream>

#include "core/base/atomic_write.h"
#include "core/knowledge/catalog.h"
#include "core/workspace/workspace.h"
#include "report/reporter.h"

namespace pgconflint {
namespace {

std::string Trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  size_t b = s.find_first_not_of('\n');
  return b == std::string::npos ? "" : s.substr(b);
}

// The findings of `rule` that its bad example produces, in concise format.
std::string ExampleFindings(const RuleInfo& r, const RuleSet& rules) {
  const Catalog* cat = Catalog::ForMajor(r.example_pg_version ? r.example_pg_version : Catalog::DefaultMajor());
  // A fixed directory, so that the pages do not depend on where they are
  // generated; read as the rule's example_kind says.
  Analysis a = LintExample(r, r.bad, rules, "/example", "/example");
  std::vector<Diagnostic> mine;
  for (Diagnostic& d : a.diagnostics)
    if (d.rule == &r) mine.push_back(std::move(d));
  a.diagnostics = std::move(mine);
  ReportOptions ro;
  ro.pg_version = cat->major();
  ro.summary = false;
  std::vector<Analysis> v;
  v.push_back(std::move(a));
  std::ostringstream o;
  FindReporter("concise")->render(v, ro, o);
  return o.str();
}

// What the server does with a finding of `r`, for its page.
std::string OutcomeCell(const RuleInfo& r) {
  if (r.per_finding)
    return "per finding: the server's build or host, or the line, decide (each finding says; a refusal is an "
           "error)";
  return std::string(OutcomeName(r.outcome)) + ": " + std::string(OutcomeSentence(r.outcome)) +
         (IsRefusal(r.outcome) ? " (an error)" : "");
}

}  // namespace

std::string RuleDocMarkdown(const RuleInfo& r, const RuleSet& rules) {
  std::ostringstream o;
  o << "# " << r.name << " (" << r.code << ")\n\n" << r.summary << "\n\n";
  o << "| | |\n|---|---|\n";
  o << "| severity | " << SeverityName(r.severity) << " |\n";
  o << "| category | " << r.category << " |\n";
  o << "| what the server does | " << OutcomeCell(r) << " |\n";
  o << "| PostgreSQL versions | " << r.versions.Text() << " |\n";
  if (r.fix_safety != FixKind::kNone) o << "| fix safety | " << FixKindName(r.fix_safety) << " |\n";
  if (r.example_profile[0]) o << "| example profile | `" << r.example_profile << "` |\n";
  o << "\n## Why it matters\n\n" << Trimmed(r.why) << "\n";
  if (r.fix[0]) o << "\n## What to do\n\n" << Trimmed(r.fix) << "\n";
  if (r.when[0]) o << "\n## Condition\n\n```\n" << r.when << "\n```\n";
  o << "\n## Bad\n\n```\n" << Trimmed(r.bad) << "\n```\n";
  std::string findings = ExampleFindings(r, rules);
  if (!findings.empty()) o << "\n```\n" << Trimmed(findings) << "\n```\n";
  o << "\n## Good\n\n```\n" << Trimmed(r.good) << "\n```\n";
  if (r.references[0]) {
    o << "\n## References\n\n";
    for (const char* const* ref = r.references; *ref; ++ref) o << "- " << *ref << "\n";
  }
  return o.str();
}

std::string RuleIndexMarkdown(const RuleSet& rules) {
  std::ostringstream o;
  o << "# Rules\n\nGenerated from `rules/*.toml` by `pgconflint docs docs/rules`; do not edit.\n\n"
    << "| code | name | severity | outcome | summary |\n|---|---|---|---|---|\n";
  for (const RuleInfo* r : rules.rules())
    o << "| " << r->code << " | [" << r->name << "](" << r->name << ".md) | " << SeverityName(r->severity) << " | "
      << (r->per_finding ? "per finding" : OutcomeName(r->outcome)) << " | " << r->summary << " |\n";
  return o.str();
}

bool WriteRuleDocs(const RuleSet& rules, const std::string& dir, std::string* error) {
  mkdir(dir.c_str(), 0755);
  if (!WriteFileAtomically(dir + "/README.md", RuleIndexMarkdown(rules), error)) return false;
  for (const RuleInfo* r : rules.rules())
    if (!WriteFileAtomically(dir + "/" + r->name + ".md", RuleDocMarkdown(*r, rules), error)) return false;
  return true;
}

}  // namespace pgconflint
