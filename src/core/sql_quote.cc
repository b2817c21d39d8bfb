// Quoting for SQL and postgresql.conf.
#include "core/sql_quote.h"

namespace pgconflint {
namespace {

std::string Quote(std::string_view s, char q) {
  std::string out(1, q);
  for (char ch : s) {
    if (ch == q) out += q;
    out += ch;
  }
  return out + q;
}

std::string_view TrimBlanks(std::string_view s) {
  size_t b = s.find_first_not_of(' ');
  if (b == std::string_view::npos) return {};
  return s.substr(b, s.find_last_not_of(' ') - b + 1);
}

}  // namespace

std::string QuoteLiteral(std::string_view s) { return Quote(s, '\''); }

std::string QuoteIdentifier(std::string_view name) { return Quote(name, '"'); }

std::string SettingValueText(const Parameter* p, std::string_view value) {
  bool bare = p && (p->type == VarType::kReal || (p->type == VarType::kInteger && p->unit_kind == UnitKind::kNone) ||
                    p->type == VarType::kBool || p->type == VarType::kEnum);
  return bare ? std::string(value) : QuoteLiteral(value);
}

std::string AlterSystemStatement(const Parameter& param, const std::string& value) {
  std::string v;
  if (param.list_input && value.find(',') != std::string::npos) {
    // Each item quoted on its own: one quoted string would become one item.
    std::string_view rest = value;
    while (true) {
      size_t comma = rest.find(',');
      v += (v.empty() ? "" : ", ") + QuoteLiteral(TrimBlanks(rest.substr(0, comma)));
      if (comma == std::string_view::npos) break;
      rest.remove_prefix(comma + 1);
    }
  } else {
    v = QuoteLiteral(value);
  }
  return "ALTER SYSTEM SET " + std::string(param.name) + " = " + v + ";";
}

}  // namespace pgconflint
