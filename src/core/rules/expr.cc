// The rule condition language: values and quantities, compiled expressions
// and message templates (the tree lives in expr_parse.cc and expr_eval.cc).
#include "core/rules/expr.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <strings.h>

#include <string>

#include "core/rules/expr_tree.h"

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

namespace {

// Calls on_text(part) for the literal parts of a template and
// on_hole(expression, offset of the expression in tmpl) for each {expression};
// stops when on_hole returns false. A '{' without a '}' after it is text.
template <typename OnText, typename OnHole>
void SplitTemplate(std::string_view tmpl, OnText on_text, OnHole on_hole) {
  size_t i = 0;
  while (i < tmpl.size()) {
    size_t open = tmpl.find('{', i);
    if (open == std::string_view::npos) break;
    size_t close = tmpl.find('}', open);
    if (close == std::string_view::npos) break;
    on_text(tmpl.substr(i, open - i));
    if (!on_hole(tmpl.substr(open + 1, close - open - 1), open + 1)) return;
    i = close + 1;
  }
  on_text(tmpl.substr(i));
}

}  // namespace

CompiledExpr::~CompiledExpr() = default;

std::shared_ptr<const CompiledExpr> CompiledExpr::Parse(std::string_view text, std::string* error,
                                                        const IdentifierCheck& check) {
  std::shared_ptr<CompiledExpr> c(new CompiledExpr());
  c->text_ = std::string(text);
  std::string message;
  size_t column = 0;
  c->root_ = ParseExprTree(text, check, &c->identifiers_, &message, &column);
  if (!c->root_) {
    *error = message + " at column " + std::to_string(column);
    return nullptr;
  }
  return c;
}

ExprValue CompiledExpr::Eval(const ExprEnv& env) const { return root_->Eval(env); }

namespace {

void ImageOf(const Expr& e, std::vector<ExprNodeImage>* out, std::deque<std::string>* flags) {
  ExprNodeImage n{static_cast<int>(e.op), static_cast<int>(e.args.size()), static_cast<int>(e.literal.kind),
                  e.literal.number, static_cast<int>(e.literal.dim), e.literal.boolean, "", ""};
  if (e.op == Expr::Op::kLiteral) n.text = e.literal.string.c_str();
  if (e.op == Expr::Op::kIdent || e.op == Expr::Op::kCall) n.text = e.name.c_str();
  if (!e.inverse.empty()) {
    flags->emplace_back();
    for (bool inverse : e.inverse) flags->back() += inverse ? '1' : '0';
    n.inverse = flags->back().c_str();
  }
  out->push_back(n);
  for (const auto& a : e.args) ImageOf(*a, out, flags);
}

// Builds the node at nodes[*at] and its children; null on a malformed image.
std::unique_ptr<Expr> FromNodes(std::span<const ExprNodeImage> nodes, size_t* at, int depth) {
  if (*at >= nodes.size() || depth > kMaxExprDepth + 1) return nullptr;
  const ExprNodeImage& n = nodes[(*at)++];
  if (n.op < 0 || n.op > static_cast<int>(Expr::Op::kNotIn) || n.args < 0) return nullptr;
  auto e = std::make_unique<Expr>();
  e->op = static_cast<Expr::Op>(n.op);
  if (e->op == Expr::Op::kLiteral) {
    e->literal.kind = static_cast<ExprValue::Kind>(n.literal_kind);
    e->literal.number = n.number;
    e->literal.dim = static_cast<Dim>(n.dim);
    e->literal.boolean = n.boolean;
    e->literal.string = n.text;
  }
  if (e->op == Expr::Op::kIdent || e->op == Expr::Op::kCall) e->name = n.text;
  if (e->op == Expr::Op::kCall && !(e->function = FindFunction(e->name))) return nullptr;
  for (const char* c = n.inverse; *c; ++c) e->inverse.push_back(*c == '1');
  for (int i = 0; i < n.args; ++i) {
    std::unique_ptr<Expr> child = FromNodes(nodes, at, depth + 1);
    if (!child) return nullptr;
    e->args.push_back(std::move(child));
  }
  return e;
}

}  // namespace

std::vector<ExprNodeImage> CompiledExpr::Image(std::deque<std::string>* flags) const {
  std::vector<ExprNodeImage> out;
  ImageOf(*root_, &out, flags);
  return out;
}

std::shared_ptr<const CompiledExpr> CompiledExpr::FromImage(std::string_view text,
                                                            std::span<const ExprNodeImage> nodes,
                                                            std::span<const char* const> identifiers) {
  std::shared_ptr<CompiledExpr> c(new CompiledExpr());
  c->text_ = std::string(text);
  size_t at = 0;
  c->root_ = FromNodes(nodes, &at, 0);
  if (!c->root_ || at != nodes.size()) return nullptr;
  c->identifiers_.assign(identifiers.begin(), identifiers.end());
  return c;
}

std::string ExpandTemplate(std::string_view tmpl, const ExprEnv& env) {
  std::string out;
  SplitTemplate(
      tmpl, [&](std::string_view text) { out.append(text); },
      [&](std::string_view hole, size_t) {
        std::string error;
        if (auto e = CompiledExpr::Parse(hole, &error)) out += e->Eval(env).Display();
        else out.append("{").append(hole).append("}");
        return true;
      });
  return out;
}

bool CheckTemplate(std::string_view tmpl, std::string* error, const IdentifierCheck& check) {
  bool good = true;
  SplitTemplate(
      tmpl, [](std::string_view) {},
      [&](std::string_view hole, size_t offset) {
        std::vector<std::string> idents;
        std::string message;
        size_t column = 0;
        if (ParseExprTree(hole, check, &idents, &message, &column)) return true;
        // Quote at most the start of the placeholder: it can be huge.
        std::string shown(hole.substr(0, 40));
        *error = "placeholder {" + shown + (hole.size() > 40 ? "..." : "") + "}: " + message + " at column " +
                 std::to_string(offset + column);
        good = false;
        return false;
      });
  return good;
}

}  // namespace pgconflint
