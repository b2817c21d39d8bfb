// Evaluation of the condition language: the function table and a tree walk
// that folds chains term by term (no recursion per term).
#include <strings.h>

#include <cmath>
#include <string>

#include "core/rules/expr_tree.h"

namespace pgconflint {
namespace {

using K = ExprValue::Kind;

bool NumbersComparable(const ExprValue& a, const ExprValue& b) {
  return a.kind == K::kNumber && b.kind == K::kNumber;
}

int Compare(const ExprValue& a, const ExprValue& b, bool* ok) {
  *ok = true;
  if (NumbersComparable(a, b)) return a.number < b.number ? -1 : a.number > b.number ? 1 : 0;
  if (a.kind == K::kBool && b.kind == K::kBool) return static_cast<int>(a.boolean) - static_cast<int>(b.boolean);
  // Strings compare case-insensitively: enum values are case-insensitive.
  auto str = [](const ExprValue& v) {
    if (v.kind == K::kString) return v.string;
    if (v.kind == K::kBool) return std::string(v.boolean ? "on" : "off");
    return v.Display();
  };
  if (a.kind == K::kString || b.kind == K::kString) {
    std::string x = str(a), y = str(b);
    int c = strcasecmp(x.c_str(), y.c_str());
    return c < 0 ? -1 : c > 0 ? 1 : 0;
  }
  *ok = false;
  return 0;
}

// Arithmetic keeps the dimension of the dimensioned operand.
Dim Combine(Dim a, Dim b) { return a != Dim::kNone ? a : b; }

// One step of an arithmetic chain: a `sym` b, with sym one of + - * /.
ExprValue Arith(char sym, const ExprValue& a, const ExprValue& b) {
  // '+' with a string concatenates displays (for message templates).
  if (sym == '+' && (a.kind == K::kString || b.kind == K::kString) && !a.is_null() && !b.is_null())
    return ExprValue::String(a.Display() + b.Display());
  if (a.kind != K::kNumber || b.kind != K::kNumber) return ExprValue::Null();
  Dim d = Combine(a.dim, b.dim);
  switch (sym) {
    case '+': return ExprValue::Number(a.number + b.number, d);
    case '-': return ExprValue::Number(a.number - b.number, d);
    case '*': return ExprValue::Number(a.number * b.number, d);
    default:
      if (b.number == 0) return ExprValue::Null();
      return ExprValue::Number(a.number / b.number, a.dim == b.dim ? Dim::kNone : d);  // same dims: a ratio
  }
}

// --- Functions ---------------------------------------------------------------

ExprValue Arg(const Expr& call, size_t i, const ExprEnv& env) { return call.args[i]->Eval(env); }

ExprValue FnIf(const Expr& c, const ExprEnv& env) {
  ExprValue cond = Arg(c, 0, env);
  if (cond.kind != K::kBool) return ExprValue::Null();
  return Arg(c, cond.boolean ? 1 : 2, env);
}
ExprValue FnIsSet(const Expr& c, const ExprEnv& env) { return ExprValue::Bool(env.IsSet(c.args[0]->name)); }
ExprValue FnKnown(const Expr& c, const ExprEnv& env) { return ExprValue::Bool(!Arg(c, 0, env).is_null()); }
ExprValue FnIsTrue(const Expr& c, const ExprEnv& env) { return ExprValue::Bool(Arg(c, 0, env).is_true()); }
ExprValue FnIsFalse(const Expr& c, const ExprEnv& env) {
  ExprValue v = Arg(c, 0, env);
  return ExprValue::Bool(v.kind == K::kBool && !v.boolean);
}
ExprValue FnCoalesce(const Expr& c, const ExprEnv& env) {
  for (const auto& a : c.args)
    if (ExprValue v = a->Eval(env); !v.is_null()) return v;
  return ExprValue::Null();
}
// A comma-separated list (listen_addresses, log_destination...) has the item,
// compared case-insensitively after trimming blanks.
ExprValue FnHasItem(const Expr& c, const ExprEnv& env) {
  ExprValue list = Arg(c, 0, env), item = Arg(c, 1, env);
  if (list.kind != K::kString || item.kind != K::kString) return ExprValue::Null();
  std::string_view rest = list.string;
  for (;;) {
    size_t comma = rest.find(',');
    std::string_view one = rest.substr(0, comma);
    size_t b = one.find_first_not_of(" \t"), e = one.find_last_not_of(" \t");
    one = b == std::string_view::npos ? std::string_view() : one.substr(b, e - b + 1);
    if (one.size() == item.string.size() && strncasecmp(one.data(), item.string.data(), one.size()) == 0)
      return ExprValue::Bool(true);
    if (comma == std::string_view::npos) return ExprValue::Bool(false);
    rest.remove_prefix(comma + 1);
  }
}
ExprValue FnContains(const Expr& c, const ExprEnv& env) {
  ExprValue s = Arg(c, 0, env), part = Arg(c, 1, env);
  if (s.kind != K::kString || part.kind != K::kString) return ExprValue::Null();
  return ExprValue::Bool(s.string.find(part.string) != std::string::npos);
}
ExprValue MinMax(const Expr& c, const ExprEnv& env, bool min) {
  ExprValue r;
  for (size_t i = 0; i < c.args.size(); ++i) {
    ExprValue x = Arg(c, i, env);
    if (x.kind != K::kNumber) return ExprValue::Null();
    if (i == 0) r = x;
    if (min ? x.number < r.number : x.number > r.number) r.number = x.number;
    r.dim = Combine(r.dim, x.dim);
  }
  return r;
}
ExprValue FnMin(const Expr& c, const ExprEnv& env) { return MinMax(c, env, true); }
ExprValue FnMax(const Expr& c, const ExprEnv& env) { return MinMax(c, env, false); }
ExprValue FnAbs(const Expr& c, const ExprEnv& env) {
  ExprValue v = Arg(c, 0, env);
  return v.kind == K::kNumber ? ExprValue::Number(std::fabs(v.number), v.dim) : ExprValue::Null();
}
ExprValue FnFloor(const Expr& c, const ExprEnv& env) {
  ExprValue v = Arg(c, 0, env);
  return v.kind == K::kNumber ? ExprValue::Number(std::floor(v.number), v.dim) : ExprValue::Null();
}

// --- Evaluation --------------------------------------------------------------

// `and` is false as soon as a term is false and `or` true as soon as one is
// true; otherwise a term that is not a boolean (null) makes the result null.
ExprValue EvalLogic(const Expr& e, const ExprEnv& env) {
  const bool is_and = e.op == Expr::Op::kAnd;
  bool all_bool = true;
  for (const auto& term : e.args) {
    ExprValue v = term->Eval(env);
    if (v.kind != K::kBool) all_bool = false;
    else if (v.boolean != is_and) return ExprValue::Bool(!is_and);
  }
  return all_bool ? ExprValue::Bool(is_and) : ExprValue::Null();
}

// A chain folds from the left, term by term: ((a + b) - c) + d.
ExprValue EvalChain(const Expr& e, const ExprEnv& env) {
  const bool sum = e.op == Expr::Op::kSum;
  ExprValue acc = e.args[0]->Eval(env);
  for (size_t i = 1; i < e.args.size(); ++i)
    acc = Arith(sum ? (e.inverse[i] ? '-' : '+') : (e.inverse[i] ? '/' : '*'), acc, e.args[i]->Eval(env));
  return acc;
}

ExprValue EvalComparison(const Expr& e, const ExprEnv& env) {
  using Op = Expr::Op;
  ExprValue a = e.args[0]->Eval(env), b = e.args[1]->Eval(env);
  if (a.is_null() || b.is_null()) return ExprValue::Null();
  bool ok;
  int c = Compare(a, b, &ok);
  if (!ok) return ExprValue::Null();
  switch (e.op) {
    case Op::kLt: return ExprValue::Bool(c < 0);
    case Op::kLe: return ExprValue::Bool(c <= 0);
    case Op::kGt: return ExprValue::Bool(c > 0);
    case Op::kGe: return ExprValue::Bool(c >= 0);
    case Op::kEq: return ExprValue::Bool(c == 0);
    default: return ExprValue::Bool(c != 0);
  }
}

ExprValue EvalMembership(const Expr& e, const ExprEnv& env) {
  ExprValue a = e.args[0]->Eval(env);
  if (a.is_null()) return ExprValue::Null();
  bool found = false;
  for (size_t i = 1; i < e.args.size() && !found; ++i) {
    bool ok;
    ExprValue b = e.args[i]->Eval(env);
    found = !b.is_null() && Compare(a, b, &ok) == 0 && ok;
  }
  return ExprValue::Bool((e.op == Expr::Op::kIn) == found);
}

}  // namespace

// In name order: the parser accepts these, with these arities, and nothing else.
constexpr FunctionDef kFunctions[] = {
    {"abs", 1, 1, false, FnAbs},           {"coalesce", 1, -1, false, FnCoalesce},
    {"contains", 2, 2, false, FnContains}, {"floor", 1, 1, false, FnFloor},
    {"has_item", 2, 2, false, FnHasItem},  {"if", 3, 3, false, FnIf},
    {"is_false", 1, 1, false, FnIsFalse},  {"is_set", 1, 1, true, FnIsSet},
    {"is_true", 1, 1, false, FnIsTrue},    {"known", 1, 1, false, FnKnown},
    {"max", 1, -1, false, FnMax},          {"min", 1, -1, false, FnMin},
};

std::span<const FunctionDef> Functions() { return kFunctions; }

const FunctionDef* FindFunction(std::string_view name) {
  for (const FunctionDef& f : kFunctions)
    if (name == f.name) return &f;
  return nullptr;
}

ExprValue Expr::Eval(const ExprEnv& env) const {
  switch (op) {
    case Op::kLiteral: return literal;
    case Op::kIdent: {
      bool known = true;
      return env.Lookup(name, &known);
    }
    case Op::kCall: return function->eval(*this, env);
    case Op::kNeg: {
      ExprValue v = args[0]->Eval(env);
      if (v.kind != K::kNumber) return ExprValue::Null();
      v.number = -v.number;
      return v;
    }
    case Op::kNot: {
      ExprValue v = args[0]->Eval(env);
      return v.kind == K::kBool ? ExprValue::Bool(!v.boolean) : ExprValue::Null();
    }
    case Op::kAnd: case Op::kOr: return EvalLogic(*this, env);
    case Op::kSum: case Op::kProduct: return EvalChain(*this, env);
    case Op::kIn: case Op::kNotIn: return EvalMembership(*this, env);
    default: return EvalComparison(*this, env);
  }
}


}  // namespace pgconflint
