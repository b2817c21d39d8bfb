/*
 * Hand-written (not generated): a minimal TSLexer over a byte buffer that
 * drives tree-sitter-pgconf's generated lex function directly, without
 * building a tree. The tokens are exactly the grammar's, since the DFA is the
 * parser's own; see tree_sitter_pgconf_next_token in tree_sitter_pgconf.h.
 */
#include "tree_sitter/parser.h"
#include "tree_sitter_pgconf.h"

#include <string.h>

typedef struct {
  TSLexer lexer;
  const unsigned char *pos, *end, *token_start, *token_end;
} BufferLexer;

static void buffer_advance(TSLexer *l, bool skip) {
  BufferLexer *b = (BufferLexer *)l;
  if (b->pos < b->end) b->pos++;
  if (skip) b->token_start = b->pos; /* extras (whitespace) are not part of a token */
  b->lexer.lookahead = b->pos < b->end ? *b->pos : 0;
}

static void buffer_mark_end(TSLexer *l) {
  BufferLexer *b = (BufferLexer *)l;
  b->token_end = b->pos;
}

static uint32_t buffer_get_column(TSLexer *l) {
  (void)l;
  return 0;
}

static bool buffer_at_included_range_start(const TSLexer *l) {
  (void)l;
  return false;
}

static bool buffer_eof(const TSLexer *l) {
  const BufferLexer *b = (const BufferLexer *)l;
  return b->pos >= b->end;
}

bool tree_sitter_pgconf_next_token(const char *buf, uint32_t len, uint32_t *pos, PgconfToken *out) {
  const TSLanguage *lang = tree_sitter_pgconf();
  BufferLexer b;
  b.lexer.lookahead = 0;
  b.lexer.result_symbol = 0;
  b.lexer.advance = buffer_advance;
  b.lexer.mark_end = buffer_mark_end;
  b.lexer.get_column = buffer_get_column;
  b.lexer.is_at_included_range_start = buffer_at_included_range_start;
  b.lexer.eof = buffer_eof;
  b.pos = b.token_start = b.token_end = (const unsigned char *)buf + *pos;
  b.end = (const unsigned char *)buf + len;
  /* Fast paths for the two most common things in a postgresql.conf, both
   * trivially the grammar's own rules: extras ([ \t\r]+) are skipped, and a
   * comment is '#' up to the end of the line. The DFA would produce exactly
   * this; it only costs a callback per character. */
  while (b.pos < b.end && (*b.pos == ' ' || *b.pos == '\t' || *b.pos == '\r')) b.pos++;
  if (b.pos >= b.end) return false;
  if (*b.pos == '#') {
    const unsigned char *nl = memchr(b.pos, '\n', (size_t)(b.end - b.pos));
    static TSSymbol comment_symbol;
    if (!comment_symbol) comment_symbol = ts_language_symbol_for_name(lang, "comment", 7, true);
    out->symbol = comment_symbol;
    out->begin = (uint32_t)(b.pos - (const unsigned char *)buf);
    out->end = (uint32_t)((nl ? nl : b.end) - (const unsigned char *)buf);
    *pos = out->end;
    return true;
  }
  b.token_start = b.token_end = b.pos;
  b.lexer.lookahead = *b.pos;
  /* Parse state 1 (the start of a line) accepts every token of the grammar. */
  if (!lang->lex_fn(&b.lexer, lang->lex_modes[1].lex_state) || b.token_end <= b.token_start) {
    if (b.token_start >= b.end) return false; /* only extras were left */
    out->symbol = 0xFFFF;
    out->begin = (uint32_t)(b.token_start - (const unsigned char *)buf);
    out->end = out->begin + 1;
    *pos = out->end;
    return true;
  }
  if (b.lexer.result_symbol == 0) return false; /* ts_builtin_sym_end */
  out->symbol = b.lexer.result_symbol;
  out->begin = (uint32_t)(b.token_start - (const unsigned char *)buf);
  out->end = (uint32_t)(b.token_end - (const unsigned char *)buf);
  *pos = out->end;
  return true;
}
