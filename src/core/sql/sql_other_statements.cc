// Transaction control, CREATE DATABASE's tablespace and set_config() calls.
#include "core/sql/sql_other_statements.h"

namespace pgconflint {
namespace {

using Kind = SqlStatement::Kind;
using Action = SqlStatement::Action;

// A statement's tokens, read with the major's keywords.
struct Tokens {
  const std::vector<SqlToken>& t;
  const SqlFacts& facts;

  const SqlToken& At(size_t k) const {
    static const SqlToken kEnd{SqlTokenKind::kOperator, {}, ""};
    return k < t.size() ? t[k] : kEnd;
  }
  // ColId: IDENT | unreserved_keyword | col_name_keyword.
  bool IsColId(const SqlToken& x) const {
    if (x.kind == SqlTokenKind::kQuotedIdentifier) return true;
    if (x.kind != SqlTokenKind::kIdentifier) return false;
    KeywordCategory c = facts.Keyword(x.value);
    return c == KeywordCategory::kNone || c == KeywordCategory::kUnreserved || c == KeywordCategory::kColName;
  }
};

// CREATE DATABASE d [WITH] ... TABLESPACE [=] t ...: the default tablespace.
void CreateDatabase(const Tokens& tk, SqlStatement* out) {
  if (!tk.IsColId(tk.At(2))) return;
  for (size_t k = 3; k + 1 < tk.t.size(); ++k) {
    if (!tk.At(k).Is("tablespace")) continue;
    size_t v = tk.At(k + 1).IsOp("=") ? k + 2 : k + 1;
    if (!tk.IsColId(tk.At(v))) return;
    out->kind = Kind::kDatabaseTablespace;
    out->database = tk.At(2).value;
    out->tablespace = tk.At(v).value;
    return;
  }
}

// [pg_catalog.]set_config('name', 'value', is_local) with constant
// arguments, anywhere in the statement: a session setting.
void SetConfigCall(const Tokens& tk, SqlStatement* out) {
  for (size_t k = 0; k + 7 < tk.t.size(); ++k) {
    if (!tk.At(k).Is("set_config") || !tk.At(k + 1).IsOp("(")) continue;
    const SqlToken &name = tk.At(k + 2), &value = tk.At(k + 4), &local = tk.At(k + 6);
    if (name.kind != SqlTokenKind::kString || !tk.At(k + 3).IsOp(",") || value.kind != SqlTokenKind::kString ||
        !tk.At(k + 5).IsOp(",") || !tk.At(k + 7).IsOp(")"))
      continue;
    bool is_local = local.Is("true") || (local.kind == SqlTokenKind::kString && (local.value == "t" || local.value == "true"));
    if (!is_local && !local.Is("false") && local.kind != SqlTokenKind::kString) continue;
    out->kind = Kind::kSession;
    out->action = Action::kSet;
    out->local = is_local;
    out->set_config = true;
    out->name = name.value;
    out->name_range = name.range;
    out->values.push_back({SqlValue::Kind::kString, value.value, value.range});
    out->value_range = value.range;
    return;
  }
}

}  // namespace

void ClassifyOtherStatement(const std::vector<SqlToken>& tokens, const SqlFacts& facts, SqlStatement* out) {
  const Tokens tk{tokens, facts};
  out->kind = Kind::kOther;
  out->action = Action::kNone;
  out->error.clear();
  const SqlToken& first = tk.At(0);
  if (first.Is("begin") || (first.Is("start") && tk.At(1).Is("transaction"))) out->kind = Kind::kBegin;
  if (first.Is("commit") || first.Is("end")) {
    bool prepared = tk.At(1).Is("prepared");
    if (!prepared) out->kind = Kind::kEndTransaction;
    out->commit = true;
  }
  if ((first.Is("rollback") || first.Is("abort")) && !tk.At(1).Is("to") && !tk.At(1).Is("prepared") &&
      !(tk.At(1).Is("work") && tk.At(2).Is("to")) && !(tk.At(1).Is("transaction") && tk.At(2).Is("to")))
    out->kind = Kind::kEndTransaction;
  if (first.Is("prepare") && tk.At(1).Is("transaction")) out->kind = Kind::kEndTransaction;
  if (first.Is("load") && tk.At(1).kind == SqlTokenKind::kString && tokens.size() == 2) {
    out->kind = Kind::kLoad;
    out->name = tk.At(1).value;
    out->name_range = tk.At(1).range;
  }
  if (out->kind == Kind::kOther) SetConfigCall(tk, out);
  if (out->kind == Kind::kOther && first.Is("create") && tk.At(1).Is("database")) CreateDatabase(tk, out);
  // The statement fails on its first lexer error, whatever it is.
  for (const SqlToken& t : tokens)
    if (t.kind == SqlTokenKind::kError) {
      out->error = t.value;
      out->error_range = t.range;
      break;
    }
}

}  // namespace pgconflint
