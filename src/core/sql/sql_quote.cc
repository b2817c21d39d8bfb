// Quoting for SQL and postgresql.conf.
#include "core/sql/sql_quote.h"

#include <algorithm>

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

std::string_view TrimSpaces(std::string_view s) {
  size_t b = s.find_first_not_of(' ');
  if (b == std::string_view::npos) return {};
  return s.substr(b, s.find_last_not_of(' ') - b + 1);
}

}  // namespace

std::string QuoteLiteral(std::string_view s) { return Quote(s, '\''); }

std::string QuoteIdentifier(std::string_view name) {
  // A name holding a control character (a line break) is written with
  // Unicode escapes, U&"a\000ab": the statement stays on one line, and a
  // comment after it cannot be forged by the name.
  if (std::none_of(name.begin(), name.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; }))
    return Quote(name, '"');
  static const char kHex[] = "0123456789abcdef";
  std::string out = "U&\"";
  for (char c : name) {
    const unsigned char u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f) out += std::string("\\00") + kHex[u >> 4] + kHex[u & 15];
    else if (c == '\\') out += "\\\\";
    else if (c == '"') out += "\"\"";
    else out += c;
  }
  return out + "\"";
}

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
      v += (v.empty() ? "" : ", ") + QuoteLiteral(TrimSpaces(rest.substr(0, comma)));
      if (comma == std::string_view::npos) break;
      rest.remove_prefix(comma + 1);
    }
  } else {
    v = QuoteLiteral(value);
  }
  return "ALTER SYSTEM SET " + std::string(param.name) + " = " + v + ";";
}

std::string QuoteIdentifierIfNeeded(const SqlFacts& facts, std::string_view name, bool quote_all) {
  bool safe = !quote_all && !name.empty() && ((name[0] >= 'a' && name[0] <= 'z') || name[0] == '_');
  for (char c : name) safe = safe && ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_');
  if (safe) {
    KeywordCategory k = facts.Keyword(name);
    safe = k == KeywordCategory::kNone || k == KeywordCategory::kUnreserved;
  }
  // The server's quotes, control characters as they are: a value item with a
  // line break stays one, and ALTER SYSTEM refuses the value for it.
  return safe ? std::string(name) : Quote(name, '"');
}

bool FlattenSetValues(const SqlFacts& facts, std::string_view name, bool list_input, bool quote_all,
                      const std::vector<SqlValue>& values, std::string* out, std::string* error) {
  if (!list_input && values.size() != 1) {
    *error = facts.Message("one_argument", {{"name", std::string(name)}});
    return false;
  }
  const bool quote = facts.ListQuote(name);
  out->clear();
  for (size_t i = 0; i < values.size(); ++i) {
    if (i) *out += ", ";
    const SqlValue& v = values[i];
    bool text = v.kind == SqlValue::Kind::kString || v.kind == SqlValue::Kind::kWord;
    *out += text && quote ? QuoteIdentifierIfNeeded(facts, v.text, quote_all) : v.text;
  }
  return true;
}

}  // namespace pgconflint
