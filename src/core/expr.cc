// A recursive-descent parser and tree evaluator for the rule condition language.
#include "core/expr.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <strings.h>

namespace pgconflint {

bool ParseQuantity(std::string_view text, ExprValue* out) {
  Quantity q;
  std::string error;
  if (!ParseQuantity(text, &q, &error)) return false;
  *out = ExprValue::Number(q.value, q.dim);
  return true;
}

std::string ExprValue::Display() const {
  switch (kind) {
    case Kind::kNull: return "unknown";
    case Kind::kBool: return boolean ? "on" : "off";
    case Kind::kString: return string;
    case Kind::kNumber: break;
  }
  return FormatHuman(number, dim);
}

class Expr {
 public:
  enum class Op {
    kLiteral, kIdent, kCall, kNeg, kNot, kAnd, kOr, kAdd, kSub, kMul, kDiv,
    kLt, kLe, kGt, kGe, kEq, kNe, kIn, kNotIn,
  };
  Op op;
  ExprValue literal;
  std::string name;
  std::vector<std::unique_ptr<Expr>> args;

  ExprValue Eval(const ExprEnv& env) const;
};

namespace {

bool NumbersComparable(const ExprValue& a, const ExprValue& b) {
  return a.kind == ExprValue::Kind::kNumber && b.kind == ExprValue::Kind::kNumber;
}

int Compare(const ExprValue& a, const ExprValue& b, bool* ok) {
  *ok = true;
  if (NumbersComparable(a, b)) return a.number < b.number ? -1 : a.number > b.number ? 1 : 0;
  if (a.kind == ExprValue::Kind::kBool && b.kind == ExprValue::Kind::kBool)
    return static_cast<int>(a.boolean) - static_cast<int>(b.boolean);
  // Strings compare case-insensitively: enum values are case-insensitive.
  auto str = [](const ExprValue& v) {
    if (v.kind == ExprValue::Kind::kString) return v.string;
    if (v.kind == ExprValue::Kind::kBool) return std::string(v.boolean ? "on" : "off");
    return v.Display();
  };
  if (a.kind == ExprValue::Kind::kString || b.kind == ExprValue::Kind::kString) {
    std::string x = str(a), y = str(b);
    int c = strcasecmp(x.c_str(), y.c_str());
    return c < 0 ? -1 : c > 0 ? 1 : 0;
  }
  *ok = false;
  return 0;
}

// Arithmetic keeps the dimension of the dimensioned operand.
Dim Combine(Dim a, Dim b) { return a != Dim::kNone ? a : b; }

}  // namespace

ExprValue Expr::Eval(const ExprEnv& env) const {
  using K = ExprValue::Kind;
  switch (op) {
    case Op::kLiteral: return literal;
    case Op::kIdent: {
      bool known = true;
      return env.Lookup(name, &known);
    }
    case Op::kCall: {
      if (name == "is_set" && args.size() == 1 && args[0]->op == Op::kIdent)
        return ExprValue::Bool(env.IsSet(args[0]->name));
      if (name == "if" && args.size() == 3) {
        ExprValue c = args[0]->Eval(env);
        if (c.kind != K::kBool) return ExprValue::Null();
        return args[c.boolean ? 1 : 2]->Eval(env);
      }
      std::vector<ExprValue> v;
      for (const auto& a : args) v.push_back(a->Eval(env));
      if (name == "known") return ExprValue::Bool(!v.empty() && !v[0].is_null());
      if (name == "is_true" && v.size() == 1) return ExprValue::Bool(v[0].is_true());
      if (name == "is_false" && v.size() == 1) return ExprValue::Bool(v[0].kind == K::kBool && !v[0].boolean);
      if (name == "coalesce") {
        for (const auto& x : v)
          if (!x.is_null()) return x;
        return ExprValue::Null();
      }
      if (name == "has_item" && v.size() == 2) {
        // A comma-separated list (listen_addresses, log_destination...) has
        // the item, compared case-insensitively after trimming blanks.
        if (v[0].kind != K::kString || v[1].kind != K::kString) return ExprValue::Null();
        const std::string& list = v[0].string;
        size_t start = 0;
        while (start <= list.size()) {
          size_t comma = list.find(',', start);
          std::string item = list.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
          item.erase(0, item.find_first_not_of(" \t"));
          item.erase(item.find_last_not_of(" \t") + 1);
          if (strcasecmp(item.c_str(), v[1].string.c_str()) == 0) return ExprValue::Bool(true);
          if (comma == std::string::npos) break;
          start = comma + 1;
        }
        return ExprValue::Bool(false);
      }
      if (name == "contains" && v.size() == 2) {
        if (v[0].kind != K::kString || v[1].kind != K::kString) return ExprValue::Null();
        return ExprValue::Bool(v[0].string.find(v[1].string) != std::string::npos);
      }
      for (const auto& x : v)
        if (x.kind != K::kNumber) return ExprValue::Null();
      if ((name == "min" || name == "max") && !v.empty()) {
        ExprValue r = v[0];
        for (const auto& x : v) {
          if (name == "min" ? x.number < r.number : x.number > r.number) r.number = x.number;
          r.dim = Combine(r.dim, x.dim);
        }
        return r;
      }
      if (name == "abs" && v.size() == 1) return ExprValue::Number(std::fabs(v[0].number), v[0].dim);
      if (name == "floor" && v.size() == 1) return ExprValue::Number(std::floor(v[0].number), v[0].dim);
      return ExprValue::Null();
    }
    case Op::kNeg: {
      ExprValue v = args[0]->Eval(env);
      if (v.kind != K::kNumber) return ExprValue::Null();
      v.number = -v.number;
      return v;
    }
    case Op::kNot: {
      ExprValue v = args[0]->Eval(env);
      if (v.kind != K::kBool) return ExprValue::Null();
      return ExprValue::Bool(!v.boolean);
    }
    case Op::kAnd: {
      ExprValue a = args[0]->Eval(env);
      if (a.kind == K::kBool && !a.boolean) return ExprValue::Bool(false);
      ExprValue b = args[1]->Eval(env);
      if (b.kind == K::kBool && !b.boolean) return ExprValue::Bool(false);
      if (a.kind != K::kBool || b.kind != K::kBool) return ExprValue::Null();
      return ExprValue::Bool(true);
    }
    case Op::kOr: {
      ExprValue a = args[0]->Eval(env);
      if (a.is_true()) return ExprValue::Bool(true);
      ExprValue b = args[1]->Eval(env);
      if (b.is_true()) return ExprValue::Bool(true);
      if (a.kind != K::kBool || b.kind != K::kBool) return ExprValue::Null();
      return ExprValue::Bool(false);
    }
    case Op::kAdd: case Op::kSub: case Op::kMul: case Op::kDiv: {
      ExprValue a = args[0]->Eval(env), b = args[1]->Eval(env);
      // '+' with a string concatenates displays (for message templates).
      if (op == Op::kAdd && (a.kind == K::kString || b.kind == K::kString) && !a.is_null() && !b.is_null())
        return ExprValue::String(a.Display() + b.Display());
      if (a.kind != K::kNumber || b.kind != K::kNumber) return ExprValue::Null();
      double r = 0;
      Dim d = Combine(a.dim, b.dim);
      switch (op) {
        case Op::kAdd: r = a.number + b.number; break;
        case Op::kSub: r = a.number - b.number; break;
        case Op::kMul: r = a.number * b.number; break;
        default:
          if (b.number == 0) return ExprValue::Null();
          r = a.number / b.number;
          if (a.dim == b.dim) d = Dim::kNone;  // a ratio
          break;
      }
      return ExprValue::Number(r, d);
    }
    case Op::kLt: case Op::kLe: case Op::kGt: case Op::kGe: case Op::kEq: case Op::kNe: {
      ExprValue a = args[0]->Eval(env), b = args[1]->Eval(env);
      if (a.is_null() || b.is_null()) return ExprValue::Null();
      bool ok;
      int c = Compare(a, b, &ok);
      if (!ok) return ExprValue::Null();
      switch (op) {
        case Op::kLt: return ExprValue::Bool(c < 0);
        case Op::kLe: return ExprValue::Bool(c <= 0);
        case Op::kGt: return ExprValue::Bool(c > 0);
        case Op::kGe: return ExprValue::Bool(c >= 0);
        case Op::kEq: return ExprValue::Bool(c == 0);
        default: return ExprValue::Bool(c != 0);
      }
    }
    case Op::kIn: case Op::kNotIn: {
      ExprValue a = args[0]->Eval(env);
      if (a.is_null()) return ExprValue::Null();
      bool found = false;
      for (size_t i = 1; i < args.size(); ++i) {
        bool ok;
        ExprValue b = args[i]->Eval(env);
        if (!b.is_null() && Compare(a, b, &ok) == 0 && ok) found = true;
      }
      return ExprValue::Bool(op == Op::kIn ? found : !found);
    }
  }
  return ExprValue::Null();
}

namespace {

class Parser {
 public:
  Parser(std::string_view s, std::vector<std::string>* idents) : s_(s), idents_(idents) {}

  std::unique_ptr<Expr> ParseAll(std::string* error) {
    auto e = Or();
    Skip();
    if (!error_.empty() || pos_ != s_.size()) {
      *error = error_.empty() ? "unexpected '" + std::string(s_.substr(pos_, 1)) + "'" : error_;
      *error += " at column " + std::to_string(err_pos_ ? err_pos_ : pos_ + 1);
      return nullptr;
    }
    return e;
  }

 private:
  using Op = Expr::Op;

  void Skip() {
    while (pos_ < s_.size() && isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }
  bool Word(const char* w) {
    Skip();
    size_t n = strlen(w);
    if (s_.substr(pos_, n) != w) return false;
    if (pos_ + n < s_.size() && (isalnum(static_cast<unsigned char>(s_[pos_ + n])) || s_[pos_ + n] == '_'))
      return false;
    pos_ += n;
    return true;
  }
  bool Sym(const char* w) {
    Skip();
    size_t n = strlen(w);
    if (s_.substr(pos_, n) != w) return false;
    pos_ += n;
    return true;
  }
  void Fail(const std::string& m) {
    if (error_.empty()) {
      error_ = m;
      err_pos_ = pos_ + 1;
    }
  }
  static std::unique_ptr<Expr> Make(Op op, std::unique_ptr<Expr> a, std::unique_ptr<Expr> b = nullptr) {
    auto e = std::make_unique<Expr>();
    e->op = op;
    e->args.push_back(std::move(a));
    if (b) e->args.push_back(std::move(b));
    return e;
  }

  std::unique_ptr<Expr> Or() {
    auto l = And();
    while (Word("or")) l = Make(Op::kOr, std::move(l), And());
    return l;
  }
  std::unique_ptr<Expr> And() {
    auto l = Not();
    while (Word("and")) l = Make(Op::kAnd, std::move(l), Not());
    return l;
  }
  std::unique_ptr<Expr> Not() {
    if (Word("not")) return Make(Op::kNot, Not());
    return Cmp();
  }
  std::unique_ptr<Expr> Cmp() {
    auto l = Sum();
    static const std::pair<const char*, Op> ops[] = {{"<=", Op::kLe}, {">=", Op::kGe}, {"==", Op::kEq},
                                                     {"!=", Op::kNe}, {"<", Op::kLt},  {">", Op::kGt}};
    for (const auto& [sym, op] : ops)
      if (Sym(sym)) return Make(op, std::move(l), Sum());
    size_t save = pos_;
    bool negate = Word("not");
    if (Word("in")) {
      auto e = Make(negate ? Op::kNotIn : Op::kIn, std::move(l));
      if (!Sym("[")) {
        Fail("expected '[' after 'in'");
        return e;
      }
      if (!Sym("]")) {
        do e->args.push_back(Sum());
        while (Sym(","));
        if (!Sym("]")) Fail("expected ']'");
      }
      return e;
    }
    pos_ = save;
    return l;
  }
  std::unique_ptr<Expr> Sum() {
    auto l = Prod();
    for (;;) {
      if (Sym("+")) l = Make(Op::kAdd, std::move(l), Prod());
      else if (Sym("-")) l = Make(Op::kSub, std::move(l), Prod());
      else return l;
    }
  }
  std::unique_ptr<Expr> Prod() {
    auto l = Unary();
    for (;;) {
      if (Sym("*")) l = Make(Op::kMul, std::move(l), Unary());
      else if (Sym("/")) l = Make(Op::kDiv, std::move(l), Unary());
      else return l;
    }
  }
  std::unique_ptr<Expr> Unary() {
    if (Sym("-")) return Make(Op::kNeg, Unary());
    return Primary();
  }
  std::unique_ptr<Expr> Primary() {
    Skip();
    auto e = std::make_unique<Expr>();
    e->op = Op::kLiteral;
    if (pos_ >= s_.size()) {
      Fail("unexpected end of expression");
      return e;
    }
    char c = s_[pos_];
    if (c == '(') {
      ++pos_;
      auto inner = Or();
      if (!Sym(")")) Fail("expected ')'");
      return inner;
    }
    if (c == '\'') {
      size_t end = s_.find('\'', pos_ + 1);
      if (end == std::string_view::npos) {
        Fail("unterminated string");
        pos_ = s_.size();
        return e;
      }
      std::string body(s_.substr(pos_ + 1, end - pos_ - 1));
      pos_ = end + 1;
      // A quoted quantity ('128kB') is a number with a dimension.
      ExprValue q;
      e->literal = ParseQuantity(body, &q) && !body.empty() && (isdigit(static_cast<unsigned char>(body[0])) || body[0] == '.')
                       ? q
                       : ExprValue::String(body);
      return e;
    }
    if (isdigit(static_cast<unsigned char>(c)) || c == '.') {
      size_t b = pos_;
      while (pos_ < s_.size() && (isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '.')) ++pos_;
      if (!ParseQuantity(s_.substr(b, pos_ - b), &e->literal)) {
        pos_ = b;
        Fail("bad number '" + std::string(s_.substr(b, pos_ - b)) + "'");
      }
      return e;
    }
    if (isalpha(static_cast<unsigned char>(c)) || c == '_') {
      size_t b = pos_;
      while (pos_ < s_.size() && (isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_' || s_[pos_] == '.'))
        ++pos_;
      std::string name(s_.substr(b, pos_ - b));
      if (name == "true" || name == "false") {
        e->literal = ExprValue::Bool(name == "true");
        return e;
      }
      if (name == "null") return e;
      if (Sym("(")) {
        e->op = Op::kCall;
        e->name = name;
        if (!Sym(")")) {
          do e->args.push_back(Or());
          while (Sym(","));
          if (!Sym(")")) Fail("expected ')'");
        }
        return e;
      }
      e->op = Op::kIdent;
      e->name = name;
      idents_->push_back(name);
      return e;
    }
    Fail(std::string("unexpected '") + c + "'");
    return e;
  }

  std::string_view s_;
  size_t pos_ = 0;
  std::string error_;
  size_t err_pos_ = 0;
  std::vector<std::string>* idents_;
};

}  // namespace

CompiledExpr::~CompiledExpr() = default;

std::shared_ptr<const CompiledExpr> CompiledExpr::Parse(std::string_view text, std::string* error) {
  std::shared_ptr<CompiledExpr> c(new CompiledExpr());
  c->text_ = std::string(text);
  Parser p(text, &c->identifiers_);
  c->root_ = p.ParseAll(error);
  if (!c->root_) return nullptr;
  return c;
}

ExprValue CompiledExpr::Eval(const ExprEnv& env) const { return root_->Eval(env); }

std::string ExpandTemplate(std::string_view tmpl, const ExprEnv& env) {
  std::string out;
  size_t i = 0;
  while (i < tmpl.size()) {
    size_t open = tmpl.find('{', i);
    if (open == std::string_view::npos) break;
    size_t close = tmpl.find('}', open);
    if (close == std::string_view::npos) break;
    out.append(tmpl.substr(i, open - i));
    std::string error;
    auto e = CompiledExpr::Parse(tmpl.substr(open + 1, close - open - 1), &error);
    if (e) out += e->Eval(env).Display();
    else out.append(tmpl.substr(open, close - open + 1));
    i = close + 1;
  }
  out.append(tmpl.substr(i));
  return out;
}

}  // namespace pgconflint
