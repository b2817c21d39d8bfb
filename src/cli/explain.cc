// `pgconflint explain` (a rule's page, or the list) and `pgconflint docs`
// (write every rule page).
#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "cli/common.h"
#include "core/knowledge/catalog.h"
#include "core/rules/rules.h"
#include "report/docs.h"

namespace pgconflint::cli {
namespace {

struct ExplainOptions {
  std::string rule;
  bool list = false;
  std::vector<std::string> rules;
};

int RunExplain(const ExplainOptions& o) {
  RuleSet rules;
  for (const std::string& p : o.rules) {
    std::string error;
    if (!rules.AddPath(p, &error)) {
      PrintError(error);
      return kExitUsage;
    }
  }
  if (o.list || o.rule.empty()) {
    for (const RuleInfo* r : rules.rules())
      std::cout << r->code << "  " << r->name << "  (" << SeverityName(r->severity) << ")  " << r->summary << "\n";
    return std::cout.flush() ? kExitOk : kExitInternal;
  }
  const RuleInfo* r = rules.Find(o.rule);
  if (!r) {
    // A parameter name is a common mistake: point to its catalog entry.
    if (!MajorsWithParameter(o.rule).empty())
      PrintError("no rule \"" + o.rule + "\": it is a parameter; `pgconflint params " + o.rule +
                 "` describes it (type, unit, range, default, majors), and `pgconflint explain --list` lists the rules");
    else
      PrintError("no rule \"" + o.rule + "\" (see `pgconflint explain --list`, or `pgconflint params` for parameters)");
    return kExitUsage;
  }
  std::cout << RuleDocMarkdown(*r, rules);
  return std::cout.flush() ? kExitOk : kExitInternal;
}

}  // namespace

Command AddExplain(CLI::App* app, bool full) {
  auto o = std::make_shared<ExplainOptions>();
  CLI::App* explain = app->add_subcommand("explain", "Print a rule's documentation");
  if (!full) return {explain, {}};
  explain->add_option("RULE", o->rule, "Rule code (PGC201) or name (invalid-value)");
  explain->add_flag("--list", o->list, "List every rule");
  // One path per --rules (repeatable), so that a RULE after it stays the RULE.
  explain->add_option("--rules", o->rules, "Extra rule file or directory (repeatable)")->allow_extra_args(false);
  return {explain, [o] { return RunExplain(*o); }};
}

Command AddDocs(CLI::App* app, bool full) {
  auto dir = std::make_shared<std::string>();
  CLI::App* docs = app->add_subcommand("docs", "Write the rule documentation pages (docs/rules)");
  if (!full) return {docs, {}};
  docs->add_option("DIR", *dir, "Output directory")->required();
  return {docs, [dir] {
            RuleSet rules;
            std::string error;
            if (WriteRuleDocs(rules, *dir, &error)) return kExitOk;
            PrintError(error);
            return kExitInternal;
          }};
}

}  // namespace pgconflint::cli
