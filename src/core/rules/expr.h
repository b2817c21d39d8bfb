// The rule condition language: small expressions over effective settings and
// profile facts, so that most rules are data.
//
//   io_combine_limit > io_max_combine_limit
//   io_method != 'worker' and is_set(io_workers)
//   wal_level == 'minimal' and (archive_mode != 'off' or max_wal_senders > 0)
//   shared_buffers > profile.ram * 0.4
//   effective.io_max_concurrency < effective_io_concurrency
//
// Functions: min(a, b...), max(a, b...), abs(x), floor(x), if(c, a, b),
// coalesce(a, b...), known(x), is_true(x), is_false(x), contains(string, part),
// has_item(list, item), is_set(parameter). An unknown function or a wrong
// number of arguments is a parse error.
//
// Expressions nest at most kMaxExprDepth levels; chains of `and`, `or`, `+`,
// `-`, `*` and `/` are one node each, evaluated term by term, so that neither
// parsing nor evaluation depends on the stack for long inputs.
//
// Values are numbers (with a dimension: none, bytes or milliseconds, so that
// '128kB' and io_combine_limit compare in bytes), booleans, strings, or null
// (an unknown fact: every operation on null gives null, and a rule whose
// condition is null stays silent).
#ifndef PGCONFLINT_CORE_RULES_EXPR_H_
#define PGCONFLINT_CORE_RULES_EXPR_H_

#include <deque>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/limits.h"
#include "core/base/quantity.h"

namespace pgconflint {

struct ExprValue {
  enum class Kind { kNull, kNumber, kBool, kString } kind = Kind::kNull;
  double number = 0;
  Dim dim = Dim::kNone;
  bool boolean = false;
  std::string string;

  static ExprValue Null() { return {}; }
  static ExprValue Number(double v, Dim d = Dim::kNone) {
    ExprValue e;
    e.kind = Kind::kNumber;
    e.number = v;
    e.dim = d;
    return e;
  }
  static ExprValue Bool(bool b) {
    ExprValue e;
    e.kind = Kind::kBool;
    e.boolean = b;
    return e;
  }
  static ExprValue String(std::string s) {
    ExprValue e;
    e.kind = Kind::kString;
    e.string = std::move(s);
    return e;
  }
  bool is_null() const { return kind == Kind::kNull; }
  bool is_true() const { return kind == Kind::kBool && boolean; }
  /// Human display: "128kB", "1.5s", "16", "on", "worker".
  std::string Display() const;
};

/// Resolves identifiers (`work_mem`, `profile.ram`, `effective.wal_buffers`)
/// and functions (`is_set(io_workers)`) during evaluation.
class ExprEnv {
 public:
  virtual ~ExprEnv() = default;
  /// The value of `name`; Null when unknown. Sets *known=false for names that
  /// do not exist at all (a rule-file error, reported at load time).
  virtual ExprValue Lookup(std::string_view name, bool* known) const = 0;
  /// is_set(name): whether a configuration line sets it.
  virtual bool IsSet(std::string_view name) const = 0;
};

class Expr;

/// Checks a name while it is parsed (rule files refuse unknown names at
/// load): returns false with *error set, without the column, to refuse it.
using IdentifierCheck = std::function<bool(std::string_view name, std::string* error)>;

/// One node of a parsed expression, for a tree compiled at build time:
/// CompiledExpr::Image() writes the nodes in prefix order, FromImage() builds
/// the same tree back without parsing (the built-in rules' conditions, in
/// the generated rule table).
struct ExprNodeImage {
  int op;            // Expr::Op
  int args;          // how many of the nodes that follow are its children (each with its own)
  int literal_kind;  // ExprValue::Kind of a literal
  double number;
  int dim;           // Dim of a number
  bool boolean;
  const char* text;     // a literal's string, an identifier's or a function's name ("" otherwise)
  const char* inverse;  // sums and products: '1' for each subtracted or dividing term, else '0'
};

/// A parsed condition or template expression. Immutable; thread-safe.
class CompiledExpr {
 public:
  /// The tree Image() wrote for `text`, with the identifiers it reads; null
  /// if the image is malformed (a generator defect).
  static std::shared_ptr<const CompiledExpr> FromImage(std::string_view text, std::span<const ExprNodeImage> nodes,
                                                       std::span<const char* const> identifiers);
  /// The nodes in prefix order. Their strings point into this expression
  /// and into *flags, which holds the inverse flags.
  std::vector<ExprNodeImage> Image(std::deque<std::string>* flags) const;
  /// Parses `text`; on error returns null and sets *error, ending with " at
  /// column N" (1-based, in bytes). `check`, when given, validates every name.
  static std::shared_ptr<const CompiledExpr> Parse(std::string_view text, std::string* error,
                                                   const IdentifierCheck& check = {});
  ExprValue Eval(const ExprEnv& env) const;
  /// Identifiers the expression reads (parameters and facts), in order of appearance.
  const std::vector<std::string>& identifiers() const { return identifiers_; }
  const std::string& text() const { return text_; }
  ~CompiledExpr();

 private:
  CompiledExpr() = default;
  std::unique_ptr<Expr> root_;
  std::vector<std::string> identifiers_;
  std::string text_;
};

/// Parses a quantity literal such as "128kB", "16GB", "5min", "0.4" into a
/// value, as ParseQuantity of core/base/quantity.h (NaN, infinity and unknown
/// units are refused).
bool ParseQuantity(std::string_view text, ExprValue* out);

/// Expands a message template: each {expression} is evaluated and displayed.
/// Unparseable placeholders are left as written.
std::string ExpandTemplate(std::string_view tmpl, const ExprEnv& env);

/// Parses every {placeholder} of a template as ExpandTemplate would; false with
/// *error naming the first bad one, its column counted in the template.
bool CheckTemplate(std::string_view tmpl, std::string* error, const IdentifierCheck& check = {});

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_RULES_EXPR_H_
