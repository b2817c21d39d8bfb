// Writing values and names the way PostgreSQL reads them back: string
// literals, identifiers, the value of a setting in postgresql.conf or SET,
// and ALTER SYSTEM statements with PostgreSQL's list rules; and the text the
// server itself makes of a SET value list and writes into
// postgresql.auto.conf. Used by the recommender's SQL and its rollout plan,
// the ALTER SYSTEM simulation and the snapshot's SQL; meant for every SQL
// writer.
#ifndef PGCONFLINT_CORE_SQL_SQL_QUOTE_H_
#define PGCONFLINT_CORE_SQL_SQL_QUOTE_H_

#include <string>
#include <string_view>
#include <vector>

#include "core/knowledge/catalog.h"
#include "core/knowledge/sql_knowledge.h"
#include "core/sql/sql_statements.h"

namespace pgconflint {

/// A standard SQL string literal: 'it''s'. Also a valid quoted value in
/// postgresql.conf, where '' stands for one quote too.
std::string QuoteLiteral(std::string_view s);

/// Always a quoted identifier ("table", "o""q"): safe for keywords and any
/// case, and the same object as the unquoted name when that is lower case.
/// A name with a control character is written U&"evil\000aname": one line.
std::string QuoteIdentifier(std::string_view name);

/// `value` as a postgresql.conf line or a SET statement spells it: reals,
/// unitless integers, booleans and enum labels bare (64, 1.1, on, worker),
/// everything else (sizes, times, strings, unknown parameters) a literal.
/// `param` may be null (an unknown parameter).
std::string SettingValueText(const Parameter* param, std::string_view value);

/// An ALTER SYSTEM statement for `param` = `value` with PostgreSQL's list
/// rules: list parameters take unquoted comma-separated items, each quoted on
/// its own, never one quoted string, which would become a single item (the
/// ALTER SYSTEM page of the PostgreSQL documentation:
/// https://www.postgresql.org/docs/current/sql-altersystem.html).
std::string AlterSystemStatement(const Parameter& param, const std::string& value);

/// quote_identifier (ruleutils.c): `name` unchanged when it is a lower-case
/// identifier ([a-z_][a-z0-9_]*) that is no keyword, or an unreserved one;
/// else double-quoted, with "" for each quote, every other character as it
/// is (a line break too, unlike QuoteIdentifier). `quote_all`: the session's
/// quote_all_identifiers is on, which quotes every name.
std::string QuoteIdentifierIfNeeded(const SqlFacts& facts, std::string_view name, bool quote_all = false);

/// flatten_set_variable_args (guc_funcs.c): the text SET, ALTER SYSTEM and
/// ALTER DATABASE/ROLE make of a value list: items joined with ", ", strings
/// and words of a GUC_LIST_QUOTE parameter (facts.ListQuote) quoted as
/// identifiers (every one when `quote_all`: the session's
/// quote_all_identifiers), numbers as the grammar read them. False with
/// *error (the server's "SET x takes only one argument") when several values
/// are given to a parameter that is not `list_input`.
bool FlattenSetValues(const SqlFacts& facts, std::string_view name, bool list_input, bool quote_all,
                      const std::vector<SqlValue>& values, std::string* out, std::string* error);

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_SQL_SQL_QUOTE_H_
