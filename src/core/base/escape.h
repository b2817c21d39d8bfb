// Escaping text that comes from files for the places it is shown: a
// terminal or log, XML, markdown. Used by the output formats and by the
// renderers of core (the recommender's plans).
#ifndef PGCONFLINT_CORE_BASE_ESCAPE_H_
#define PGCONFLINT_CORE_BASE_ESCAPE_H_

#include <string>
#include <string_view>

namespace pgconflint {

/// Appends `s` escaped as EscapeControls does, with `tab` for each tab.
void AppendEscaped(std::string_view s, std::string_view tab, std::string* out);

/// `s` with every control character (C0 but tab, DEL, C1), every character
/// that reorders or hides text (bidi overrides and isolates, zero-width
/// characters, a BOM: ShownEscaped in core/base/source_file.h) and every invalid
/// UTF-8 byte written as the `\xNN` escapes of its bytes (ESC -> `\x1b`,
/// U+0085 -> `\xc2\x85`, U+202E -> `\xe2\x80\xae`), so that file contents and
/// file names can neither drive the terminal, split an output line, nor show
/// text other than what is there. Every text output passes file-derived text
/// through this.
std::string EscapeControls(std::string_view s);

/// `s` with invalid UTF-8 bytes replaced by U+FFFD (JSON and XML need UTF-8).
std::string ValidUtf8(std::string_view s);

/// `s` as XML 1.0 character data or attribute text: control characters
/// escaped as EscapeControls does, invalid UTF-8 bytes as U+FFFD, and
/// `& < > " '` as entities.
std::string XmlEscape(std::string_view s);

/// `s` as text inside a markdown table cell of a PR comment: control
/// characters escaped, `|` and markdown punctuation backslash-escaped, `<`,
/// `>`, `&` and `@` as entities (no HTML, no mentions), invalid UTF-8 as U+FFFD.
std::string MarkdownEscape(std::string_view s);

/// `s` as a CommonMark code span: backticks around it, more than the longest
/// run of backticks inside, with a space inside each end when `s` starts or
/// ends with a backtick or a space. Control characters escaped as
/// EscapeControls does.
std::string MarkdownCode(std::string_view s);

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_BASE_ESCAPE_H_
