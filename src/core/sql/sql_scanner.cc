// The SQL scanner: scan.l's token rules (as far as configuration statements
// need them) and psqlscan.l's statement splitting.
#include "core/sql/sql_scanner.h"

#include <algorithm>

#include "core/base/source_file.h"
#include "core/sql/sql_lexemes.h"

namespace pgconflint {

class SqlStatementScanner::Impl {
 public:
  Impl(std::string_view s, const SqlScanOptions& o) : s_(s), o_(o), facts_(*o.facts) {}

  // The next statement, lexed with `mode`; false at the end of the text.
  bool Next(const SqlLexerMode& mode, SqlStatementTokens* out) {
    mode_ = mode;
    while (taken_ == out_.size() && !ended_) {
      if (Skip()) {
        Token();
      } else {
        EndStatement(false);
        ended_ = true;
      }
    }
    if (taken_ == out_.size()) return false;
    *out = std::move(out_[taken_++]);
    if (taken_ == out_.size()) {
      out_.clear();
      taken_ = 0;
    }
    return true;
  }

 private:
  void Token() {
    size_t start = i_;
    char c = s_[i_];
    if (c == '\\') {
      BackslashCommand();
    } else if (c == '\'') {
      StringToken(start, i_, !mode_.standard_strings);
    } else if ((c == 'e' || c == 'E') && Peek(1) == '\'') {
      StringToken(start, i_ + 1, true);
    } else if ((c == 'n' || c == 'N') && Peek(1) == '\'') {
      StringToken(start, i_ + 1, !mode_.standard_strings);
    } else if ((c == 'b' || c == 'B' || c == 'x' || c == 'X') && Peek(1) == '\'') {
      BitString(start);
    } else if ((c == 'u' || c == 'U') && Peek(1) == '&' && (Peek(2) == '\'' || Peek(2) == '"')) {
      UnicodeToken(start);
    } else if (c == '"') {
      QuotedIdentifier(start, i_, false);
    } else if (c == '$') {
      Dollar(start);
    } else if (SqlIsDigit(c) || (c == '.' && SqlIsDigit(Peek(1)))) {
      Number(start);
    } else if (SqlIdentStart(c)) {
      Identifier(start);
    } else if (c == ':') {
      Colon(start);
    } else if (SqlOpChar(c)) {
      Operator(start);
    } else {
      ++i_;
      Add(SqlTokenKind::kOperator, start, std::string(1, c));
    }
  }

  char Peek(size_t ahead) const { return i_ + ahead < s_.size() ? s_[i_ + ahead] : '\0'; }

  // Skips blanks and comments; false at the end of the text.
  bool Skip() {
    while (i_ < s_.size()) {
      if (SqlIsSpace(s_[i_])) {
        ++i_;
      } else if (s_[i_] == '-' && Peek(1) == '-') {
        while (i_ < s_.size() && s_[i_] != '\n') ++i_;
      } else if (s_[i_] == '/' && Peek(1) == '*') {
        if (!BlockComment()) return false;
      } else {
        return true;
      }
    }
    return false;
  }

  // Nested /* */; an unterminated comment is an error that ends the text.
  bool BlockComment() {
    size_t start = i_;
    int depth = 0;
    while (i_ < s_.size()) {
      if (s_[i_] == '/' && Peek(1) == '*') {
        ++depth;
        i_ += 2;
      } else if (s_[i_] == '*' && Peek(1) == '/') {
        i_ += 2;
        if (--depth == 0) return true;
      } else {
        ++i_;
      }
    }
    Error(start, "unterminated_comment");
    return false;
  }

  void Add(SqlTokenKind kind, size_t start, std::string value) {
    const Range range{static_cast<uint32_t>(start), static_cast<uint32_t>(i_)};
    const bool op = kind == SqlTokenKind::kOperator;
    if (op && value == ";" && paren_depth_ == 0 && begin_depth_ == 0) {
      cur_.semicolon = range;
      EndStatement(true);
      return;
    }
    if (op && value == "(") ++paren_depth_;
    if (op && value == ")" && paren_depth_ > 0) --paren_depth_;
    if (kind == SqlTokenKind::kIdentifier) TrackBeginEnd(value);
    if (cur_.tokens.empty()) cur_.range.begin = range.begin;
    cur_.range.end = range.end;
    cur_.tokens.push_back(SqlToken{kind, range, std::move(value)});
  }

  // A lexer error: the message names the text from `start` (at most a line).
  void Error(size_t start, const char* key) {
    // A token that runs to the end of the text ends on its last line, not
    // after the final line break: the range ends there, scanning goes on
    // from `resume`.
    const size_t resume = i_;
    while (i_ > start + 1 && (s_[i_ - 1] == '\n' || s_[i_ - 1] == '\r')) --i_;
    std::string near(s_.substr(start, i_ - start));
    size_t nl = near.find('\n');
    if (nl != std::string::npos || near.size() > 60) near = near.substr(0, std::min<size_t>(nl, 60)) + "...";
    Add(SqlTokenKind::kError, start, facts_.Message(key, {{"token", near}}));
    i_ = resume;
  }

  void EndStatement(bool terminated) {
    if (!cur_.tokens.empty()) {
      cur_.terminated = terminated;
      out_.push_back(std::move(cur_));
    }
    cur_ = SqlStatementTokens();
    paren_depth_ = begin_depth_ = 0;
    identifier_count_ = 0;
  }

  // psqlscan.l: inside CREATE [OR REPLACE] FUNCTION|PROCEDURE, BEGIN ... END
  // (and CASE ... END within it) hide semicolons.
  void TrackBeginEnd(const std::string& word) {
    if (identifier_count_ == 0) std::fill(std::begin(identifiers_), std::end(identifiers_), '\0');
    if (word == "create" || word == "function" || word == "procedure" || word == "or" || word == "replace")
      if (identifier_count_ < 4) identifiers_[identifier_count_] = word[0];
    ++identifier_count_;
    const char* id = identifiers_;
    bool in_function = id[0] == 'c' && (id[1] == 'f' || id[1] == 'p' ||
                                        (id[1] == 'o' && id[2] == 'r' && (id[3] == 'f' || id[3] == 'p')));
    if (!in_function || paren_depth_ != 0) return;
    if (word == "begin") ++begin_depth_;
    else if (word == "case" && begin_depth_ >= 1) ++begin_depth_;
    else if (word == "end" && begin_depth_ > 0) --begin_depth_;
  }

  // psql runs a backslash command to the end of the line; \g and its
  // variants send the statement so far.
  void BackslashCommand() {
    size_t name = ++i_;
    while (i_ < s_.size() && !SqlIsSpace(s_[i_]) && s_[i_] != '\\') ++i_;
    std::string_view cmd = s_.substr(name, i_ - name);
    while (i_ < s_.size() && s_[i_] != '\n') ++i_;
    if (!cmd.empty() && cmd[0] == 'g') EndStatement(false);
  }

  // Standard ('...', N'...') and escape (E'...') strings, with the SQL
  // continuation of literals separated by whitespace holding a newline.
  void StringToken(size_t start, size_t quote, bool escapes) {
    i_ = quote + 1;
    std::string value;
    bool unsafe_quote = false;  // \' with backslash_quote = off: refused once the literal ends
    while (true) {
      if (i_ >= s_.size()) return Error(start, "unterminated_string");
      char c = s_[i_];
      if (c == '\'') {
        if (Peek(1) == '\'') {
          value += '\'';
          i_ += 2;
          continue;
        }
        ++i_;
        if (!Continuation()) break;
        continue;
      }
      if (escapes && c == '\\' && i_ + 1 < s_.size()) {
        unsafe_quote = unsafe_quote || (s_[i_ + 1] == '\'' && !mode_.backslash_quote);
        i_ = DecodeEscape(s_, i_, &value);
        continue;
      }
      value += c;
      ++i_;
    }
    if (unsafe_quote && facts_.HasMessage("backslash_quote"))
      return Add(SqlTokenKind::kError, start, facts_.Message("backslash_quote"));
    // Octal and hex escapes can make bytes that are no UTF-8 (E'\377'); the
    // server checks the string in its encoding (UTF8: the harvest's servers).
    if (escapes && facts_.HasMessage("invalid_byte_sequence")) {
      std::string bytes = SqlInvalidUtf8(value);
      if (!bytes.empty())
        return Add(SqlTokenKind::kError, start, facts_.Message("invalid_byte_sequence", {{"bytes", bytes}}));
    }
    Add(SqlTokenKind::kString, start, std::move(value));
  }

  // scan.l's quotecontinue: moves past the next quote when the literal
  // continues there.
  bool Continuation() {
    size_t j = LiteralContinuation(s_, i_);
    if (j == std::string_view::npos) return false;
    i_ = j;
    return true;
  }

  void BitString(size_t start) {
    i_ += 2;
    while (i_ < s_.size() && s_[i_] != '\'') ++i_;
    if (i_ >= s_.size()) return Error(start, "unterminated_string");
    ++i_;
    Add(SqlTokenKind::kBitString, start, std::string(s_.substr(start + 2, i_ - start - 3)));
  }

  // U&'...' and U&"..." with their escapes (\XXXX, \+XXXXXX, \\), or
  // with the escape character a following UESCAPE 'c' names.
  void UnicodeToken(size_t start) {
    bool ident = Peek(2) == '"';
    size_t before = cur_.tokens.size();
    // standard_conforming_strings = off: the server refuses U&'' where it
    // starts; psql reads it as a standard string.
    if (!ident && !mode_.standard_strings && facts_.HasMessage("unicode_unsafe")) {
      StringToken(start, i_ + 2, false);
      if (cur_.tokens.size() == before + 1 && cur_.tokens.back().kind == SqlTokenKind::kString)
        cur_.tokens.back() = {SqlTokenKind::kError, cur_.tokens.back().range, facts_.Message("unicode_unsafe")};
      return;
    }
    if (ident) QuotedIdentifier(start, i_ + 2, true);
    else StringToken(start, i_ + 2, false);
    if (cur_.tokens.size() != before + 1) return;
    SqlToken& t = cur_.tokens.back();
    if (t.kind == SqlTokenKind::kError) return;
    char escape = '\\';
    size_t literal = 0;
    if (size_t end = Uescape(&escape, &literal)) {
      i_ = end;
      t.range.end = cur_.range.end = static_cast<uint32_t>(end);
      if (escape == '\0') {
        t.kind = SqlTokenKind::kError;
        t.value = "invalid Unicode escape character at or near \"" + std::string(s_.substr(literal, end - literal)) + "\"";
        return;
      }
    }
    std::string decoded;
    if (!DecodeUnicodeEscapes(t.value, &decoded, escape)) {
      t.kind = SqlTokenKind::kError;
      t.value = "invalid Unicode escape";
      return;
    }
    t.value = std::move(decoded);
  }

  // At i_ (after a U& token): blanks and comments, UESCAPE, blanks and
  // comments, then a plain string. Returns the index after that string, sets
  // *literal to where the string starts and *escape to its character ('\0' when it cannot be one: not one
  // byte, a hex digit, +, a quote or a blank); 0 when no UESCAPE follows.
  size_t Uescape(char* escape, size_t* literal) const {
    auto blanks = [this](size_t j) {
      while (j < s_.size()) {
        if (SqlIsSpace(s_[j])) ++j;
        else if (s_[j] == '-' && j + 1 < s_.size() && s_[j + 1] == '-') while (j < s_.size() && s_[j] != '\n') ++j;
        else break;
      }
      return j;
    };
    size_t j = blanks(i_);
    constexpr std::string_view kWord = "uescape";
    if (j + kWord.size() > s_.size()) return 0;
    for (size_t k = 0; k < kWord.size(); ++k)
      if ((s_[j + k] | 0x20) != kWord[k]) return 0;
    j += kWord.size();
    if (j < s_.size() && SqlIdentCont(s_[j])) return 0;
    j = blanks(j);
    if (j >= s_.size() || s_[j] != '\'') return 0;
    *literal = j;
    size_t close = s_.find('\'', j + 1);
    if (close == std::string_view::npos) return 0;
    std::string_view body = s_.substr(j + 1, close - j - 1);
    char c = body.size() == 1 ? body[0] : '\0';
    if (SqlIsHex(c) || c == '+' || c == '"' || SqlIsSpace(c)) c = '\0';
    *escape = c;
    return close + 1;
  }

  void QuotedIdentifier(size_t start, size_t quote, bool unicode) {
    i_ = quote + 1;
    std::string value;
    while (true) {
      if (i_ >= s_.size()) return Error(start, "unterminated_identifier");
      if (s_[i_] == '"') {
        if (Peek(1) == '"') {
          value += '"';
          i_ += 2;
          continue;
        }
        ++i_;
        break;
      }
      value += s_[i_++];
    }
    if (value.empty()) return Error(start, "zero_length_identifier");
    if (!unicode) TruncateIdentifier(&value, o_.max_identifier_length);
    Add(SqlTokenKind::kQuotedIdentifier, start, std::move(value));
  }

  // $1 parameters and $tag$ ... $tag$ dollar quotes.
  void Dollar(size_t start) {
    if (SqlIsDigit(Peek(1))) {
      ++i_;
      while (i_ < s_.size() && SqlIsDigit(s_[i_])) ++i_;
      return Add(SqlTokenKind::kParam, start, std::string(s_.substr(start, i_ - start)));
    }
    size_t j = i_ + 1;
    if (j < s_.size() && SqlIdentStart(s_[j]))
      while (j < s_.size() && SqlDollarCont(s_[j])) ++j;
    if (j >= s_.size() || s_[j] != '$') {
      ++i_;
      return Add(SqlTokenKind::kOperator, start, "$");
    }
    std::string_view delim = s_.substr(i_, j + 1 - i_);
    size_t body = j + 1;
    size_t close = s_.find(delim, body);
    if (close == std::string_view::npos) {
      i_ = s_.size();
      return Error(start, "unterminated_dollar");
    }
    i_ = close + delim.size();
    Add(SqlTokenKind::kString, start, std::string(s_.substr(body, close - body)));
  }

  // Digits with the major's rules: underscores and 0x/0o/0b from 16.
  size_t Digits(size_t j, bool (*digit)(char)) const {
    bool underscores = facts_.numeric_underscores();
    while (j < s_.size()) {
      if (digit(s_[j])) ++j;
      else if (underscores && s_[j] == '_' && j + 1 < s_.size() && digit(s_[j + 1])) j += 2;
      else break;
    }
    return j;
  }

  // 0x1F, 0o17, 0b101 (16+): the end of the digits, or 0 when `i_` starts none.
  size_t NonDecimal() const {
    if (!facts_.non_decimal_integers() || s_[i_] != '0' || i_ + 2 >= s_.size()) return 0;
    char p = s_[i_ + 1];
    bool (*digit)(char) = (p == 'x' || p == 'X') ? SqlIsHex : (p == 'o' || p == 'O') ? SqlIsOct
                        : (p == 'b' || p == 'B') ? SqlIsBin : nullptr;
    if (!digit) return 0;
    size_t j = i_ + 2;
    if (s_[j] == '_' && j + 1 < s_.size() && digit(s_[j + 1])) ++j;
    if (!digit(s_[j])) return 0;
    return Digits(j, digit);
  }

  void Number(size_t start) {
    if (size_t end = NonDecimal()) return FinishNumber(start, end, true);
    bool integer = true;
    size_t j = Digits(i_, SqlIsDigit);
    if (j < s_.size() && s_[j] == '.' && !(j + 1 < s_.size() && s_[j + 1] == '.')) {
      integer = false;
      j = Digits(j + 1, SqlIsDigit);
    }
    if (j < s_.size() && (s_[j] == 'e' || s_[j] == 'E')) {
      size_t k = j + 1;
      if (k < s_.size() && (s_[k] == '+' || s_[k] == '-')) ++k;
      if (k < s_.size() && SqlIsDigit(s_[k])) {
        integer = false;
        j = Digits(k, SqlIsDigit);
      } else if (facts_.numeric_junk() && k > j + 1) {
        i_ = k;  // realfail: "1e+" is junk from 15 ("1e" is a number and an identifier)
        return Error(start, "junk");
      }
    }
    FinishNumber(start, j, integer);
  }

  // From 15 a number followed by identifier characters is one bad token; up
  // to 14 they are two tokens.
  void FinishNumber(size_t start, size_t end, bool integer) {
    i_ = end;
    if (facts_.numeric_junk() && i_ < s_.size() && SqlIdentStart(s_[i_])) {
      while (i_ < s_.size() && SqlIdentCont(s_[i_])) ++i_;
      return Error(start, "junk");
    }
    std::string text(s_.substr(start, end - start));
    if (!integer) return Add(SqlTokenKind::kNumeric, start, std::move(text));
    // process_integer_literal: an int32 is an integer, anything larger a
    // numeric constant spelled as written.
    long long v = 0;
    if (!Int4Literal(text, &v)) return Add(SqlTokenKind::kNumeric, start, std::move(text));
    Add(SqlTokenKind::kInteger, start, std::to_string(v));
  }

  void Identifier(size_t start) {
    while (i_ < s_.size() && SqlIdentCont(s_[i_])) ++i_;
    std::string v(s_.substr(start, i_ - start));
    for (char& c : v)
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    TruncateIdentifier(&v, o_.max_identifier_length);
    Add(SqlTokenKind::kIdentifier, start, std::move(v));
  }

  // psql variables (:name, :'name', :"name"), "::" and ":=".
  void Colon(size_t start) {
    char n = Peek(1);
    if (n == ':' || n == '=') {
      i_ += 2;
      return Add(SqlTokenKind::kOperator, start, std::string(s_.substr(start, 2)));
    }
    if (n == '\'' || n == '"') {
      size_t close = s_.find(n, i_ + 2);
      if (close != std::string_view::npos && s_.substr(i_ + 2, close - i_ - 2).find('\n') == std::string_view::npos) {
        i_ = close + 1;
        return Add(SqlTokenKind::kPsqlVariable, start, std::string(s_.substr(start, i_ - start)));
      }
    } else if (SqlIdentCont(n) && n != '$') {
      i_ += 1;
      while (i_ < s_.size() && (SqlIdentCont(s_[i_]) && s_[i_] != '$')) ++i_;
      return Add(SqlTokenKind::kPsqlVariable, start, std::string(s_.substr(start, i_ - start)));
    }
    ++i_;
    Add(SqlTokenKind::kOperator, start, ":");
  }

  // scan.l's {operator} rule: stops before an embedded comment start; a
  // trailing + or - is given back unless the operator has a character SQL
  // operators lack.
  void Operator(size_t start) {
    size_t j = i_;
    while (j < s_.size() && SqlOpChar(s_[j])) {
      if (j > i_ && ((s_[j] == '*' && s_[j - 1] == '/') || (s_[j] == '-' && s_[j - 1] == '-'))) {
        --j;
        break;
      }
      ++j;
    }
    size_t n = j - i_;
    if (n > 1 && (s_[i_ + n - 1] == '+' || s_[i_ + n - 1] == '-')) {
      bool keep = false;
      for (size_t k = 0; k + 1 < n; ++k) keep = keep || std::string_view("~!@#^&|`?%").find(s_[i_ + k]) != std::string_view::npos;
      while (!keep && n > 1 && (s_[i_ + n - 1] == '+' || s_[i_ + n - 1] == '-')) --n;
    }
    i_ += std::max<size_t>(n, 1);
    Add(SqlTokenKind::kOperator, start, std::string(s_.substr(start, i_ - start)));
  }

  std::string_view s_;
  const SqlScanOptions o_;
  const SqlFacts& facts_;
  SqlLexerMode mode_;
  size_t i_ = 0;
  bool ended_ = false;
  std::vector<SqlStatementTokens> out_;  // statements ended, from taken_ on not yet returned
  size_t taken_ = 0;
  SqlStatementTokens cur_;
  int paren_depth_ = 0, begin_depth_ = 0, identifier_count_ = 0;
  char identifiers_[4] = {0, 0, 0, 0};
};

SqlStatementScanner::SqlStatementScanner(std::string_view text, const SqlScanOptions& options)
    : impl_(std::make_unique<Impl>(text, options)) {}
SqlStatementScanner::~SqlStatementScanner() = default;

bool SqlStatementScanner::Next(const SqlLexerMode& mode, SqlStatementTokens* out) { return impl_->Next(mode, out); }

std::vector<SqlStatementTokens> ScanSql(std::string_view text, const SqlScanOptions& options) {
  std::vector<SqlStatementTokens> out;
  SqlStatementScanner scanner(text, options);
  for (SqlStatementTokens st; scanner.Next(options.mode, &st);) out.push_back(std::move(st));
  return out;
}

}  // namespace pgconflint
