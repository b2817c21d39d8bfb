/**
 * @file tree-sitter grammar for postgresql.conf (and postgresql.auto.conf,
 *       included files). pgconflint, src/grammar.
 *
 * The tokens are exactly the flex tokens of PostgreSQL's
 * src/backend/utils/misc/guc-file.l (identical in PG 13..18):
 *
 *   SIGN            ("-"|"+")
 *   DIGIT           [0-9]
 *   HEXDIGIT        [0-9a-fA-F]
 *   UNIT_LETTER     [a-zA-Z]
 *   INTEGER         {SIGN}?({DIGIT}+|0x{HEXDIGIT}+){UNIT_LETTER}*
 *   EXPONENT        [Ee]{SIGN}?{DIGIT}+
 *   REAL            {SIGN}?{DIGIT}*"."{DIGIT}*{EXPONENT}?
 *   LETTER          [A-Za-z_\200-\377]
 *   LETTER_OR_DIGIT [A-Za-z_0-9\200-\377]
 *   ID              {LETTER}{LETTER_OR_DIGIT}*
 *   QUALIFIED_ID    {ID}"."{ID}
 *   UNQUOTED_STRING {LETTER}({LETTER_OR_DIGIT}|[-._:/])*
 *   STRING          \'([^'\\\n]|\\.|\'\')*\'
 *
 * Rules, in order: \n -> EOL; [ \t\r]+ skipped; #.* comment; ID,
 * QUALIFIED_ID, STRING, UNQUOTED_STRING, INTEGER, REAL, "="; any other single
 * character -> error token.  Flex takes the longest match and breaks ties by
 * rule order.
 *
 * DESIGN: a flat token list per line.  Every token class is valid at every
 * position of a line, so tree-sitter's context-aware lexing can never change
 * the tokenization; the one-line grammar of ParseConfigFp() (name, optional
 * '=', value, end of line) is checked by the C++ core over the token
 * sequence.  All tokens have the same (default) precedence, so tree-sitter's
 * tie-breaks are: longest match, then String-over-RegExp (only "=", which
 * nothing else matches), then the order of the tokens in the grammar - which
 * is why the token rules below are listed, and referenced from `_token`, in
 * flex rule order.  Do NOT add `word`: keyword extraction would change the
 * tokenization.  See docs/grammar.md.
 *
 * Character classes.  Flex works on bytes and every byte >= 0x80 is a LETTER;
 * tree-sitter decodes UTF-8 into code points.  A multi-byte code point is
 * equivalent to a run of LETTER bytes (no class separates high bytes), so the
 * letter classes are "everything but the ASCII non-letters" and valid UTF-8
 * tokenizes exactly as in flex.  Two things the grammar cannot express (the
 * generator decides how character tests are rendered): libtree-sitter 0.20.7
 * reports an INVALID UTF-8 byte as lookahead -1, which fails the letter tests
 * (it becomes invalid_char), and a NUL byte ends a comment or a quoted string.
 * Parse the output of tree_sitter_pgconf_normalize() (include/) for exact
 * flex parity on any input; see docs/grammar.md.
 */

// ASCII characters that are NOT letters: everything in 0x00-0x7F except
// A-Z, a-z and '_' ('@' = 0x40, '[' - '^' = 0x5B-0x5E, '`' = 0x60,
// '{' - DEL = 0x7B-0x7F).
const NOT_LETTER = '\\x00-@\\[-\\^`{-\\x7F';
// ... and not letter-or-digit (the same, minus 0-9).
const NOT_LETTER_OR_DIGIT = '\\x00-/:-@\\[-\\^`{-\\x7F';
// ... and not (letter-or-digit or one of - . _ : /) ('-' 0x2D, '.' 0x2E,
// '/' 0x2F, ':' 0x3A).
const NOT_UQ_CONT = '\\x00-,;-@\\[-\\^`{-\\x7F';

const LETTER = `[^${NOT_LETTER}]`;
const LETTER_OR_DIGIT = `[^${NOT_LETTER_OR_DIGIT}]`;
const ID = `${LETTER}${LETTER_OR_DIGIT}*`;
const SIGN = '[-+]';
const DIGIT = '[0-9]';
const HEXDIGIT = '[0-9a-fA-F]';
const UNIT_LETTER = '[a-zA-Z]';
const EXPONENT = `[Ee]${SIGN}?${DIGIT}+`;

module.exports = grammar({
  name: 'pgconf',

  // Only [ \t\r]+ is skipped (\v and \f are error characters for PostgreSQL).
  extras: _ => [/[ \t\r]+/],

  rules: {
    // Lines are separated by "\n"; end of file ends the last line (a missing
    // final newline is fine).  Children of source_file: line nodes and
    // anonymous "\n" tokens.
    source_file: $ => seq(
      repeat(seq(optional($.line), '\n')),
      optional($.line),
    ),

    line: $ => choice(
      seq(repeat1($._token), optional($.comment)),
      $.comment,
    ),

    // Listed in flex rule order (see header).
    _token: $ => choice(
      $.identifier,
      $.qualified_identifier,
      $.string,
      $.unquoted_string,
      $.integer,
      $.real,
      '=',
      $.invalid_char,
    ),

    // #.*  (flex '.' = any byte but newline, so a CR before LF and any other
    // control character belong to the comment).
    comment: _ => token(/#[^\n]*/),

    // ID
    identifier: _ => token(new RegExp(ID)),

    // QUALIFIED_ID
    qualified_identifier: _ => token(new RegExp(`${ID}\\.${ID}`)),

    // STRING  \'([^'\\\n]|\\.|\'\')*\'
    string: _ => token(/'([^'\\\n]|\\[^\n]|'')*'/),

    // UNQUOTED_STRING
    unquoted_string: _ => token(new RegExp(`${LETTER}[^${NOT_UQ_CONT}]*`)),

    // INTEGER
    integer: _ => token(new RegExp(
      `${SIGN}?(${DIGIT}+|0x${HEXDIGIT}+)${UNIT_LETTER}*`)),

    // REAL
    real: _ => token(new RegExp(
      `${SIGN}?${DIGIT}*\\.${DIGIT}*(${EXPONENT})?`)),

    // The flex catch-all: any other single character except newline.  Only
    // ASCII characters can get here (every non-ASCII code point, and every
    // invalid UTF-8 byte, starts an identifier), and of those only the ones
    // that never start a token: everything except \n, the skipped [ \t\r],
    // '#' (comment), letters and '_', digits, '.' (REAL) and '='.  '\'',
    // '-' and '+' stay in: a lone quote or sign is an error character.
    // Listing the class positively means the lexer never has to break a tie
    // against invalid_char.
    invalid_char: _ => token(
      /[\x00-\x08\x0B\x0C\x0E-\x1F\x21\x22\x24-\x2D\x2F\x3A-\x3C\x3E-\x40\x5B-\x5E\x60\x7B-\x7F]/),
  },
});
