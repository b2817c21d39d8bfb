// One canonical layout for postgresql.conf-format files (`pgconflint format`,
// the editor's textDocument/formatting): every setting `name = 'value'`, the
// value quoted as ALTER SYSTEM writes it into postgresql.auto.conf; comments,
// blank lines and the line count kept. Meaning-preserving by construction and
// by check: the result is parsed again and every line must give the same name
// and value, else nothing is formatted.
#ifndef PGCONFLINT_CORE_CONF_FORMAT_H_
#define PGCONFLINT_CORE_CONF_FORMAT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "core/base/source_file.h"

namespace pgconflint {

struct FormatOptions {
  /// Pad the names of each run of consecutive setting lines so that their
  /// '=' signs line up.
  bool align = false;
};

/// One replacement: the bytes `old` of the input (a line's text, without its
/// line terminator; at the end of a text without a final newline, the empty
/// range there) become `text`.
struct FormatEdit {
  Range old;
  std::string text;
};

struct FormatResult {
  bool ok = false;
  /// When !ok: why nothing was formatted ("syntax error near token "x""), and
  /// where (1-based line and byte column; 0 when it concerns the whole file).
  std::string problem;
  uint32_t line = 0, column = 0;
  std::vector<FormatEdit> edits;  // in file order, none overlapping; empty when the layout holds
  std::string text;               // the formatted text (the input when `edits` is empty)
};

/// Formats `file` (any postgresql.conf-format file: postgresql.conf, an
/// included file, postgresql.auto.conf). A file with a syntax error, or too
/// large to analyse, is not formatted. A quoted value holding a control
/// character (written as \n, \t, ...) keeps its spelling: ALTER SYSTEM could
/// not write it. Per line:
///   setting      name = 'value'[<the blanks before its comment>#comment]
///   comment      as written, trailing blanks removed
///   blank        empty
/// Line terminators (\n, \r\n) are kept; a final newline is added.
FormatResult FormatConf(const SourceFile& file, const FormatOptions& options);

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_CONF_FORMAT_H_
