// The condition language's parser (precedence climbing). Nesting is limited
// to kMaxExprDepth levels, so that no input can exhaust the stack; chains are
// parsed in loops into one node each.
#include "core/rules/expr_tree.h"

#include <cctype>
#include <string>

#include "core/base/spelling.h"

namespace pgconflint {
namespace {

std::string ArityError(const FunctionDef& f, size_t n) {
  auto count = [](int k) { return std::to_string(k) + (k == 1 ? " argument" : " arguments"); };
  std::string expected = f.min_args == f.max_args ? count(f.min_args)
                         : f.max_args < 0         ? "at least " + count(f.min_args)
                                                  : count(f.min_args) + " to " + std::to_string(f.max_args);
  return std::string(f.name) + " takes " + expected + ", not " + std::to_string(n);
}

bool IsNameChar(char c) { return isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Binding strength of the operators, loosest first. `not` is a prefix between
// `and` and the comparisons; unary minus binds tightest.
enum Precedence { kNone = 0, kOrLevel, kAndLevel, kNotLevel, kCmpLevel, kSumLevel, kProdLevel, kUnaryLevel };

// A binary operator found at the current position.
struct Infix {
  int precedence = kNone;
  Expr::Op op = Expr::Op::kLiteral;
  size_t length = 0;     // bytes it spans, blanks inside "not in" included
  bool inverse = false;  // '-' in a sum, '/' in a product
};

// A precedence-climbing parser. Each nesting level costs a few small frames
// (everything but the recursion itself is out of line: inlined, its locals
// would sit in every recursive frame), and nesting is limited to
// kMaxExprDepth, so the stack it needs is bounded whatever the input.
class Parser {
 public:
  Parser(std::string_view s, std::vector<std::string>* idents, const IdentifierCheck& check)
      : s_(s), idents_(idents), check_(check) {}

  // The tree of the whole text; null with *message and *column (1-based) on error.
  std::unique_ptr<Expr> ParseAll(std::string* message, size_t* column) {
    std::unique_ptr<Expr> e;
    {
      Level level(this);  // the top level counts as one
      if (ok()) e = Parse(kOrLevel);
    }
    Skip();
    if (ok() && pos_ != s_.size()) FailUnexpected();
    if (ok()) return e;
    *message = error_;
    *column = err_pos_;
    return nullptr;
  }

 private:
  using Op = Expr::Op;

  // One nesting level while alive; past kMaxExprDepth the parse fails, and
  // every rule returns at once, so the stack never grows further.
  class Level {
   public:
    explicit Level(Parser* p) : p_(p) {
      if (++p_->depth_ > kMaxExprDepth) p_->FailTooDeep();
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
  // Whether the word `w` (not a prefix of a longer name) is at `at`.
  bool WordAt(size_t at, std::string_view w) const {
    return s_.substr(at, w.size()) == w && (at + w.size() >= s_.size() || !IsNameChar(s_[at + w.size()]));
  }
  bool Word(std::string_view w) {
    Skip();
    if (!WordAt(pos_, w)) return false;
    pos_ += w.size();
    return true;
  }
  bool Sym(std::string_view w) {
    Skip();
    if (s_.substr(pos_, w.size()) != w) return false;
    pos_ += w.size();
    return true;
  }
  [[gnu::noinline]] void FailAt(size_t at, std::string_view m) {
    if (ok()) {
      error_ = m;
      err_pos_ = at + 1;
    }
  }
  void Fail(std::string_view m) { FailAt(pos_, m); }
  [[gnu::noinline]] void FailUnexpected() { Fail("unexpected '" + std::string(s_.substr(pos_, 1)) + "'"); }
  [[gnu::noinline]] void FailTooDeep() {
    Fail("expression nested deeper than " + std::to_string(kMaxExprDepth) + " levels");
  }
  static std::unique_ptr<Expr> Node(Op op) {
    auto e = std::make_unique<Expr>();
    e->op = op;
    return e;
  }
  [[gnu::noinline]] static std::unique_ptr<Expr> Wrap(Op op, std::unique_ptr<Expr> a, std::unique_ptr<Expr> b = nullptr) {
    auto e = Node(op);
    e->args.push_back(std::move(a));
    if (b) e->args.push_back(std::move(b));
    return e;
  }

  [[gnu::noinline]] Infix PeekInfix() {
    Skip();
    if (WordAt(pos_, "or")) return {kOrLevel, Op::kOr, 2};
    if (WordAt(pos_, "and")) return {kAndLevel, Op::kAnd, 3};
    if (WordAt(pos_, "in")) return {kCmpLevel, Op::kIn, 2};
    if (WordAt(pos_, "not")) {
      size_t at = pos_ + 3;
      while (at < s_.size() && isspace(static_cast<unsigned char>(s_[at]))) ++at;
      if (WordAt(at, "in")) return {kCmpLevel, Op::kNotIn, at + 2 - pos_};
      return {};
    }
    static const std::pair<std::string_view, Op> kComparisons[] = {
        {"<=", Op::kLe}, {">=", Op::kGe}, {"==", Op::kEq}, {"!=", Op::kNe}, {"<", Op::kLt}, {">", Op::kGt}};
    for (const auto& [sym, op] : kComparisons)
      if (s_.substr(pos_, sym.size()) == sym) return {kCmpLevel, op, sym.size()};
    if (pos_ >= s_.size()) return {};
    switch (s_[pos_]) {
      case '+': return {kSumLevel, Op::kSum, 1, false};
      case '-': return {kSumLevel, Op::kSum, 1, true};
      case '*': return {kProdLevel, Op::kProduct, 1, false};
      case '/': return {kProdLevel, Op::kProduct, 1, true};
      default: return {};
    }
  }

  // An expression whose operators bind at least as tightly as `min`. One
  // comparison at most: `a < b < c` leaves the second '<' unparsed (an error).
  std::unique_ptr<Expr> Parse(int min) {
    auto left = Prefix(min);
    bool compared = false;
    while (ok()) {
      Infix in = PeekInfix();
      if (in.precedence == kNone || in.precedence < min || (in.precedence == kCmpLevel && compared)) break;
      pos_ += in.length;
      if (in.precedence != kCmpLevel) {
        left = Chain(in, std::move(left));
      } else if (in.op == Op::kIn || in.op == Op::kNotIn) {
        left = List(in.op, std::move(left));
        compared = true;
      } else {
        left = Wrap(in.op, std::move(left), Parse(kSumLevel));
        compared = true;
      }
    }
    return left;
  }
  // `a or b or c`, `a + b - c`: one node whose terms bind more tightly than
  // the operator; inverse[i] marks the terms after '-' (or '/').
  [[gnu::noinline]] std::unique_ptr<Expr> Chain(Infix first, std::unique_ptr<Expr> left) {
    auto e = Wrap(first.op, std::move(left));
    const bool arithmetic = first.precedence >= kSumLevel;
    if (arithmetic) e->inverse.push_back(false);
    for (Infix in = first;;) {
      e->args.push_back(Parse(first.precedence + 1));
      if (arithmetic) e->inverse.push_back(in.inverse);
      if (!ok()) break;
      in = PeekInfix();
      if (in.op != first.op || in.precedence != first.precedence) break;
      pos_ += in.length;
    }
    return e;
  }
  // `not x` (where `min` allows it), unary minus, or a primary.
  std::unique_ptr<Expr> Prefix(int min) {
    const bool negate = Sym("-");
    if (!negate && !(min <= kNotLevel && Word("not"))) return Primary();
    Level level(this);
    if (!ok()) return Node(Op::kLiteral);
    if (negate) return Wrap(Op::kNeg, Prefix(kUnaryLevel));
    return Wrap(Op::kNot, Parse(kNotLevel));
  }
  [[gnu::noinline]] std::unique_ptr<Expr> List(Op op, std::unique_ptr<Expr> l) {
    Level level(this);
    auto e = Wrap(op, std::move(l));
    if (!ok()) return e;
    if (!Sym("[")) {
      Fail("expected '[' after 'in'");
      return e;
    }
    if (!Sym("]")) {
      do e->args.push_back(Parse(kSumLevel));
      while (ok() && Sym(","));
      if (ok() && !Sym("]")) Fail("expected ']'");
    }
    return e;
  }
  [[gnu::noinline]] std::unique_ptr<Expr> Primary() {
    Skip();
    if (!ok()) return Node(Op::kLiteral);
    if (pos_ >= s_.size()) {
      Fail("unexpected end of expression");
      return Node(Op::kLiteral);
    }
    const char c = s_[pos_];
    if (c == '(') {
      ++pos_;
      Level level(this);
      if (!ok()) return Node(Op::kLiteral);
      auto inner = Parse(kOrLevel);
      if (ok() && !Sym(")")) Fail("expected ')'");
      return inner;
    }
    if (c == '\'') return StringLiteral();
    if (isdigit(static_cast<unsigned char>(c)) || c == '.') return NumberLiteral();
    if (!isalpha(static_cast<unsigned char>(c)) && c != '_') {
      FailUnexpected();
      return Node(Op::kLiteral);
    }
    const size_t b = pos_;
    while (pos_ < s_.size() && (IsNameChar(s_[pos_]) || s_[pos_] == '.')) ++pos_;
    const std::string_view name = s_.substr(b, pos_ - b);
    if (name == "true" || name == "false" || name == "null") return Keyword(name);
    if (Sym("(")) return Call(name, b);
    return Identifier(name, b);
  }
  [[gnu::noinline]] std::unique_ptr<Expr> StringLiteral() {
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
  [[gnu::noinline]] std::unique_ptr<Expr> NumberLiteral() {
    auto e = Node(Op::kLiteral);
    size_t b = pos_;
    while (pos_ < s_.size() && (isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '.')) ++pos_;
    if (!ParseQuantity(s_.substr(b, pos_ - b), &e->literal))
      FailAt(b, "bad number '" + std::string(s_.substr(b, pos_ - b)) + "'");
    return e;
  }
  [[gnu::noinline]] std::unique_ptr<Expr> Keyword(std::string_view name) {
    auto e = Node(Op::kLiteral);
    if (name != "null") e->literal = ExprValue::Bool(name == "true");
    return e;
  }
  [[gnu::noinline]] std::unique_ptr<Expr> Identifier(std::string_view name, size_t at) {
    std::string why;
    if (check_ && !check_(name, &why)) FailAt(at, why);
    auto e = Node(Op::kIdent);
    e->name = std::string(name);
    idents_->push_back(e->name);
    return e;
  }
  [[gnu::noinline]] std::unique_ptr<Expr> Call(std::string_view name, size_t at) {
    auto e = Node(Op::kCall);
    e->function = FindFunction(name);
    if (!e->function) {
      FailUnknownFunction(name, at);
      return e;
    }
    Level level(this);
    if (ok() && !Sym(")")) {
      do e->args.push_back(Parse(kOrLevel));
      while (ok() && Sym(","));
      if (ok() && !Sym(")")) Fail("expected ')'");
    }
    if (ok()) CheckArguments(*e, at);
    return e;
  }
  [[gnu::noinline]] void FailUnknownFunction(std::string_view name, size_t at) {
    Suggester s(name);
    for (const FunctionDef& f : Functions()) s.Consider(f.name);
    FailAt(at, "unknown function \"" + std::string(name) + "\"" + s.Hint());
  }
  [[gnu::noinline]] void CheckArguments(Expr& call, size_t at) {
    const FunctionDef& f = *call.function;
    const int n = static_cast<int>(call.args.size());
    if (n < f.min_args || (f.max_args >= 0 && n > f.max_args)) FailAt(at, ArityError(f, call.args.size()));
    else if (f.name_argument && call.args[0]->op != Op::kIdent) FailAt(at, std::string(f.name) + " takes a parameter name");
    call.name = f.name;
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
