// Tokens from tree-sitter, then PostgreSQL's one-line grammar (guc-file.l's
// ParseConfigFp) over them.
#include "core/model/syntax.h"

#include <tree_sitter/api.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstring>
#include <memory>

#include "core/base/limits.h"
#include "tree_sitter_pgconf.h"

namespace pgconflint {
namespace {

constexpr uint8_t kNotAToken = 0xff;

// Maps grammar symbols to token kinds once per process.
class SymbolTable {
 public:
  SymbolTable() {
    const TSLanguage* lang = tree_sitter_pgconf();
    kinds_.fill(kNotAToken);
    Map(lang, "identifier", true, TokenKind::kIdentifier);
    Map(lang, "qualified_identifier", true, TokenKind::kQualifiedIdentifier);
    Map(lang, "string", true, TokenKind::kString);
    Map(lang, "unquoted_string", true, TokenKind::kUnquotedString);
    Map(lang, "integer", true, TokenKind::kInteger);
    Map(lang, "real", true, TokenKind::kReal);
    Map(lang, "invalid_char", true, TokenKind::kInvalidChar);
    Map(lang, "comment", true, TokenKind::kComment);
    Map(lang, "=", false, TokenKind::kEquals);
  }
  uint8_t Kind(TSSymbol s) const { return s < kinds_.size() ? kinds_[s] : kNotAToken; }

 private:
  void Map(const TSLanguage* lang, const char* name, bool named, TokenKind kind) {
    TSSymbol s = ts_language_symbol_for_name(lang, name, static_cast<uint32_t>(strlen(name)), named);
    if (s != 0 && s < kinds_.size()) kinds_[s] = static_cast<uint8_t>(kind);
  }
  std::array<uint8_t, 256> kinds_;
};

const SymbolTable& Symbols() {
  static const SymbolTable table;
  return table;
}

struct ParserDeleter {
  void operator()(TSParser* p) const { ts_parser_delete(p); }
};
struct TreeDeleter {
  void operator()(TSTree* t) const { ts_tree_delete(t); }
};

TSParser* ThreadParser() {
  thread_local std::unique_ptr<TSParser, ParserDeleter> parser([] {
    TSParser* p = ts_parser_new();
    ts_parser_set_language(p, tree_sitter_pgconf());
    return p;
  }());
  return parser.get();
}

bool IsBlankOrNewline(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

// Bytes between tokens that tree-sitter skipped (error recovery) become
// single-character invalid tokens, so that nothing in the file is ever lost.
void AddGap(const std::string& text, uint32_t from, uint32_t to, std::vector<Token>* out) {
  for (uint32_t i = from; i < to; ++i) {
    if (IsBlankOrNewline(text[i])) continue;
    uint32_t e = i + 1;
    while (e < to && (static_cast<unsigned char>(text[e]) & 0xC0) == 0x80) ++e;
    out->push_back({TokenKind::kInvalidChar, {i, e}});
    i = e - 1;
  }
}

// The grammar's DFA sees a normalized copy of the text: bytes >= 0x80 become
// '_' and NUL '$', which belong to exactly the same flex classes (see
// tree_sitter_pgconf.h); offsets are unchanged and token text comes from the
// original. This also keeps tree-sitter from skipping a leading byte order
// mark, whose bytes PostgreSQL reads as letters.
std::string_view Normalized(std::string_view text) {
  // Most files are ASCII without NUL: then the text is its own normal form.
  bool plain = true;
  for (unsigned char c : text) plain &= c != 0 && c < 0x80;
  if (plain) return text;
  thread_local std::string buf;
  buf.resize(text.size());
  tree_sitter_pgconf_normalize(buf.data(), text.data(), text.size());
  return buf;
}

}  // namespace

namespace {

// The file's tokens in order, scanned on demand. A file that is all ASCII
// without NUL is scanned in place; any other is normalized (Normalized) a
// chunk of whole lines at a time (no token spans a newline), so that no copy
// of a large file is ever made.
class TokenStream {
 public:
  explicit TokenStream(std::string_view text) : text_(text), symbols_(Symbols()) {
    plain_ = true;
    for (unsigned char c : text) plain_ &= c != 0 && c < 0x80;
  }

  bool Next(Token* out) {
    PgconfToken t;
    for (;;) {
      bool got = plain_ ? tree_sitter_pgconf_next_token(text_.data(), static_cast<uint32_t>(text_.size()), &pos_, &t)
                        : tree_sitter_pgconf_next_token(chunk_.data(), static_cast<uint32_t>(chunk_.size()), &pos_, &t);
      if (!got) {
        if (plain_ || !Refill()) return false;
        continue;
      }
      uint8_t kind = t.symbol == 0xFFFF ? static_cast<uint8_t>(TokenKind::kInvalidChar) : symbols_.Kind(t.symbol);
      if (kind == kNotAToken) continue;  // the newline token: lines come from the line table
      *out = {static_cast<TokenKind>(kind), {t.begin + chunk_begin_, t.end + chunk_begin_}};
      return true;
    }
  }

 private:
  static constexpr size_t kChunk = 64 << 10;

  bool Refill() {
    const size_t begin = chunk_begin_ + chunk_.size();
    if (begin >= text_.size()) return false;
    size_t end = text_.find('\n', std::min(begin + kChunk, text_.size()) - 1);
    end = end == std::string::npos ? text_.size() : end + 1;
    chunk_.resize(end - begin);
    tree_sitter_pgconf_normalize(chunk_.data(), text_.data() + begin, end - begin);
    chunk_begin_ = static_cast<uint32_t>(begin);
    pos_ = 0;
    return true;
  }

  std::string_view text_;
  const SymbolTable& symbols_;
  bool plain_;
  std::string chunk_;         // normalized text_[chunk_begin_, chunk_begin_ + chunk_.size())
  uint32_t chunk_begin_ = 0;  // 0 when plain_
  uint32_t pos_ = 0;          // in text_ (plain_) or chunk_
};

}  // namespace

std::vector<Token> Tokenize(const SourceFile& file) { return Tokenize(std::string_view(file.text())); }

std::vector<Token> Tokenize(std::string_view text) {
  std::vector<Token> tokens;
  TokenStream stream(text);
  for (Token t; stream.Next(&t);) tokens.push_back(t);
  return tokens;
}

std::vector<Token> TokenizeWithTree(const SourceFile& file) {
  const std::string& text = file.text();
  std::string_view norm = Normalized(text);
  std::vector<Token> tokens;
  std::unique_ptr<TSTree, TreeDeleter> tree(
      ts_parser_parse_string(ThreadParser(), nullptr, norm.data(), static_cast<uint32_t>(norm.size())));
  const SymbolTable& symbols = Symbols();
  uint32_t covered = 0;
  if (tree) {
    TSTreeCursor cursor = ts_tree_cursor_new(ts_tree_root_node(tree.get()));
    bool more = true;
    while (more) {
      TSNode node = ts_tree_cursor_current_node(&cursor);
      uint8_t kind = symbols.Kind(ts_node_symbol(node));
      bool leaf = ts_node_child_count(node) == 0;
      if (kind != kNotAToken || leaf) {
        uint32_t b = ts_node_start_byte(node), e = ts_node_end_byte(node);
        if (b >= covered) {
          AddGap(text, covered, b, &tokens);
          if (kind != kNotAToken && !ts_node_is_missing(node)) {
            tokens.push_back({static_cast<TokenKind>(kind), {b, e}});
          } else {
            AddGap(text, b, e, &tokens);  // ERROR leaves and newlines
          }
          covered = std::max(covered, e);
        }
        // A token node is never descended into.
        if (ts_tree_cursor_goto_next_sibling(&cursor)) continue;
        while ((more = ts_tree_cursor_goto_parent(&cursor)) && !ts_tree_cursor_goto_next_sibling(&cursor)) {
        }
        continue;
      }
      if (!ts_tree_cursor_goto_first_child(&cursor)) {
        if (ts_tree_cursor_goto_next_sibling(&cursor)) continue;
        while ((more = ts_tree_cursor_goto_parent(&cursor)) && !ts_tree_cursor_goto_next_sibling(&cursor)) {
        }
      }
    }
    ts_tree_cursor_delete(&cursor);
  }
  AddGap(text, covered, static_cast<uint32_t>(text.size()), &tokens);
  return tokens;
}

std::string UnescapeString(std::string_view quoted) {
  std::string out;
  if (quoted.size() < 2) return out;
  std::string_view s = quoted.substr(1, quoted.size() - 2);
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '\\' && i + 1 < s.size()) {
      char n = s[++i];
      switch (n) {
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': {
          int v = n - '0';
          for (int k = 0; k < 2 && i + 1 < s.size() && s[i + 1] >= '0' && s[i + 1] <= '7'; ++k)
            v = v * 8 + (s[++i] - '0');
          out += static_cast<char>(v & 0xff);
          break;
        }
        default: out += n; break;
      }
    } else if (c == '\'' && i + 1 < s.size() && s[i + 1] == '\'') {
      out += '\'';
      ++i;
    } else {
      out += c;
    }
  }
  // The server keeps a C string: an escaped NUL ends the value.
  if (size_t nul = out.find('\0'); nul != std::string::npos) out.resize(nul);
  return out;
}

namespace {

std::string_view Slice(std::string_view text, Range r) { return text.substr(r.begin, r.end - r.begin); }

// As ReadDirectives (directives.cc) finds them: '#', blanks, "pgconflint:".
bool HoldsDirective(std::string_view comment) {
  size_t i = 1;
  while (i < comment.size() && (comment[i] == ' ' || comment[i] == '\t' || comment[i] == '\r')) ++i;
  return comment.substr(i, 11) == "pgconflint:";
}

bool IsValueToken(TokenKind k) {
  return k == TokenKind::kIdentifier || k == TokenKind::kString || k == TokenKind::kInteger ||
         k == TokenKind::kReal || k == TokenKind::kUnquotedString;
}

const char* ExpectedAfter(int state) {
  switch (state) {
    case 0: return "a parameter name (letters, digits and underscores, at most one dot)";
    case 1: return "'=' or a value";
    case 2: return "a value";
    default: return "the end of the line";
  }
}

// "#name = ...": a setting commented out (a finding about the parameter's
// default is placed there).
bool LooksCommentedOut(std::string_view comment) {
  size_t i = comment.find_first_not_of(" \t\r", 1);
  size_t name = i;
  while (i < comment.size() && (isalnum(static_cast<unsigned char>(comment[i])) || comment[i] == '_' || comment[i] == '.'))
    ++i;
  if (name == std::string_view::npos || i == name) return false;
  i = comment.find_first_not_of(" \t", i);
  return i != std::string_view::npos && comment[i] == '=';
}

// One line's tokens (in order; a comment can only be the last) as
// ParseConfigFp reads them: name, optional '=', value, then end of line.
void ParseLine(std::string_view text, uint32_t line, const std::vector<Token>& tokens, ParsedFile* out) {
  size_t last = tokens.size();
  Range comment{};
  if (tokens.back().kind == TokenKind::kComment) {
    comment = tokens.back().range;
    --last;
    // Kept: directives, comments after a setting, settings commented out.
    std::string_view body = Slice(text, comment);
    if (last > 0 || HoldsDirective(body) || LooksCommentedOut(body)) out->comments.push_back({line, comment, last == 0});
  }
  if (last == 0) return;
  auto error = [&](SyntaxError e) {
    if (out->error_count++ <= kMaxSyntaxErrors) out->errors.push_back(std::move(e));
  };
  int state = 0;
  bool ok = true;
  SettingLine s{line, {}, {}, false, {}, comment};
  for (size_t k = 0; k < last && ok; ++k) {
    const Token& t = tokens[k];
    const int at = state;
    switch (state) {
      case 0:
        ok = t.kind == TokenKind::kIdentifier || t.kind == TokenKind::kQualifiedIdentifier;
        s.name = t.range;
        state = 1;
        break;
      case 1:
        if (t.kind == TokenKind::kEquals) {
          state = 2;
          break;
        }
        [[fallthrough]];
      case 2:
        ok = IsValueToken(t.kind);
        s.value = t.range;
        s.quoted = t.kind == TokenKind::kString;
        state = 3;
        break;
      default:
        ok = false;
        break;
    }
    if (!ok)
      error({line, t.range, false, std::string(Slice(text, t.range)), ExpectedAfter(at), at > 0 ? s.name : Range{},
             at == 3 ? s.value : Range{}});
  }
  if (ok && state < 3) {
    // Ran out of tokens before the value: "near end of line".
    uint32_t eol = tokens[last - 1].range.end;
    error({line, {eol, eol}, true, "", ExpectedAfter(state), s.name, Range{}});
    ok = false;
  }
  if (ok) {
    std::string_view v = Slice(text, s.value);
    s.value_text = s.quoted ? UnescapeString(v) : std::string(v);
    out->settings.push_back(std::move(s));
  }
}

constexpr size_t kTokensDecidingALine = 4;

}  // namespace

std::string EscapeAutoConfValue(std::string_view value) {
  std::string out;
  out.reserve(value.size());
  for (char c : value) {
    if (c == '\'' || c == '\\') out += c;
    out += c;
  }
  return out;
}

ParsedFile Parse(const SourceFile& file) { return Parse(std::string_view(file.text())); }

ParsedFile Parse(std::string_view text) {
  ParsedFile out;
  TokenStream stream(text);
  // Tokens are in file order: walk the line starts alongside them instead of
  // searching the line table for every token.
  const std::string_view all(text);
  uint32_t line = 1;
  size_t line_end = all.find('\n');  // offset of the current line's newline
  std::vector<Token> tokens;          // the current line's
  Token t;
  bool more = stream.Next(&t);
  while (more) {
    while (line_end != std::string_view::npos && t.range.begin > line_end) {
      ++line;
      line_end = all.find('\n', line_end + 1);
    }
    // A line's verdict is decided by its first four tokens (name, '=',
    // value, one too many) and whether the last is a comment: only those are
    // kept, so a line of millions of tokens (NUL bytes) costs no more memory
    // than a short one.
    tokens.clear();
    while (more && (line_end == std::string_view::npos || t.range.begin < line_end)) {
      if (tokens.size() <= kTokensDecidingALine) tokens.push_back(t);
      else tokens.back() = t;  // the last, which may be a comment
      more = stream.Next(&t);
    }
    ParseLine(text, line, tokens, &out);
    if (out.settings.size() + out.comments.size() + out.errors.size() > kMaxEntriesPerRoot) {
      out.truncated = true;
      break;
    }
  }
  return out;
}

namespace {

uint32_t CountLines(std::string_view text) { return static_cast<uint32_t>(std::count(text.begin(), text.end(), '\n')); }

// Entries of one kind: old's before the changed lines (line < first), the
// changed lines' own (moved to `start`, line `first`), old's after them (line
// > old_last, moved by the change in size and in lines).
template <typename Entry, typename MoveRanges>
std::vector<Entry> Splice(const std::vector<Entry>& old, std::vector<Entry> changed, uint32_t first,
                          uint32_t old_last, uint32_t start, int64_t size_delta, int64_t line_delta,
                          MoveRanges move_ranges) {
  std::vector<Entry> out;
  out.reserve(old.size() + changed.size());
  size_t i = 0;
  for (; i < old.size() && old[i].line < first; ++i) out.push_back(old[i]);
  for (Entry& e : changed) {
    e.line += first - 1;
    move_ranges(&e, static_cast<int64_t>(start));
    out.push_back(std::move(e));
  }
  for (; i < old.size(); ++i) {
    if (old[i].line <= old_last) continue;
    Entry e = old[i];
    e.line = static_cast<uint32_t>(e.line + line_delta);
    move_ranges(&e, size_delta);
    out.push_back(std::move(e));
  }
  return out;
}

// A range moved by `by` bytes. The optional ranges of an entry (a setting's
// comment, an error's name and value) are {0, 0} when absent and are moved
// only when present: none is empty when present.
void Shift(Range* r, int64_t by) {
  r->begin = static_cast<uint32_t>(r->begin + by);
  r->end = static_cast<uint32_t>(r->end + by);
}

}  // namespace

ParsedFile Reparse(const ParsedFile& old, std::string_view old_text, std::string_view text) {
  if (old.truncated || old.error_count > kMaxSyntaxErrors) return Parse(text);
  const size_t n = std::min(old_text.size(), text.size());
  size_t prefix = static_cast<size_t>(std::mismatch(text.begin(), text.begin() + n, old_text.begin()).first - text.begin());
  size_t suffix = 0;
  while (suffix < n - prefix && old_text[old_text.size() - 1 - suffix] == text[text.size() - 1 - suffix]) ++suffix;
  // The changed lines: from the start of the line of the first changed byte
  // to the end (newline included) of the line of the last, in both texts.
  const size_t nl = prefix == 0 ? std::string_view::npos : text.rfind('\n', prefix - 1);
  const size_t start = nl == std::string_view::npos ? 0 : nl + 1;
  auto end_of = [&](std::string_view t) {
    size_t e = t.find('\n', std::max(t.size() - suffix, start));
    return e == std::string_view::npos ? t.size() : e + 1;
  };
  const size_t old_end = end_of(old_text), new_end = end_of(text);
  const std::string_view old_region = old_text.substr(start, old_end - start);
  const std::string_view new_region = text.substr(start, new_end - start);
  const uint32_t first = CountLines(text.substr(0, start)) + 1;
  const uint32_t old_lines = CountLines(old_region) + (!old_region.empty() && old_region.back() != '\n' ? 1 : 0);
  const uint32_t new_lines = CountLines(new_region) + (!new_region.empty() && new_region.back() != '\n' ? 1 : 0);
  const uint32_t old_last = first + old_lines - 1;  // first - 1 when the old region is empty
  const int64_t size_delta = static_cast<int64_t>(text.size()) - static_cast<int64_t>(old_text.size());
  const int64_t line_delta = static_cast<int64_t>(new_lines) - static_cast<int64_t>(old_lines);

  ParsedFile region = Parse(new_region);
  ParsedFile out;
  out.settings = Splice(old.settings, std::move(region.settings), first, old_last, start, size_delta, line_delta,
                        [](SettingLine* e, int64_t by) {
                          Shift(&e->name, by);
                          Shift(&e->value, by);
                          if (e->comment.end > e->comment.begin) Shift(&e->comment, by);
                        });
  out.errors = Splice(old.errors, std::move(region.errors), first, old_last, start, size_delta, line_delta,
                      [](SyntaxError* e, int64_t by) {
                        Shift(&e->near, by);
                        if (e->name.end > e->name.begin) Shift(&e->name, by);
                        if (e->value.end > e->value.begin) Shift(&e->value, by);
                      });
  out.comments = Splice(old.comments, std::move(region.comments), first, old_last, start, size_delta, line_delta,
                        [](CommentLine* e, int64_t by) { Shift(&e->range, by); });
  out.error_count = out.errors.size();
  // Past a limit, the whole file decides what is kept: parse it as a whole.
  if (region.truncated || region.error_count > kMaxSyntaxErrors || out.error_count > kMaxSyntaxErrors ||
      out.settings.size() + out.comments.size() + out.errors.size() > kMaxEntriesPerRoot)
    return Parse(text);
  return out;
}

}  // namespace pgconflint
