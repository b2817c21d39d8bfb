// A scanner for SQL scripts that lexes as PostgreSQL's scan.l does where it
// matters for configuration statements (standard and E'' strings, U&'' and
// U&"", dollar quoting, nested /* */ and -- comments, quoted identifiers,
// case folding and truncation, numbers with the major's junk rules) and splits
// the tokens into statements as psql does (semicolons outside parentheses and
// outside BEGIN ... END bodies of CREATE FUNCTION/PROCEDURE; backslash
// commands). Never stops: a lexer error becomes an error token and scanning
// goes on where the server would have failed the statement.
#ifndef PGCONFLINT_CORE_SQL_SQL_SCANNER_H_
#define PGCONFLINT_CORE_SQL_SQL_SCANNER_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/source_file.h"
#include "core/knowledge/sql_knowledge.h"

namespace pgconflint {

enum class SqlTokenKind : uint8_t {
  kIdentifier,        // unquoted: value is ASCII-lower-cased (may be a keyword)
  kQuotedIdentifier,  // "..." or U&"...": value as written, "" unescaped
  kString,            // '...', E'...', U&'...', N'...', $$...$$: value decoded
  kBitString,         // B'...' or X'...': value as written without the prefix
  kInteger,           // value: decimal digits of an int32, else the text as written
  kNumeric,           // a decimal or real constant: value as written
  kOperator,          // punctuation and operators: value as written ("=", "(", "::")
  kParam,             // $1
  kPsqlVariable,      // :name, :'name', :"name" (psql substitutes it)
  kError,             // a lexer error: value is the message
};

struct SqlToken {
  SqlTokenKind kind;
  Range range;        // bytes of the token in the script
  std::string value;

  /// An unquoted identifier equal to `word` (lower case): a keyword as the
  /// grammar sees it.
  bool Is(std::string_view word) const { return kind == SqlTokenKind::kIdentifier && value == word; }
  bool IsOp(std::string_view op) const { return kind == SqlTokenKind::kOperator && value == op; }
};

/// One statement as psql sends it: its tokens, without the closing semicolon.
struct SqlStatementTokens {
  Range range;                  // from its first to its last token
  std::vector<SqlToken> tokens;
  bool terminated = false;      // ended by ';' (else by the end of the script or \g)
  Range semicolon;              // the ';' that ends it, when terminated
};

/// How the server's lexer reads string constants, as the session's settings
/// say: standard_conforming_strings (off: '' and N'' take backslash escapes
/// like E'', and U&'' is refused), and whether backslash_quote allows \' in
/// them (anything but off: the scripts' client encoding is UTF8, a safe one).
struct SqlLexerMode {
  bool standard_strings = true;
  bool backslash_quote = true;
};

struct SqlScanOptions {
  const SqlFacts* facts = nullptr;  // REQUIRES: non-null (the major's lexer facts)
  int max_identifier_length = 63;   // NAMEDATALEN - 1: longer identifiers are truncated
  SqlLexerMode mode;                // ScanSql's mode for every statement
};

/// Splits a script into statements one at a time, each lexed with the mode
/// the statements before it leave (psql and the server read a statement
/// after the SET standard_conforming_strings before it ran). Comments and
/// psql backslash commands are skipped. Linear in the size of the text,
/// which must outlive the scanner.
class SqlStatementScanner {
 public:
  SqlStatementScanner(std::string_view text, const SqlScanOptions& options);
  ~SqlStatementScanner();
  /// The next statement into *out, lexed with `mode`; false at the end of the text.
  bool Next(const SqlLexerMode& mode, SqlStatementTokens* out);

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

/// Lexes `text` with options.mode throughout and splits it into statements.
std::vector<SqlStatementTokens> ScanSql(std::string_view text, const SqlScanOptions& options);

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_SQL_SQL_SCANNER_H_
