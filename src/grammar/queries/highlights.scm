; Highlights for tree-sitter-pgconf (postgresql.conf).
;
; The grammar is a flat token list per line, so "the parameter name" is the
; first token of the line (PostgreSQL requires an ID or QUALIFIED_ID there;
; anything else is a syntax error the linter reports).
;
; The patterns are written to be mutually exclusive, so the result does not
; depend on whether the consumer lets the first (tree-sitter CLI) or the last
; (Neovim) matching pattern win.

(comment) @comment

(string) @string

(unquoted_string) @string.special

[
  (integer)
  (real)
] @number

"=" @operator

; Setting name: first token of a line ...
(line
  .
  [
    (identifier)
    (qualified_identifier)
  ] @property
  (#not-match? @property "^[iI][nN][cC][lL][uU][dD][eE](_[iI][fF]_[eE][xX][iI][sS][tT][sS]|_[dD][iI][rR])?$"))

; ... unless it is include / include_if_exists / include_dir (matched
; case-insensitively, like PostgreSQL's guc_name_compare).
(line
  .
  (identifier) @keyword
  (#match? @keyword "^[iI][nN][cC][lL][uU][dD][eE](_[iI][fF]_[eE][xX][iI][sS][tT][sS]|_[dD][iI][rR])?$"))

; Identifiers after the first token (values such as on, off, md5, replica).
(line
  (_)
  .
  (identifier) @boolean
  (#match? @boolean "^([oO][nN]|[oO][fF][fF]|[tT][rR][uU][eE]|[fF][aA][lL][sS][eE]|[yY][eE][sS]|[nN][oO])$"))

(line
  (_)
  .
  (identifier) @constant
  (#not-match? @constant "^([oO][nN]|[oO][fF][fF]|[tT][rR][uU][eE]|[fF][aA][lL][sS][eE]|[yY][eE][sS]|[nN][oO])$"))

; A qualified identifier is not a valid value (PostgreSQL rejects e.g.
; "lc_messages = en_US.utf8"); keep it visibly distinct from a name.
(line
  (_)
  .
  (qualified_identifier) @variable)

; PostgreSQL's catch-all error token.
(invalid_char) @error
