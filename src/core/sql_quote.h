// Writing values and names the way PostgreSQL reads them back: string
// literals, identifiers, the value of a setting in postgresql.conf or SET,
// and ALTER SYSTEM statements with PostgreSQL's list rules. Used by the
// recommender's SQL and its rollout plan; meant for every SQL writer.
#ifndef PGCONFLINT_CORE_SQL_QUOTE_H_
#define PGCONFLINT_CORE_SQL_QUOTE_H_

#include <string>
#include <string_view>

#include "core/catalog.h"

namespace pgconflint {

/// A standard SQL string literal: 'it''s'. Also a valid quoted value in
/// postgresql.conf, where '' stands for one quote too.
std::string QuoteLiteral(std::string_view s);

/// Always a quoted identifier ("table", "o""q"): safe for keywords and any
/// case, and the same object as the unquoted name when that is lower case.
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

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_SQL_QUOTE_H_
