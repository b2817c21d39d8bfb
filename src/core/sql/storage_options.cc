// Storage options as the server's reloption code checks them; each refusal in
// the wording knowledge/sql.json holds for the major.
#include "core/sql/storage_options.h"

#include <map>
#include <set>

#include "core/base/quantity.h"
#include "core/base/strings.h"
#include "core/knowledge/value.h"

namespace pgconflint {
namespace {

// One option's value as the reloption parsers read it: booleans as
// parse_bool, an enum's listed values (and the boolean spellings its parser
// takes without listing them: vacuum_index_cleanup = true), integers and
// reals without units within the range. Appends the refusal, if any.
void CheckOptionType(const SqlFacts& facts, const Catalog& cat, const StorageOption& t, const SqlOption& o,
                    RuleId invalid, std::vector<OptionRefusal>* out) {
  const Range where = o.has_value ? o.value_range : o.name_range;
  const std::map<std::string, std::string> subs = {{"name", o.name}, {"value", o.value}};
  bool b;
  if (t.type == StorageOption::Type::kBool) {
    if (!ParseBool(o.value, &b))
      out->push_back({invalid, where, facts.Message("tbl_bool", subs), "on or off (true, false, yes, no, 1, 0)"});
    return;
  }
  if (t.type == StorageOption::Type::kEnum) {
    for (const std::string& v : t.values)
      if (AsciiLower(v) == AsciiLower(o.value)) return;
    if (!ParseBool(o.value, &b))
      out->push_back({invalid, where, facts.Message("tbl_enum", subs), "one of " + CommaList(t.values)});
    return;
  }
  Parameter p = t.AsParameter();
  ParsedValue v = ParseValue(cat, p, o.value);
  if (v.ok()) return;
  const bool integer = t.type == StorageOption::Type::kInteger;
  if (v.problem == ValueProblem::kOutOfRange) {
    out->push_back({invalid, where, facts.Message("ts_range", subs),
                    "the range is " + FormatReal(t.min) + " .. " +
                        (t.max > 1e300 ? std::string("no upper limit") : FormatReal(t.max))});
    return;
  }
  out->push_back({invalid, where, facts.Message(integer ? "ts_int" : "ts_real", subs),
                  integer ? "an integer without a unit" : "a number such as 1.1"});
}

void CheckOptionValue(const SqlFacts& facts, const Catalog& cat, const StorageOption& t, const SqlOption& o,
                RuleId invalid, std::vector<OptionRefusal>* out) {
  const size_t before = out->size();
  CheckOptionType(facts, cat, t, o, invalid, out);
  // `name = NULL` reads as "back to the default", and is the word NULL.
  if (out->size() > before && AsciiLower(o.value) == "null")
    out->back().help = "NULL is no value: RESET (" + o.name + ") returns it to the default";
}

// The reloption parser's walk over one statement's options: a qualified
// name is refused (except, where `toast` is set, one in the `toast.`
// namespace, taken as written), then a name `find` does not know, a name
// given twice, and last a value CheckOptionValue refuses. `unknown_help`
// gives the hint for a refused name.
template <typename Find, typename Help>
std::vector<OptionRefusal> CheckReloptions(const SqlFacts& facts, const Catalog& cat,
                                           const std::vector<SqlOption>& options, bool toast, Find find,
                                           RuleId unknown, RuleId invalid, Help unknown_help) {
  std::vector<OptionRefusal> out;
  std::set<std::string> seen;
  for (const SqlOption& o : options) {
    const size_t dot = o.name.find('.');
    if (toast && dot != std::string::npos && o.name.compare(0, dot, "toast") == 0) continue;
    const StorageOption* known = dot == std::string::npos ? find(o.name) : nullptr;
    std::string message = dot != std::string::npos ? facts.Message("ts_namespace", {{"namespace", o.name.substr(0, dot)}})
                          : !known                 ? facts.Message("ts_unknown", {{"name", o.name}})
                          : !seen.insert(o.name).second ? facts.Message("ts_twice", {{"name", o.name}})
                                                        : "";
    if (!message.empty()) {
      out.push_back({unknown, o.name_range, std::move(message), unknown_help(o, known, dot)});
      continue;
    }
    CheckOptionValue(facts, cat, *known, o, invalid, &out);
  }
  return out;
}

}  // namespace

std::vector<OptionRefusal> CheckTablespaceOptions(const SqlFacts& facts, const Catalog& cat,
                                                  const std::vector<SqlOption>& options) {
  return CheckReloptions(
      facts, cat, options, /*toast=*/false, [&](const std::string& n) { return facts.FindTablespaceOption(n); },
      RuleId::kTablespaceOptionUnknown, RuleId::kTablespaceOptionInvalid,
      [](const SqlOption&, const StorageOption*, size_t) {
        return std::string(
            "a tablespace has four options: seq_page_cost, random_page_cost, effective_io_concurrency, "
            "maintenance_io_concurrency");
      });
}

std::vector<OptionRefusal> CheckTableOptions(const SqlFacts& facts, const Catalog& cat,
                                             const std::vector<SqlOption>& options) {
  return CheckReloptions(
      facts, cat, options, /*toast=*/true, [&](const std::string& n) { return facts.FindTableOption(n); },
      RuleId::kTableOptionUnknown, RuleId::kTableOptionInvalid,
      [&](const SqlOption& o, const StorageOption* known, size_t dot) {
        const bool server_parameter = !known && dot == std::string::npos && cat.Find(o.name);
        return server_parameter ? o.name + " is a server parameter with no per-table form: set it in "
                                           "postgresql.conf or with ALTER SYSTEM"
                                : std::string("a table takes fillfactor, parallel_workers, toast_tuple_target and "
                                              "per-table autovacuum_* and vacuum_* parameters");
      });
}

}  // namespace pgconflint
