/*
 * tree-sitter-pgconf: tree-sitter grammar for postgresql.conf whose tokens are
 * exactly PostgreSQL's flex tokens (guc-file.l).  See docs/grammar.md.
 *
 * Node types: source_file, line, identifier, qualified_identifier, string,
 * unquoted_string, integer, real, comment, invalid_char, and the anonymous
 * tokens "=" and "\n".
 */
#ifndef TREE_SITTER_PGCONF_H_
#define TREE_SITTER_PGCONF_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <tree_sitter/api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The language (ABI 14, for libtree-sitter 0.20.x and later). */
const TSLanguage *tree_sitter_pgconf(void);

/*
 * Input normalization for exact flex parity.
 *
 * Flex works on bytes and every byte >= 0x80 is a LETTER.  tree-sitter
 * decodes UTF-8: valid non-ASCII code points are LETTERs in the grammar, but
 * libtree-sitter 0.20.7 reports an INVALID UTF-8 byte as lookahead -1, which
 * the generated lexer cannot classify as a letter (it becomes invalid_char
 * and splits the identifier).  The generated lexer also treats a NUL byte as
 * the end of a comment or quoted string (flex does not).
 *
 * Parse the output of this function instead of the raw bytes to get flex's
 * tokenization exactly, whatever the bytes.  It rewrites, length-preserving
 * (so every byte offset and row/column in the tree refers to the original
 * buffer; read token text from the ORIGINAL buffer):
 *   - every byte >= 0x80  -> '_'  (LETTER, LETTER_OR_DIGIT; not UNIT_LETTER,
 *                                  HEXDIGIT or DIGIT - exactly like a high
 *                                  byte in every flex class of guc-file.l)
 *   - NUL                 -> '$'  (no class but "." and [^'\\\n] - exactly
 *                                  like NUL)
 * All other bytes are copied unchanged.  dst may equal src.
 */
static inline void tree_sitter_pgconf_normalize(char *dst, const char *src,
                                                size_t len) {
  size_t i;
  for (i = 0; i < len; i++) {
    unsigned char c = (unsigned char)src[i];
    dst[i] = c >= 0x80 ? '_' : c == 0 ? '$' : (char)c;
  }
}

/*
 * Token scanning without a tree: drives the grammar's generated lexer (the
 * same DFA the parser uses, so the same tokens) over a normalized buffer.
 * About 20x faster than a full parse; the linter uses it, editors use the tree.
 */
typedef struct {
  TSSymbol symbol; /* a symbol of tree_sitter_pgconf(); never 0 */
  uint32_t begin;  /* byte offsets into the buffer, [begin, end) */
  uint32_t end;
} PgconfToken;

/*
 * Scans the token at or after *pos in the normalized buffer `buf` of `len`
 * bytes (skipping the grammar's extras), stores it in *out and advances *pos.
 * Returns false at the end of the buffer.  A byte the lexer cannot start a
 * token with is returned as a one-byte token with symbol 0xFFFF.
 */
bool tree_sitter_pgconf_next_token(const char *buf, uint32_t len, uint32_t *pos,
                                   PgconfToken *out);

#ifdef __cplusplus
}
#endif

#endif /* TREE_SITTER_PGCONF_H_ */
