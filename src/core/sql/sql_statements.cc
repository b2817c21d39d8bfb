// The configuration statements of gram.y, read token by token. The first
// error wins, as in the server, whose parser pulls tokens one at a time: a
// lexer error after a grammar error is never reached.
#include "core/sql/sql_statements.h"

#include "core/sql/sql_other_statements.h"

namespace pgconflint {
namespace {

using Kind = SqlStatement::Kind;
using Action = SqlStatement::Action;

class Parser {
 public:
  Parser(std::string_view text, const SqlStatementTokens& st, const SqlFacts& facts)
      : text_(text), st_(st), t_(st.tokens), facts_(facts) {}

  SqlStatement Parse() {
    out_.range = st_.range;
    const size_t n = t_.size();
    if (n >= 2 && At(0).Is("alter") && At(1).Is("system")) {
      AlterSystem();
    } else if (n >= 2 && At(0).Is("alter") && At(1).Is("database")) {
      AlterDatabase();
    } else if (n >= 2 && At(0).Is("alter") && (At(1).Is("role") || At(1).Is("user"))) {
      AlterRole();
    } else if (n >= 2 && At(0).Is("alter") && At(1).Is("tablespace")) {
      AlterTablespace();
    } else if (n >= 2 && At(0).Is("alter") && At(1).Is("table")) {
      AlterTable();
    } else if (n >= 2 && At(0).Is("create") && At(1).Is("tablespace")) {
      CreateTablespace();
    } else if (At(0).Is("set") || At(0).Is("reset")) {
      Session();
    } else {
      Other();
    }
    return std::move(out_);
  }

 private:
  // --- Tokens ---------------------------------------------------------------

  const SqlToken& At(size_t k) const {
    static const SqlToken kEnd{SqlTokenKind::kOperator, {}, ""};
    return k < t_.size() ? t_[k] : kEnd;
  }
  bool AtEnd() const { return i_ >= t_.size(); }
  const SqlToken& Cur() const { return At(i_); }

  // The server's complaint about the current token (or the end of input);
  // false, so that callers can `return Fail()`. A lexer error token reports
  // itself. The first error wins.
  bool Fail() {
    if (!out_.error.empty()) return false;
    if (!AtEnd() && Cur().kind == SqlTokenKind::kError) {
      out_.error = Cur().value;
      out_.error_range = Cur().range;
    } else if (!AtEnd()) {
      out_.error = facts_.Message("syntax", {{"token", std::string(Slice(Cur().range))}});
      out_.error_range = Cur().range;
    } else if (st_.terminated) {
      out_.error = facts_.Message("syntax", {{"token", ";"}});
      out_.error_range = st_.semicolon;
    } else {
      out_.error = facts_.Message("syntax_end");
      out_.error_range = {st_.range.end, st_.range.end};
    }
    return false;
  }

  std::string_view Slice(Range r) const { return text_.substr(r.begin, r.end - r.begin); }

  bool Word(std::string_view w) {
    if (Cur().Is(w)) {
      ++i_;
      return true;
    }
    return false;
  }
  bool Expect(std::string_view w) { return Word(w) || Fail(); }
  bool Op(std::string_view op) {
    if (!AtEnd() && Cur().IsOp(op)) {
      ++i_;
      return true;
    }
    return false;
  }
  bool ExpectOp(std::string_view op) { return Op(op) || Fail(); }
  bool Done() { return AtEnd() || Fail(); }

  KeywordCategory Category(const SqlToken& t) const {
    return t.kind == SqlTokenKind::kIdentifier ? facts_.Keyword(t.value) : KeywordCategory::kNone;
  }
  bool IsIdent(const SqlToken& t) const {
    return (t.kind == SqlTokenKind::kIdentifier && Category(t) == KeywordCategory::kNone) ||
           t.kind == SqlTokenKind::kQuotedIdentifier;
  }
  // ColId: IDENT | unreserved_keyword | col_name_keyword.
  bool IsColId(const SqlToken& t) const {
    KeywordCategory c = Category(t);
    return IsIdent(t) || c == KeywordCategory::kUnreserved || c == KeywordCategory::kColName;
  }
  // NonReservedWord: ColId | type_func_name_keyword.
  bool IsNonReservedWord(const SqlToken& t) const {
    return IsColId(t) || Category(t) == KeywordCategory::kTypeFuncName;
  }
  // ColLabel: any identifier or keyword.
  bool IsColLabel(const SqlToken& t) const {
    return t.kind == SqlTokenKind::kIdentifier || t.kind == SqlTokenKind::kQuotedIdentifier;
  }

  bool ColId(std::string* out, Range* where) {
    if (AtEnd() || !IsColId(Cur())) return Fail();
    *out = Cur().value;
    if (where) *where = Cur().range;
    ++i_;
    return true;
  }

  // --- Statements -----------------------------------------------------------

  void AlterSystem() {
    out_.kind = Kind::kAlterSystem;
    i_ = 2;
    if (Word("set")) {
      GenericSet() && Done();
    } else if (Word("reset")) {
      GenericReset() && Done();
    } else {
      Fail();
    }
  }

  void AlterDatabase() {
    i_ = 2;
    std::string name;
    if (!ColId(&name, nullptr)) return;
    if (Cur().Is("set") && At(i_ + 1).Is("tablespace") && IsColId(At(i_ + 2)) && i_ + 3 == t_.size()) {
      out_.kind = Kind::kDatabaseTablespace;
      out_.database = name;
      out_.tablespace = At(i_ + 2).value;
      return;
    }
    // RENAME, OWNER, WITH ...: not about parameters.
    if ((!Cur().Is("set") && !Cur().Is("reset")) || At(i_ + 1).Is("tablespace")) return Other();
    out_.kind = Kind::kAlterDatabase;
    out_.database = name;
    SetResetClause() && Done();
  }

  void AlterRole() {
    i_ = 2;
    if (Word("all")) {
      out_.role = "";
    } else if (!AtEnd() && (IsNonReservedWord(Cur()) || Cur().Is("current_user") || Cur().Is("session_user") ||
                            Cur().Is("current_role"))) {
      out_.role = Cur().value;
      ++i_;
    } else {
      return Other();
    }
    if (Word("in")) {
      if (!Expect("database") || !ColId(&out_.database, nullptr)) {
        out_.kind = Kind::kAlterRole;
        return;
      }
    }
    if (!Cur().Is("set") && !Cur().Is("reset")) return Other();  // WITH options, RENAME ...
    out_.kind = Kind::kAlterRole;
    SetResetClause() && Done();
  }

  void Session() {
    out_.kind = Kind::kSession;
    i_ = 0;
    if (Word("reset")) {
      if (Word("time")) {
        if (!Expect("zone")) return;
        out_.action = Action::kReset;
        out_.name = "timezone";
        return void(Done());
      }
      GenericReset() && Done();
      return;
    }
    ++i_;  // SET
    if (Cur().Is("session") && (At(i_ + 1).Is("authorization") || At(i_ + 1).Is("characteristics"))) return Other();
    if (Word("local")) out_.local = true;
    else Word("session");
    // Statements spelled SET that set no parameter by name.
    for (const char* w : {"transaction", "role", "constraints", "session", "xml", "catalog"})
      if (Cur().Is(w)) return Other();
    SetRestMore() && Done();
  }

  // SET set_rest | RESET reset_rest, for ALTER DATABASE and ALTER ROLE.
  bool SetResetClause() {
    if (Word("reset")) return GenericReset();
    ++i_;
    return SetRestMore();
  }

  // set_rest_more: generic_set | var_name FROM CURRENT | TIME ZONE v |
  // SCHEMA 'x' | NAMES 'x' (the forms that name a parameter).
  bool SetRestMore() {
    if (Cur().Is("time") && At(i_ + 1).Is("zone")) return Special("timezone", 2);
    if (Cur().Is("schema") && At(i_ + 1).kind == SqlTokenKind::kString) return Special("search_path", 1);
    if (Cur().Is("names")) return Special("client_encoding", 1);
    size_t start = i_;
    if (!VarName()) return false;
    if (Word("from")) {
      if (!Expect("current")) return false;
      out_.action = Action::kFromCurrent;
      return true;
    }
    i_ = start;
    return GenericSet();
  }

  // TIME ZONE value / SCHEMA 'x' / NAMES 'x': one value, or DEFAULT/LOCAL.
  bool Special(const char* name, size_t words) {
    out_.name = name;
    out_.name_range = {At(i_).range.begin, At(i_ + words - 1).range.end};
    i_ += words;
    out_.action = Action::kSet;
    if (Word("default") || Word("local")) {
      out_.action = Action::kReset;
      return true;
    }
    if (AtEnd()) return true;  // SET NAMES with no value
    return VarValue();
  }

  bool VarName() {
    Range r;
    std::string name;
    if (!ColId(&name, &r)) return false;
    while (Op(".")) {
      std::string part;
      Range pr;
      if (!ColId(&part, &pr)) return false;
      name += "." + part;
      r.end = pr.end;
    }
    out_.name = std::move(name);
    out_.name_range = r;
    return true;
  }

  // generic_set: var_name {TO | =} var_list | DEFAULT.
  bool GenericSet() {
    if (!VarName()) return false;
    if (!Word("to") && !Op("=")) return Fail();
    out_.action = Action::kSet;
    if (Word("default")) {
      out_.action = Action::kReset;
      return true;
    }
    if (!VarValue()) return false;
    while (Op(","))
      if (!VarValue()) return false;
    return true;
  }

  // generic_reset: var_name | ALL.
  bool GenericReset() {
    if (Word("all")) {
      out_.action = Action::kResetAll;
      return true;
    }
    out_.action = Action::kReset;
    return VarName();
  }

  // var_value: TRUE | FALSE | ON | NonReservedWord | Sconst | NumericOnly.
  bool VarValue() {
    if (AtEnd()) return Fail();
    const SqlToken& t = Cur();
    SqlValue v;
    v.range = t.range;
    if (t.Is("true") || t.Is("false") || t.Is("on") || IsNonReservedWord(t)) {
      v.kind = SqlValue::Kind::kWord;
      v.text = t.value;
    } else if (t.kind == SqlTokenKind::kString) {
      v.kind = SqlValue::Kind::kString;
      v.text = t.value;
    } else if (!NumericOnly(&v)) {
      return Fail();
    }
    if (out_.values.empty()) out_.value_range.begin = v.range.begin;
    out_.value_range.end = v.range.end;
    if (v.kind != SqlValue::Kind::kInteger && v.kind != SqlValue::Kind::kNumeric) ++i_;
    out_.values.push_back(std::move(v));
    return true;
  }

  // NumericOnly: [+|-] FCONST | [+|-] ICONST. Consumes the tokens.
  bool NumericOnly(SqlValue* v) {
    std::string sign;
    size_t k = i_;
    if (At(k).IsOp("+") || At(k).IsOp("-")) sign = At(k++).value;
    const SqlToken& num = At(k);
    if (k >= t_.size() || (num.kind != SqlTokenKind::kInteger && num.kind != SqlTokenKind::kNumeric)) {
      i_ = k;
      return false;
    }
    v->kind = num.kind == SqlTokenKind::kInteger ? SqlValue::Kind::kInteger : SqlValue::Kind::kNumeric;
    v->text = (sign == "-" ? "-" : "") + num.value;
    if (v->kind == SqlValue::Kind::kInteger && v->text == "-0") v->text = "0";
    v->range = {At(i_).range.begin, num.range.end};
    i_ = k + 1;
    return true;
  }

  // --- Tablespaces --------------------------------------------------------------

  void AlterTablespace() {
    i_ = 2;
    if (!ColId(&out_.tablespace, nullptr)) return;
    if (!Cur().Is("set") && !Cur().Is("reset")) return Other();  // RENAME, OWNER
    out_.kind = Kind::kAlterTablespace;
    out_.action = Cur().Is("set") ? Action::kSet : Action::kReset;
    ++i_;
    RelOptions() && Done();
  }

  // ALTER TABLE [IF EXISTS] [ONLY] name [*] SET (...) | RESET (...) as the
  // statement's one subcommand: the table's storage parameters. Any other
  // ALTER TABLE (another subcommand, or more than one) is kOther: its
  // grammar is not checked here.
  void AlterTable() {
    size_t k = 2;
    if (At(k).Is("if") && At(k + 1).Is("exists")) k += 2;
    if (At(k).Is("only")) ++k;
    if (k >= t_.size() || !IsColId(At(k))) return Other();
    std::string table = At(k++).value;
    while (At(k).IsOp(".") && k + 1 < t_.size() && IsColLabel(At(k + 1))) {
      table += "." + At(k + 1).value;
      k += 2;
    }
    if (At(k).IsOp("*")) ++k;
    if (!(At(k).Is("set") || At(k).Is("reset")) || !At(k + 1).IsOp("(")) return Other();
    const SqlStatement before = out_;
    out_.kind = Kind::kAlterTable;
    out_.action = At(k).Is("set") ? Action::kSet : Action::kReset;
    out_.table = std::move(table);
    i_ = k + 1;
    if (RelOptions() && AtEnd()) return;
    out_ = before;  // more subcommands, or options this reading does not take
    Other();
  }

  void CreateTablespace() {
    out_.kind = Kind::kCreateTablespace;
    out_.action = Action::kSet;
    i_ = 2;
    if (!ColId(&out_.tablespace, nullptr)) return;
    if (Word("owner")) {
      if (AtEnd() || !(IsNonReservedWord(Cur()) || Cur().Is("current_user") || Cur().Is("session_user") ||
                       Cur().Is("current_role")))
        return void(Fail());
      ++i_;
    }
    if (!Expect("location")) return;
    if (AtEnd() || Cur().kind != SqlTokenKind::kString) return void(Fail());
    ++i_;
    if (Word("with") && !RelOptions()) return;
    Done();
  }

  // '(' reloption_elem [, ...] ')'; elem: ColLabel [. ColLabel] [= def_arg].
  bool RelOptions() {
    if (!ExpectOp("(")) return false;
    do {
      if (AtEnd() || !IsColLabel(Cur())) return Fail();
      SqlOption o;
      o.name = Cur().value;
      o.name_range = o.range = Cur().range;
      ++i_;
      if (Op(".")) {
        if (AtEnd() || !IsColLabel(Cur())) return Fail();
        o.name += "." + Cur().value;
        o.name_range.end = o.range.end = Cur().range.end;
        ++i_;
      }
      if (Op("=")) {
        if (!DefArg(&o)) return false;
        o.range.end = o.value_range.end;
      } else {
        o.value = "true";
      }
      out_.options.push_back(std::move(o));
    } while (Op(","));
    return ExpectOp(")");
  }

  // def_arg: a word, a keyword, NumericOnly or a string.
  bool DefArg(SqlOption* o) {
    if (AtEnd()) return Fail();
    SqlValue v;
    if (Cur().kind == SqlTokenKind::kString || Cur().kind == SqlTokenKind::kIdentifier ||
        Cur().kind == SqlTokenKind::kQuotedIdentifier) {
      v.text = Cur().value;
      v.range = Cur().range;
      ++i_;
    } else if (!NumericOnly(&v)) {
      return Fail();
    }
    o->has_value = true;
    o->value = v.text;
    o->value_range = v.range;
    return true;
  }

  // --- Everything else ------------------------------------------------------------

  // A statement the grammar rejects at its first token (a pasted URL, a
  // psql prompt, prose) fails there, before any later lexer error: only a
  // keyword or "(" starts one.
  void Other() {
    ClassifyOtherStatement(t_, facts_, &out_);
    if (out_.kind != Kind::kOther || t_.empty()) return;
    const SqlToken& first = t_[0];
    if (first.kind == SqlTokenKind::kError) return;
    bool starts = (first.kind == SqlTokenKind::kIdentifier && Category(first) != KeywordCategory::kNone) ||
                  first.IsOp("(");
    if (starts) return;
    out_.error.clear();
    i_ = 0;
    Fail();
  }

  std::string_view text_;
  const SqlStatementTokens& st_;
  const std::vector<SqlToken>& t_;
  const SqlFacts& facts_;
  size_t i_ = 0;
  SqlStatement out_;
};

}  // namespace

SqlStatement ParseSqlStatement(std::string_view text, const SqlStatementTokens& statement, const SqlFacts& facts) {
  return Parser(text, statement, facts).Parse();
}

std::vector<SqlStatement> ParseSqlStatements(std::string_view text, const std::vector<SqlStatementTokens>& statements,
                                             const SqlFacts& facts) {
  std::vector<SqlStatement> out;
  out.reserve(statements.size());
  for (const SqlStatementTokens& st : statements) out.push_back(ParseSqlStatement(text, st, facts));
  return out;
}

}  // namespace pgconflint
