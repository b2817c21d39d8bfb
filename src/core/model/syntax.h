// The postgresql.conf front end: tokens from the tree-sitter grammar
// (src/grammar), and PostgreSQL's one-line grammar over them.
//
// The grammar is a flat token list per line so that tree-sitter lexes exactly
// as guc-file.l does; this file applies ParseConfigFp's rules (name, optional
// '=', value, end of line) and reports "syntax error near token" the same way.
#ifndef PGCONFLINT_CORE_MODEL_SYNTAX_H_
#define PGCONFLINT_CORE_MODEL_SYNTAX_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/source_file.h"

namespace pgconflint {

enum class TokenKind : uint8_t {
  kIdentifier,           // ID
  kQualifiedIdentifier,  // ID.ID
  kString,               // '...'
  kUnquotedString,       // letter followed by letters, digits, - . _ : /
  kInteger,              // with optional sign, hex, unit letters
  kReal,
  kEquals,
  kInvalidChar,          // any other single character
  kComment,
};

struct Token {
  TokenKind kind;
  Range range;
};

/// One `name [=] value` line that parsed.
struct SettingLine {
  uint32_t line;        // 1-based
  Range name;
  Range value;          // the value token, quotes included
  bool quoted;          // the value was a STRING token
  std::string value_text;  // unescaped value (quotes removed)
  Range comment;        // trailing comment, empty if none
};

/// One line that did not parse.
struct SyntaxError {
  uint32_t line;
  Range near;            // the offending token, or the end of the line
  bool at_end_of_line;   // "near end of line"
  std::string near_text; // the token's text as PostgreSQL prints it
  std::string expected;  // what would have been valid here (for the help text)
  Range name;            // the line's parameter name, when it had one before the error
  Range value;           // the first value token, when the error follows a complete value
};

/// A comment that holds a `pgconflint:` directive (its text after '#' and
/// blanks starts with "pgconflint:"), that follows a setting on its line, or
/// that is a setting commented out ("#name = ..."). Other comments are not
/// kept: a file of prose comments costs no memory.
struct CommentLine {
  uint32_t line;
  Range range;
  bool own_line;  // nothing but whitespace before it
};

struct ParsedFile {
  std::vector<SettingLine> settings;  // in file order
  /// The first kMaxSyntaxErrors + 1 syntax errors (core/base/limits.h): the
  /// server reports no more. error_count counts them all.
  std::vector<SyntaxError> errors;
  size_t error_count = 0;
  std::vector<CommentLine> comments;
  /// Parsing stopped after kMaxEntriesPerRoot settings, kept comments
  /// and kept errors: the file is larger than pgconflint analyses.
  bool truncated = false;
};

/// Parses `file`. Never fails: lines that do not parse become SyntaxErrors and
/// every other line is still returned (up to the limits above). Tokens are
/// scanned as the lines are parsed, so memory stays proportional to what is
/// kept, not to the file. Thread-compatible.
ParsedFile Parse(const SourceFile& file);
/// The same over text (offsets into it).
ParsedFile Parse(std::string_view text);

/// Parse(text) from the parse of an older text of the same file: the entries
/// of the lines before the first changed byte and after the last are those of
/// `old`, moved; only the lines between are parsed. Lines are independent in
/// the grammar (no token crosses a newline), so the result equals
/// Parse(text); a capped `old` (truncated, errors past the limit) is parsed
/// whole again.
ParsedFile Reparse(const ParsedFile& old, std::string_view old_text, std::string_view text);

/// Tokens of `file`, scanned with the grammar's generated lexer (no tree).
std::vector<Token> Tokenize(const SourceFile& file);
std::vector<Token> Tokenize(std::string_view text);
/// The same tokens read from a full tree-sitter parse (as editors see them);
/// tests hold the two to each other.
std::vector<Token> TokenizeWithTree(const SourceFile& file);

/// DeescapeQuotedString's rules: strips the quotes, '' -> ', \b \f \n \r \t,
/// \ooo octal, \x -> x; a NUL ends the value.
std::string UnescapeString(std::string_view quoted);

/// escape_single_quotes_ascii: ' and \ doubled, as ALTER SYSTEM writes a
/// value between quotes into postgresql.auto.conf (and `format` writes every
/// value). UnescapeString("'" + EscapeAutoConfValue(v) + "'") == v.
std::string EscapeAutoConfValue(std::string_view value);

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_MODEL_SYNTAX_H_
