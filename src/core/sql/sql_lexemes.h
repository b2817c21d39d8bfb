// The pieces of PostgreSQL's lexer (scan.l) that need no scanner state: the
// character classes, identifier truncation, the escapes of E'' and U&''
// literals, the continuation of a literal on the next line, and which integer
// constants are int4. Used by the SQL scanner (sql_scanner.cc).
#ifndef PGCONFLINT_CORE_SQL_SQL_LEXEMES_H_
#define PGCONFLINT_CORE_SQL_SQL_LEXEMES_H_

#include <cstddef>
#include <string>
#include <string_view>

namespace pgconflint {

inline bool SqlIsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }
inline bool SqlIsDigit(char c) { return c >= '0' && c <= '9'; }
inline bool SqlIsHex(char c) { return SqlIsDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
inline bool SqlIsOct(char c) { return c >= '0' && c <= '7'; }
inline bool SqlIsBin(char c) { return c == '0' || c == '1'; }
/// scan.l: ident_start [A-Za-z\200-\377_].
inline bool SqlIdentStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || static_cast<unsigned char>(c) >= 0x80;
}
/// scan.l: ident_cont adds [0-9\$].
inline bool SqlIdentCont(char c) { return SqlIdentStart(c) || SqlIsDigit(c) || c == '$'; }
/// scan.l: dolq_cont, without '$'.
inline bool SqlDollarCont(char c) { return SqlIdentStart(c) || SqlIsDigit(c); }
/// scan.l: op_chars.
inline bool SqlOpChar(char c) { return std::string_view("~!@#^&|`?+-*/%<>=").find(c) != std::string_view::npos; }

/// Appends code point `c` to `out` in UTF-8.
void AppendUtf8(char32_t c, std::string* out);

/// truncate_identifier with pg_mbcliplen in UTF-8: at most `max_length`
/// bytes, never cutting a character.
void TruncateIdentifier(std::string* s, int max_length);

/// The E'' escape at s[i] (a backslash with at least one byte after it):
/// appends what it stands for (xeescape, xeoctesc, xehexesc, xeunicode) and
/// returns the index after it.
size_t DecodeEscape(std::string_view s, size_t i, std::string* value);

/// The escapes of a U&'' or U&"" body (\XXXX, \+XXXXXX, \\ with the default
/// escape character, or `escape` of a UESCAPE clause). False when one is
/// malformed.
bool DecodeUnicodeEscapes(std::string_view body, std::string* out, char escape = '\\');

/// scan.l's quotecontinue after a closing quote at s[i-1]: blanks, a
/// newline, then blanks, newlines and -- comments, then a quote. The index
/// after that quote, or npos when the literal does not continue.
size_t LiteralContinuation(std::string_view s, size_t i);

/// process_integer_literal: the value of an integer constant (digits, with
/// _ separators and a 0x/0o/0b prefix as written) when it fits an int4.
bool Int4Literal(std::string_view text, long long* value);

/// pg_verifymbstr's report: the bytes of the first invalid sequence (as
/// many as its first byte announces, pg_utf_mblen), "0xe2 0x28"; "" when
/// `v` is valid UTF-8.
std::string SqlInvalidUtf8(std::string_view v);

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_SQL_SQL_LEXEMES_H_
