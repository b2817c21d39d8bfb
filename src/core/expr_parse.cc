// The condition language's recursive-descent parser. Nesting is limited to
// kMaxExprDepth levels, so that no input can exhaust the stack; chains are
// parsed in loops into one node each.
#include "core/expr_tree.h"

#include <cctype>
#include <string>

#include "core/spelling.h"

namespace pgconflint {
namespace {

std::string ArityError(const FunctionDef& f, size_t n) {
  auto count = [](int k) { return std::to_string(k) + (k == 1 ? " argument" : " arguments"); };
  std::string expected = f.min_args == f.max_args ? count(f.min_args)
                         : f.max_args < 0         ? "at least " + count(f.min_args)
                                                  : count(f.min_args) + " to " + std::to_string(f.max_args);
  return std::string(f.name) + " takes " + expected + ", not " + std::to_string(n);
}

// --- Parsing -----------------------------------------------------------------

bool IsNameChar(char c) { return isalnum(static_cast<unsigned char>(c)) || c == '_'; }

class Parser {
 public:
  Parser(std::string_view s, std::vector<std::string>* idents, const IdentifierCheck& check)
      : s_(s), idents_(idents), check_(check) {}

  // The tree of the whole text; null with *message and *column (1-based) on error.
  std::unique_ptr<Expr> ParseAll(std::string* message, size_t* column) {
    auto e = Or();
    Skip();
    if (ok() && pos_ != s_.size()) Fail("unexpected '" + std::string(s_.substr(pos_, 1)) + "'");
    if (ok()) return e;
    *message = error_;
    *column = err_pos_;
    return nullptr;
  }

 private:
  using Op = Expr::Op;
  using Rule = std::unique_ptr<Expr> (Parser::*)();

  // One nesting level while alive; past kMaxExprDepth the parse fails, and
  // every rule returns at once, so the stack never grows further.
  class Level {
   public:
    explicit Level(Parser* p) : p_(p) {
      if (++p_->depth_ > kMaxExprDepth)
        p_->Fail("expression nested deeper than " + std::to_string(kMaxExprDepth) + " levels");
    }
    ~Level() { --p_->depth_; }
    Level(const Level&) = delete;
    Level& operator=(const Level&) = delete;

   private:
    Parser* p_;
  };

  bool ok() const { return error_.empty(); }
  void Skip() {
    while (pos_ < s_.size() && isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }
  bool Word(std::string_view w) {
    Skip();
    if (s_.substr(pos_, w.size()) != w) return false;
    if (pos_ + w.size() < s_.size() && IsNameChar(s_[pos_ + w.size()])) return false;
    pos_ += w.size();
    return true;
  }
  bool Sym(std::string_view w) {
    Skip();
    if (s_.substr(pos_, w.size()) != w) return false;
    pos_ += w.size();
    return true;
  }
  void FailAt(size_t at, const std::string& m) {
    if (ok()) {
      error_ = m;
      err_pos_ = at + 1;
    }
  }
  void Fail(const std::string& m) { FailAt(pos_, m); }
  static std::unique_ptr<Expr> Node(Op op) {
    auto e = std::make_unique<Expr>();
    e->op = op;
    return e;
  }
  static std::unique_ptr<Expr> Wrap(Op op, std::unique_ptr<Expr> a, std::unique_ptr<Expr> b = nullptr) {
    auto e = Node(op);
    e->args.push_back(std::move(a));
    if (b) e->args.push_back(std::move(b));
    return e;
  }

  std::unique_ptr<Expr> Or() {
    Level level(this);
    if (!ok()) return Node(Op::kLiteral);
    return Chain(Op::kOr, "or", &Parser::And);
  }
  std::unique_ptr<Expr> And() { return Chain(Op::kAnd, "and", &Parser::Not); }
  // `a or b or c` is one node with three terms.
  std::unique_ptr<Expr> Chain(Op op, std::string_view word, Rule term) {
    auto first = (this->*term)();
    if (!ok() || !Word(word)) return first;
    auto e = Wrap(op, std::move(first));
    do e->args.push_back((this->*term)());
    while (ok() && Word(word));
    return e;
  }
  std::unique_ptr<Expr> Not() { return Word("not") ? Prefixed(Op::kNot, &Parser::Not) : Cmp(); }
  // A prefix operator (`not`, unary minus) over its operand: one level deeper.
  std::unique_ptr<Expr> Prefixed(Op op, Rule operand) {
    Level level(this);
    if (!ok()) return Node(Op::kLiteral);
    return Wrap(op, (this->*operand)());
  }
  std::unique_ptr<Expr> Cmp() {
    auto l = Sum();
    if (!ok()) return l;
    static const std::pair<const char*, Op> ops[] = {{"<=", Op::kLe}, {">=", Op::kGe}, {"==", Op::kEq},
                                                     {"!=", Op::kNe}, {"<", Op::kLt},  {">", Op::kGt}};
    for (const auto& [sym, op] : ops)
      if (Sym(sym)) return Wrap(op, std::move(l), Sum());
    size_t save = pos_;
    bool negate = Word("not");
    if (Word("in")) return List(negate ? Op::kNotIn : Op::kIn, std::move(l));
    pos_ = save;
    return l;
  }
  std::unique_ptr<Expr> List(Op op, std::unique_ptr<Expr> l) {
    Level level(this);
    auto e = Wrap(op, std::move(l));
    if (!ok()) return e;
    if (!Sym("[")) {
      Fail("expected '[' after 'in'");
      return e;
    }
    if (!Sym("]")) {
      do e->args.push_back(Sum());
      while (ok() && Sym(","));
      if (ok() && !Sym("]")) Fail("expected ']'");
    }
    return e;
  }
  std::unique_ptr<Expr> Sum() { return Arithmetic(Op::kSum, "+", "-", &Parser::Prod); }
  std::unique_ptr<Expr> Prod() { return Arithmetic(Op::kProduct, "*", "/", &Parser::Unary); }
  // `a + b - c` is one node; inverse[i] marks the terms after '-' (or '/').
  std::unique_ptr<Expr> Arithmetic(Op op, std::string_view plain, std::string_view inverse, Rule term) {
    auto first = (this->*term)();
    std::unique_ptr<Expr> e;
    while (ok()) {
      bool inv = false;
      if (!Sym(plain)) {
        if (!Sym(inverse)) break;
        inv = true;
      }
      if (!e) {
        e = Wrap(op, std::move(first));
        e->inverse.push_back(false);
      }
      e->args.push_back((this->*term)());
      e->inverse.push_back(inv);
    }
    return e ? std::move(e) : std::move(first);
  }
  std::unique_ptr<Expr> Unary() { return Sym("-") ? Prefixed(Op::kNeg, &Parser::Unary) : Primary(); }
  std::unique_ptr<Expr> Primary() {
    Skip();
    if (!ok()) return Node(Op::kLiteral);
    if (pos_ >= s_.size()) {
      Fail("unexpected end of expression");
      return Node(Op::kLiteral);
    }
    char c = s_[pos_];
    if (c == '(') {
      ++pos_;
      auto inner = Or();
      if (ok() && !Sym(")")) Fail("expected ')'");
      return inner;
    }
    if (c == '\'') return StringLiteral();
    if (isdigit(static_cast<unsigned char>(c)) || c == '.') return NumberLiteral();
    if (isalpha(static_cast<unsigned char>(c)) || c == '_') return Name();
    Fail(std::string("unexpected '") + c + "'");
    return Node(Op::kLiteral);
  }
  std::unique_ptr<Expr> StringLiteral() {
    auto e = Node(Op::kLiteral);
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
    bool numeric = !body.empty() && (isdigit(static_cast<unsigned char>(body[0])) || body[0] == '.');
    e->literal = numeric && ParseQuantity(body, &q) ? q : ExprValue::String(body);
    return e;
  }
  std::unique_ptr<Expr> NumberLiteral() {
    auto e = Node(Op::kLiteral);
    size_t b = pos_;
    while (pos_ < s_.size() && (isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '.')) ++pos_;
    if (!ParseQuantity(s_.substr(b, pos_ - b), &e->literal))
      FailAt(b, "bad number '" + std::string(s_.substr(b, pos_ - b)) + "'");
    return e;
  }
  std::unique_ptr<Expr> Name() {
    size_t b = pos_;
    while (pos_ < s_.size() && (IsNameChar(s_[pos_]) || s_[pos_] == '.')) ++pos_;
    std::string name(s_.substr(b, pos_ - b));
    auto e = Node(Op::kLiteral);
    if (name == "true" || name == "false") {
      e->literal = ExprValue::Bool(name == "true");
      return e;
    }
    if (name == "null") return e;
    if (Sym("(")) return Call(std::move(name), b);
    std::string why;
    if (check_ && !check_(name, &why)) FailAt(b, why);
    e->op = Op::kIdent;
    idents_->push_back(name);
    e->name = std::move(name);
    return e;
  }
  std::unique_ptr<Expr> Call(std::string name, size_t at) {
    auto e = Node(Op::kCall);
    e->function = FindFunction(name);
    if (!e->function) {
      Suggester s(name);
      for (const FunctionDef& f : Functions()) s.Consider(f.name);
      FailAt(at, "unknown function \"" + name + "\"" + s.Hint());
      return e;
    }
    if (!Sym(")")) {
      do e->args.push_back(Or());  // Or() counts the call's nesting level
      while (ok() && Sym(","));
      if (ok() && !Sym(")")) Fail("expected ')'");
    }
    const FunctionDef& f = *e->function;
    const int n = static_cast<int>(e->args.size());
    if (n < f.min_args || (f.max_args >= 0 && n > f.max_args)) FailAt(at, ArityError(f, e->args.size()));
    else if (f.name_argument && e->args[0]->op != Op::kIdent) FailAt(at, name + " takes a parameter name");
    e->name = std::move(name);
    return e;
  }

  std::string_view s_;
  size_t pos_ = 0;
  int depth_ = 0;
  std::string error_;
  size_t err_pos_ = 0;
  std::vector<std::string>* idents_;
  const IdentifierCheck& check_;
};

}  // namespace

std::unique_ptr<Expr> ParseExprTree(std::string_view text, const IdentifierCheck& check,
                                    std::vector<std::string>* idents, std::string* message, size_t* column) {
  return Parser(text, idents, check).ParseAll(message, column);
}

}  // namespace pgconflint
