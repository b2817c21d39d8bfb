// The rule-file reader: every problem is refused at load, at the line of the
// offending key, with a suggestion where one is close.
#include "core/rules/rule_file.h"

#include "core/knowledge/catalog.h"
#include "core/rules/profile.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace pgconflint {
namespace {

// A few parameter names, as the runtime or the generator would give them.
const ListedParameterNames kParameters({"fsync", "io_method", "io_workers", "shared_buffers", "work_mem"});

RuleFileOptions Options(bool builtin = false) {
  RuleFileOptions o;
  o.builtin = builtin;
  o.parameters = &kParameters;
  o.majors.assign(Catalog::SupportedMajors().begin(), Catalog::SupportedMajors().end());
  o.check_profile = [](const std::string& facts, std::string* error) {
    Profile p;
    return SetProfileFacts(&p, facts, error);
  };
  return o;
}

// The error of reading `text` as org.toml (empty when it loads).
std::string RuleFileError(const std::string& text, const RuleFileOptions& options = Options()) {
  std::vector<RuleDecl> rules;
  std::string error;
  if (ParseRuleFile(text, "org.toml", options, &rules, &error)) return "";
  EXPECT_TRUE(rules.empty()) << "a refused file adds no rule";
  return error;
}

// A valid rule's first five lines (when on line 4); tests add line 6.
const std::string kHead =
    "[[rule]]\ncode = \"ORG001\"\nname = \"fsync-on\"\nwhen = \"fsync == false\"\nmessage = \"m\"\n";

constexpr char kGood[] = R"toml([[rule]]
code = "ORG001"
name = "fsync-must-stay-on"
when = "fsync == false and is_set(fsync)"
anchor = ["fsync", "work_mem|work_mem > '1MB'"]
message = "fsync must stay on (it is {fsync})"
help = "set fsync = on; RAM {profile.ram}"
versions = "14-18"
)toml";

TEST(RuleFileTest, AUserRuleLoadsWithItsKeyLinesAndDefaults) {
  std::vector<RuleDecl> rules;
  std::string error;
  ASSERT_TRUE(ParseRuleFile(kGood, "org.toml", Options(), &rules, &error)) << error;
  ASSERT_EQ(rules.size(), 1u);
  const RuleDecl& r = rules[0];
  EXPECT_EQ(r.code, "ORG001");
  EXPECT_EQ(r.severity, "warning");
  EXPECT_EQ(r.category, "policy");
  EXPECT_EQ(r.outcome_value, Outcome::kAdvisory);
  EXPECT_EQ(r.severity_level, Severity::kWarning);
  EXPECT_FALSE(r.per_finding);
  EXPECT_EQ(r.min_major, 14);
  EXPECT_EQ(r.max_major, 18);
  EXPECT_EQ(r.anchors, (std::vector<std::string>{"fsync", "work_mem|work_mem > '1MB'"}));
  ASSERT_NE(r.condition, nullptr);
  EXPECT_EQ(r.condition->identifiers(), (std::vector<std::string>{"fsync", "fsync"}));
  EXPECT_EQ(r.file, "org.toml");
  EXPECT_EQ(r.line, 1);
  EXPECT_EQ(r.Line("when"), 4);
  EXPECT_EQ(r.Line("versions"), 8);
  EXPECT_EQ(r.Line("summary"), 1) << "an absent key: the entry's line";
}

// The acceptance cases of the rule language: refused at load, at the key's line.
TEST(RuleFileTest, UnknownFunctionFactOrPlaceholderIsRefusedAtTheKeyLine) {
  const std::string head = "[[rule]]\ncode = \"ORG001\"\nname = \"fsync-on\"\n";
  EXPECT_EQ(RuleFileError(head + "when = \"is_flase(fsync)\"\nmessage = \"m\"\n"),
            "org.toml:4: in when: unknown function \"is_flase\" (did you mean \"is_false\"?) at column 1");
  EXPECT_EQ(RuleFileError(head + "when = \"fsync == false and profile.rma > 0\"\nmessage = \"m\"\n"),
            "org.toml:4: in when: unknown profile fact \"profile.rma\" (did you mean \"profile.ram\"?) at column 20");
  EXPECT_EQ(RuleFileError(head + "when = \"fsync == false\"\nmessage = \"fsync is {fsycn}\"\n"),
            "org.toml:5: in message: placeholder {fsycn}: unknown name \"fsycn\" (did you mean \"fsync\"?) at column 11");
  EXPECT_EQ(RuleFileError(head + "when = \"fsync == false\"\nmessage = \"m\"\nhelp = \"{max(1)\"\n"), "")
      << "an unclosed brace is text";
  EXPECT_EQ(RuleFileError(head + "when = \"fsync == false\"\nmessage = \"m\"\nhelp = \"{max()}\"\n"),
            "org.toml:6: in help: placeholder {max()}: max takes at least 1 argument, not 0 at column 2");
}

TEST(RuleFileTest, AnchorsAreParametersAndTheirGuardsCompile) {
  EXPECT_EQ(RuleFileError(kHead + "anchor = [\"fsnyc\"]\n"),
            "org.toml:6: in anchor: unknown name \"fsnyc\" (did you mean \"fsync\"?)");
  EXPECT_EQ(RuleFileError(kHead + "anchor = [\"profile.ram\"]\n"), "org.toml:6: anchor \"profile.ram\" must be a parameter name");
  EXPECT_EQ(RuleFileError(kHead + "anchor = [\"fsync|fsync ==\"]\n"),
            "org.toml:6: in the guard of anchor fsync: unexpected end of expression at column 9");
  EXPECT_EQ(RuleFileError(kHead + "anchor = [\"fsync|is_ture(fsync)\"]\n"),
            "org.toml:6: in the guard of anchor fsync: unknown function \"is_ture\" (did you mean \"is_true\"?) at column 1");
  EXPECT_EQ(RuleFileError(kHead + "anchor = \"fsync\"\n"), "org.toml:6: anchor must be an array of strings");
}

TEST(RuleFileTest, StructureIsCheckedKeyByKey) {
  EXPECT_EQ(RuleFileError(kHead + "mesage = \"x\"\n"), "org.toml:6: unknown key \"mesage\" in [[rule]] (did you mean \"message\"?)");
  EXPECT_EQ(RuleFileError(kHead + "severity = \"fatal\"\n"), "org.toml:6: severity must be error, warning or info");
  EXPECT_EQ(RuleFileError(kHead + "severity = 1\n"), "org.toml:6: severity must be a string");
  EXPECT_EQ(RuleFileError(kHead + "fatal = \"maybe\"\n"),
            "org.toml:6: fatal must be yes, no or per-server (or write outcome = \"advisory\")");
  EXPECT_EQ(RuleFileError(kHead + "outcome = \"fatal\"\n"),
            "org.toml:6: outcome must be one of refuses-start, refuses-reload, errors-when-run, ignores-line, "
            "advisory, or per-finding");
  // A refusal is an error; the older `fatal` key still reads.
  EXPECT_EQ(RuleFileError(kHead + "outcome = \"refuses-start\"\nseverity = \"warning\"\n"),
            "org.toml:7: a rule whose outcome is refuses-start has severity \"error\": the server refuses");
  EXPECT_EQ(RuleFileError(kHead + "fatal = \"yes\"\n"), "");
  EXPECT_EQ(RuleFileError(kHead + "fatal = \"no\"\noutcome = \"advisory\"\n"),
            "org.toml:6: give \"outcome\" or \"fatal\", not both");
  EXPECT_EQ(RuleFileError(kHead + "category = \"Policy\"\n"), "org.toml:6: category \"Policy\" must be kebab-case");
  EXPECT_EQ(RuleFileError(kHead + "fix_safety = \"sure\"\n"), "org.toml:6: fix_safety must be one of safe, needs-restart, review");
  EXPECT_EQ(RuleFileError(kHead + "evaluator = \"memory-overcommit\"\n"),
            "org.toml:6: only built-in rules have custom evaluators: use \"when\"");
  EXPECT_EQ(RuleFileError(kHead + "example_profile = \"ram=lots\"\n"),
            "org.toml:6: example_profile: invalid ram \"lots\": not a number; expected a size such as 64GB");
  EXPECT_EQ(RuleFileError(kHead + "example_pg_version = 13\n"),
            "org.toml:6: example_pg_version 13 is not a supported major within the rule's versions");
  EXPECT_EQ(RuleFileError(kHead + "example_pg_version = 1e300\n"), "org.toml:6: example_pg_version must be a major such as 17");
  EXPECT_EQ(RuleFileError("[[rule]]\ncode = \"ORG001\"\nname = \"fsync-on\"\nmessage = \"m\"\n"),
            "org.toml:1: rule is missing \"when\"");
  EXPECT_EQ(RuleFileError("[[rule]]\ncode = \"ORG001\"\nname = \"Fsync_On\"\nwhen = \"true\"\nmessage = \"m\"\n"),
            "org.toml:3: rule name \"Fsync_On\" must be kebab-case (such as fsync-off)");
  EXPECT_EQ(RuleFileError("[[rule]]\ncode = \"PGC999\"\nname = \"x\"\nwhen = \"true\"\nmessage = \"m\"\n"),
            "org.toml:2: code \"PGC999\" must be upper-case letters and digits, such as ORG001, not starting with "
            "PGC (built-in)");
  EXPECT_EQ(RuleFileError("[rule]\ncode = \"ORG001\"\n"), "org.toml: no [[rule]] entries");
  EXPECT_EQ(RuleFileError("[[rules]]\ncode = \"ORG001\"\n"),
            "org.toml:1: unknown key \"rules\" (a rule file holds [[rule]] entries)");
  EXPECT_EQ(RuleFileError("[[rule]]\ncode = \"ORG001\n").substr(0, 12), "org.toml:2: ") << "TOML syntax: toml++'s message";
  EXPECT_NE(RuleFileError("x = " + std::string(10000, '[')), "") << "deep TOML is a parse error, not a crash";
}

TEST(RuleFileTest, VersionsAreAMajorRange) {
  int lo = 0, hi = 0;
  EXPECT_TRUE(ParseVersionRange("14-18", &lo, &hi));
  EXPECT_EQ(lo, 14);
  EXPECT_EQ(hi, 18);
  EXPECT_TRUE(ParseVersionRange("18-", &lo, &hi));
  EXPECT_EQ(lo, 18);
  EXPECT_EQ(hi, 99);
  EXPECT_TRUE(ParseVersionRange("17", &lo, &hi));
  EXPECT_EQ(lo, 17);
  EXPECT_EQ(hi, 17);
  EXPECT_TRUE(ParseVersionRange("", &lo, &hi));
  EXPECT_EQ(lo, 0);
  EXPECT_EQ(hi, 99);
  for (const char* bad : {"99999999999999999999-1", "1-99999999999999999999", "18-14", "-18", "0-5", " 14", "14 -18",
                          "14-18-", "x", "14-x", "+14", "100", "14--18"})
    EXPECT_FALSE(ParseVersionRange(bad, &lo, &hi)) << bad;
  EXPECT_EQ(RuleFileError(kHead + "versions = \"99999999999999999999-1\"\n"),
            "org.toml:6: versions must look like 14-18, 17- or 18 (majors 1 to 99)");
}

TEST(RuleFileTest, CodesAndNamesAreUnique) {
  const std::string rule = "[[rule]]\ncode = \"ORG001\"\nname = \"fsync-on\"\nwhen = \"fsync == false\"\nmessage = \"m\"\n";
  EXPECT_EQ(RuleFileError(rule + "\n" + rule), "org.toml:8: code ORG001 is already used by rule ORG001 (org.toml:1)");
  RuleFileOptions o = Options();
  o.taken = [](std::string_view key) { return key == "fsync-on" ? "built-in rule PGC999" : ""; };
  EXPECT_EQ(RuleFileError(rule, o), "org.toml:3: name fsync-on is already used by built-in rule PGC999");
  // Across files: the declarations already read count.
  std::vector<RuleDecl> rules;
  std::string error;
  ASSERT_TRUE(ParseRuleFile(rule, "a.toml", Options(), &rules, &error)) << error;
  EXPECT_FALSE(ParseRuleFile(rule, "b.toml", Options(), &rules, &error));
  EXPECT_EQ(error, "b.toml:2: code ORG001 is already used by rule ORG001 (a.toml:1)");
  EXPECT_EQ(rules.size(), 1u);
}

TEST(RuleFileTest, BuiltinRulesDocumentThemselves) {
  const std::string rule = R"toml([[rule]]
code = "PGC950"
name = "example-rule"
severity = "warning"
category = "ops"
outcome = "advisory"
summary = "s"
why = "w"
bad = "work_mem = 1"
good = ""
evaluator = "memory-overcommit"
references = ["https://www.postgresql.org/docs/"]
)toml";
  EXPECT_EQ(RuleFileError(rule, Options(true)), "");
  EXPECT_EQ(RuleFileError(rule + "when = \"true\"\nmessage = \"m\"\n", Options(true)),
            "org.toml:11: a rule has \"when\" or \"evaluator\", not both");
  std::string no_why = rule;
  no_why.replace(no_why.find("why = \"w\"\n"), 10, "");
  EXPECT_EQ(RuleFileError(no_why, Options(true)), "org.toml:1: rule is missing \"why\"");
  std::string category = rule;
  category.replace(category.find("\"ops\""), 5, "\"memroy\"");
  EXPECT_EQ(RuleFileError(category, Options(true)).substr(0, 62), "org.toml:5: unknown category \"memroy\" (did you mean \"memory\"?)");
  std::string code = rule;
  code.replace(code.find("PGC950"), 6, "ORG950");
  EXPECT_EQ(RuleFileError(code, Options(true)), "org.toml:2: code \"ORG950\" must be PGC and three or four digits");
}

}  // namespace
}  // namespace pgconflint
