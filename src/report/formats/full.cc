// The `full` format, in the style of rustc and ruff: a header, the source line
// with a caret under the range, then help, notes, fixes and the include chain.
// The header's file:line:col counts code points (as concise and JSON); the
// caret is placed in display columns, so that it stands under the range after
// tabs, wide characters, combining marks and escaped control characters.
#include <algorithm>

#include "core/model/echo_limit.h"
#include "core/base/strings.h"
#include "report/reporter.h"
#include "report/text.h"

namespace pgconflint {
namespace {

struct Style {
  bool on;
  std::string operator()(const char* code, const std::string& s) const {
    return on ? std::string("\x1b[") + code + "m" + s + "\x1b[0m" : s;
  }
};

const char* SeverityColor(Severity s) {
  switch (s) {
    case Severity::kError: return "1;31";
    case Severity::kWarning: return "1;33";
    case Severity::kInfo: return "1;36";
  }
  return "1";
}

bool HasSafeFix(const Diagnostic& d) {
  return std::any_of(d.fixes.begin(), d.fixes.end(), [](const Fix& f) { return f.safety == FixSafety::kSafe; });
}

// "[*]" for a finding with a safe fix, "[~]" for one whose fixes need review.
const char* FixMark(const Diagnostic& d) {
  if (HasSafeFix(d)) return " [*]";
  return d.fixes.empty() ? "" : " [~]";
}

// Where a rule's page is: built-in rules have one in the repository's
// docs/rules/, and every rule (user rules too) has `pgconflint explain`.
std::string RulePage(const RuleInfo& rule) {
  std::string page = "pgconflint explain " + std::string(rule.name);
  if (rule.builtin) page += ", docs/rules/" + std::string(rule.name) + ".md";
  return page;
}

// "file:line:col" of a location, the column in code points.
std::string LocationText(const Analysis& a, const Location& where) {
  const SourceFile& src = a.files[where.file].source;
  Position p = src.PositionOf(where.range.begin, ColumnUnit::kCodePoint);
  return EscapeControls(src.path()) + ":" + std::to_string(p.line) + ":" + std::to_string(p.column);
}

// The source line of `d` with its caret; returns the gutter padding.
std::string WriteSnippet(const Analysis& a, const Diagnostic& d, const Style& st, std::ostream& o) {
  const SourceFile& src = a.files[d.file].source;
  Position p = src.PositionOf(d.range.begin, ColumnUnit::kCodePoint);
  std::string num = std::to_string(p.line);
  std::string pad(num.size(), ' ');
  o << pad << st("1;34", "--> ") << LocationText(a, d.where()) << "\n";
  o << pad << st("1;34", " |") << "\n";
  std::string_view line = src.LineText(p.line);
  uint32_t line_end = src.LineStart(p.line) + static_cast<uint32_t>(line.size());
  uint32_t begin = std::min(d.range.begin, line_end);
  uint32_t end = std::min(d.range.end, line_end);
  if (src.LineOf(d.range.end) != p.line || end <= begin) {
    // A range that ends on a later line, or an empty one: its first character.
    size_t n = 0;
    if (begin < line_end) DecodeUtf8(src.text(), begin, &n);
    end = begin + static_cast<uint32_t>(n);
  }
  // A long line is shown as a window around the range, "..." marking what
  // is cut (core/model/echo_limit.h).
  const uint32_t line_start = src.LineStart(p.line);
  const EchoWindow w = WindowAround(line, begin - line_start, end - line_start);
  const std::string left = w.begin > 0 ? "..." : "", right = w.end < line.size() ? "..." : "";
  end = std::min(end, line_start + static_cast<uint32_t>(w.end));
  const uint32_t shown_from = src.PositionOf(line_start + static_cast<uint32_t>(w.begin), ColumnUnit::kDisplay).column;
  uint32_t before = src.PositionOf(begin, ColumnUnit::kDisplay).column - shown_from + static_cast<uint32_t>(left.size());
  uint32_t span = src.PositionOf(end, ColumnUnit::kDisplay).column - shown_from + static_cast<uint32_t>(left.size()) - before;
  o << st("1;34", num + " |") << " " << left << DisplayLine(line.substr(w.begin, w.end - w.begin)) << right << "\n";
  o << pad << st("1;34", " |") << " " << std::string(before, ' ')
    << st(SeverityColor(d.severity()), std::string(std::max<uint32_t>(span, 1), '^')) << "\n";
  return pad;
}

void WriteDiagnostic(const Analysis& a, const Diagnostic& d, const Style& st, std::ostream& o) {
  o << st(SeverityColor(d.severity()), std::string(SeverityName(d.severity())) + "[" + d.rule->code + "]")
    << FixMark(d) << st("1", ": " + EscapeControls(d.message)) << "\n";
  std::string pad = " ";
  if (d.file < 0) o << " --> " << EscapeControls(a.root) << "\n";
  else pad = WriteSnippet(a, d, st, o);
  const std::string eq = pad + st("1;34", " = ");
  if (!d.help.empty()) o << eq << st("1", "help") << ": " << EscapeControls(d.help) << "\n";
  for (const Note& n : d.notes) {
    o << eq << "note: " << EscapeControls(n.message) << "\n";
    if (n.where.file >= 0) o << pad << st("1;34", "   --> ") << LocationText(a, n.where) << "\n";
  }
  for (const Also& also : d.also) o << eq << "note: " << EscapeControls(AlsoText(also)) << "\n";
  for (const Fix& f : d.fixes)
    o << eq << (f.safety == FixSafety::kSafe ? "fix [*]: " : "fix (unsafe): ") << EscapeControls(f.title) << "\n";
  std::vector<IncludeSite> chain = a.IncludeChain(d.file);
  for (auto it = chain.rbegin(); it != chain.rend(); ++it)
    o << eq << "note: included from " << EscapeControls(a.files[it->file].source.path()) << ":" << it->line << "\n";
  if (std::string note = OutcomeNote(d); !note.empty()) o << eq << "note: " << note << "\n";
  o << eq << "rule: " << EscapeControls(d.rule->name) << " (" << EscapeControls(RulePage(*d.rule)) << ")\n";
  o << "\n";
}

}  // namespace

void RenderFull(const std::vector<Analysis>& analyses, const ReportOptions& options, std::ostream& out) {
  Style st{options.color};
  int safe_fixes = 0, review_fixes = 0;
  for (const Analysis& a : analyses)
    for (const Diagnostic& d : a.diagnostics) {
      WriteDiagnostic(a, d, st, out);
      safe_fixes += HasSafeFix(d);
      review_fixes += !HasSafeFix(d) && !d.fixes.empty();
    }
  if (!options.summary) return;
  out << st("1", SummaryLine(analyses, options.pg_version, options.pg_version_reason)) << "\n";
  if (safe_fixes) out << "[*] " << Plural(safe_fixes, "finding") << " with a safe fix.\n";
  if (review_fixes) out << "[~] " << Plural(review_fixes, "finding") << " with a fix to review before applying.\n";
}

extern const Reporter kFormat_full;
const Reporter kFormat_full = {"full", "rustc-style: the source line with a caret under the range, help and notes", RenderFull, 10};

}  // namespace pgconflint
