// Internal to the condition language (expr*.cc): the parsed tree, the table of
// functions, and the parser's entry point. Not for use outside src/core/expr*.
#ifndef PGCONFLINT_CORE_RULES_EXPR_TREE_H_
#define PGCONFLINT_CORE_RULES_EXPR_TREE_H_

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/rules/expr.h"

namespace pgconflint {

class Expr;

/// A function of the language: its arity and how it evaluates a call. It gets
/// the call's unevaluated arguments, so that if() evaluates one branch and
/// is_set() reads a name rather than a value.
struct FunctionDef {
  const char* name;
  int min_args;
  int max_args;         // -1: any number
  bool name_argument;   // the argument is a parameter name (is_set)
  ExprValue (*eval)(const Expr& call, const ExprEnv& env);
};

/// Every function, in name order: the parser accepts these and no other.
std::span<const FunctionDef> Functions();
/// Null when `name` is no function.
const FunctionDef* FindFunction(std::string_view name);

/// A node. Chains of `and`/`or` and of `+ -` / `* /` are one node each.
class Expr {
 public:
  enum class Op {
    kLiteral, kIdent, kCall, kNeg, kNot, kAnd, kOr, kSum, kProduct,
    kLt, kLe, kGt, kGe, kEq, kNe, kIn, kNotIn,
  };
  Op op = Op::kLiteral;
  ExprValue literal;                       // kLiteral
  std::string name;                        // kIdent, kCall
  const FunctionDef* function = nullptr;   // kCall
  std::vector<std::unique_ptr<Expr>> args;
  std::vector<bool> inverse;               // kSum, kProduct: term i is subtracted / divides

  ExprValue Eval(const ExprEnv& env) const;
};

/// Parses `text` into a tree, appending the names it reads to *idents; null
/// with *message and *column (1-based, bytes) on error.
std::unique_ptr<Expr> ParseExprTree(std::string_view text, const IdentifierCheck& check,
                                    std::vector<std::string>* idents, std::string* message, size_t* column);

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_RULES_EXPR_TREE_H_
