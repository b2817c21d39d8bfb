// Syntax errors as the server reports them ("syntax error near token"), with
// a precise hint for the common mistakes and a fix that quotes a value made
// of several tokens.
#include "core/model/syntax_diagnostics.h"

#include <cctype>

#include "core/base/limits.h"
#include "core/knowledge/value.h"
#include "core/base/strings.h"

namespace pgconflint {
namespace {

// The rest of the line from `from`, up to a comment or the end of the line,
// without trailing blanks.
Range RestOfLine(const std::string& text, uint32_t from) {
  size_t end = text.find_first_of("#\n", from);
  if (end == std::string::npos) end = text.size();
  while (end > from && IsBlank(text[end - 1])) --end;
  return {from, static_cast<uint32_t>(end)};
}

std::string NameHelp(std::string_view near) {
  if (near.find('-') != std::string_view::npos) {
    std::string fixed(near);
    for (char& c : fixed)
      if (c == '-') c = '_';
    return "; names use underscores, not dashes: " + fixed;
  }
  if (near == "=") return "; the line has no parameter name";
  return "; a name starts with a letter or underscore and has at most one dot";
}

// A value of several tokens written as one: "64 MB" -> "64MB" (a number and
// its unit), anything else as written.
std::string JoinedValue(std::string_view whole) {
  size_t i = 0;
  if (i < whole.size() && (whole[i] == '+' || whole[i] == '-')) ++i;
  size_t digits = i;
  while (i < whole.size() && (isdigit(static_cast<unsigned char>(whole[i])) || whole[i] == '.')) ++i;
  size_t blanks = i;
  while (i < whole.size() && IsBlank(whole[i])) ++i;
  size_t unit = i;
  while (i < whole.size() && isalpha(static_cast<unsigned char>(whole[i]))) ++i;
  if (i == whole.size() && digits < blanks && blanks < unit && unit < whole.size())
    return std::string(whole.substr(0, blanks)) + std::string(whole.substr(unit));
  return std::string(whole);
}

// The fix for a value of several tokens: quote all of it. Safe when the
// parameter is known and the quoted value is one the server accepts.
void AddQuoteFix(const Analysis& a, int file, const SyntaxError& e, Diagnostic* d) {
  const SourceFile& src = a.files[file].source;
  Range whole = RestOfLine(src.text(), e.value.begin);
  std::string value = JoinedValue(src.Slice(whole));
  if (value.find('\'') != std::string::npos || value.find('\\') != std::string::npos) return;
  FixSafety safety = FixSafety::kUnsafe;
  if (a.catalog && e.name.end > e.name.begin)
    if (const Parameter* p = a.catalog->Find(src.Slice(e.name)))
      if (ParseValue(*a.catalog, *p, value).ok()) safety = FixSafety::kSafe;
  d->fixes.push_back(MakeFix("quote the value: '" + value + "'", safety, {file, whole}, "'" + value + "'"));
}

// A few common mistakes deserve a precise hint.
std::string SyntaxHelp(const Analysis& a, int file, const SyntaxError& e) {
  const std::string& text = a.files[file].source.text();
  std::string_view near = e.near_text;
  if (e.near.begin == 0 && text.compare(0, 3, "\xEF\xBB\xBF") == 0)
    return "; the file starts with a UTF-8 byte order mark, which PostgreSQL reads as part of the "
           "first name: save the file without it";
  if (e.expected.rfind("a parameter name", 0) == 0) return NameHelp(near);
  if (near == "\"") return "; PostgreSQL quotes values with single quotes only";
  if (near == "'") return "; the quoted value is not closed on this line";
  if (near == "\\") return "; PostgreSQL has no line continuation: keep the value on one line";
  if (near == "=") return "; remove the extra '='";
  if (e.at_end_of_line) return "";
  if (e.expected == "a value" || e.expected.rfind("'='", 0) == 0)
    return "; quote the value: '" + std::string(near) + "...'";
  // Something follows a complete value: a second token of the same value
  // ('64 MB', '1.5GB', '0.0.0.0', 'a,b'), or junk such as an unquoted comment.
  if (e.value.end > e.value.begin && text[e.value.begin] == '\'') return "; comments start with '#'";
  if (e.value.end <= e.value.begin) return "";
  std::string whole(a.files[file].source.Slice(RestOfLine(text, e.value.begin)));
  return "; the value is more than one token: quote all of it, e.g. '" + whole + "'";
}

}  // namespace

void ReportSyntaxErrors(Analysis* a, int file) {
  // As ParseConfigFp: at most kMaxSyntaxErrors per file, then the server
  // abandons the file (a binary file ends here quickly).
  const std::vector<SyntaxError>& errors = a->files[file].parsed.errors;
  const size_t count = a->files[file].parsed.error_count;
  for (size_t i = 0; i < errors.size() && i < kMaxSyntaxErrors; ++i) {
    const SyntaxError& e = errors[i];
    // The server prints tokens as C strings: a NUL byte shows as "".
    std::string near = e.near_text.substr(0, e.near_text.find('\0'));
    std::string msg = e.at_end_of_line ? "syntax error near end of line" : "syntax error near token " + DoubleQuoted(near);
    std::string help = "expected " + e.expected + SyntaxHelp(*a, file, e);
    if (e.near_text.find('\0') != std::string::npos)
      help = "a NUL byte: this looks like a binary file, not a configuration file";
    Diagnostic d = MakeDiagnostic(Rule(RuleId::kSyntaxError), {file, e.near}, msg, help);
    bool after_value = !e.at_end_of_line && e.value.end > e.value.begin && e.expected == "the end of the line";
    if (after_value && a->files[file].source.text()[e.value.begin] != '\'') AddQuoteFix(*a, file, e, &d);
    a->Add(std::move(d));
  }
  if (count > kMaxSyntaxErrors && errors.size() > kMaxSyntaxErrors) {
    a->Add(MakeDiagnostic(Rule(RuleId::kSyntaxError), {file, errors[kMaxSyntaxErrors].near},
                          "too many syntax errors found, abandoning file " +
                              DoubleQuoted(a->files[file].source.path()) + " (" + std::to_string(count) +
                              " in all)",
                          "PostgreSQL stops reading a file after 100 syntax errors; is this a configuration file?"));
  }
}

}  // namespace pgconflint
