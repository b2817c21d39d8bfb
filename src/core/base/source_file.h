// A configuration file's bytes, its line table, and the one place where byte
// offsets become lines and columns. Positions are bytes inside the analysis;
// each output converts once, to its consumer's unit (as clangd's SourceCode.h):
// the terminal wants display columns, JSON v1 code points, LSP UTF-16 code
// units, reviewdog UTF-8 bytes.
#ifndef PGCONFLINT_CORE_BASE_SOURCE_FILE_H_
#define PGCONFLINT_CORE_BASE_SOURCE_FILE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace pgconflint {

/// A half-open byte range [begin, end) in one file.
struct Range {
  uint32_t begin = 0;
  uint32_t end = 0;
};

/// What a column counts. Every unit reads the text as UTF-8 and counts an
/// invalid byte (one that does not start a well-formed sequence) as one
/// character: one code point, one UTF-16 unit, one display column.
enum class ColumnUnit : uint8_t {
  kUtf8,       // bytes (reviewdog)
  kCodePoint,  // Unicode scalar values (JSON v1, the text formats' file:line:col)
  kUtf16,      // UTF-16 code units: 2 above U+FFFF (the LSP default)
  kDisplay,    // terminal columns as the text formats show the line: see DisplayWidth
};

/// 1-based line and column; the column counts in the unit it was asked in.
struct Position {
  uint32_t line = 1;
  uint32_t column = 1;
};

/// Whether the text formats write code point `c` as the `\xNN` escapes of
/// its UTF-8 bytes: a control character (C0 but tab, DEL, C1), or a format
/// character that reorders or hides text (bidirectional embeddings,
/// overrides, isolates and marks, the zero-width space, the line and
/// paragraph separators, the word joiner and invisible operators, a byte
/// order mark; not the joiners U+200C/U+200D, which emoji and scripts
/// need). An invalid
/// UTF-8 byte is escaped too.
bool ShownEscaped(char32_t c);

/// Terminal columns of code point `c` as the text formats print it: a tab is
/// shown as 4 spaces (4), a ShownEscaped character as the `\xNN` escape of
/// each of its UTF-8 bytes (4 per byte), East Asian wide and fullwidth
/// characters and emoji 2, combining marks and other format characters 0,
/// anything else 1.
uint32_t DisplayWidth(char32_t c);

/// The UTF-8 sequence at `s[i]`: its byte length when well formed (no
/// overlong forms, no surrogates, at most U+10FFFF; 1 for ASCII), else minus
/// the length of its maximal subpart (the bytes that could begin a sequence,
/// at least 1), which Unicode's recommended practice, and nlohmann's dump,
/// replace by one U+FFFD. REQUIRES: i < s.size().
long Utf8Sequence(std::string_view s, size_t i);

/// Decodes the well-formed UTF-8 sequence starting at `s[i]` (no overlong
/// forms, no surrogates, at most U+10FFFF) and sets *length to its byte length.
/// An invalid byte decodes as U+FFFD with *length 1, as a terminal shows it.
/// REQUIRES: i < s.size().
char32_t DecodeUtf8(std::string_view s, size_t i, size_t* length);

/// Columns that `s` occupies in `unit` (one line's text; no line terminators).
uint32_t ColumnWidth(std::string_view s, ColumnUnit unit);

class SourceFile {
 public:
  SourceFile(std::string path, std::string text);
  /// The same, sharing `text` (an editor's buffer, a cached read) instead of
  /// copying it. REQUIRES: `text` is not null.
  SourceFile(std::string path, std::shared_ptr<const std::string> text);
  /// A file that holds some lines of another: physical line i of `text` is
  /// line `line_numbers[i]` (strictly increasing, from 1), the lines between
  /// them are empty. A snapshot's files are rebuilt so: a row at line
  /// 1,000,000,000 costs one line, not a billion.
  /// REQUIRES: line_numbers has one entry per line of `text`.
  SourceFile(std::string path, std::string text, std::vector<uint32_t> line_numbers);
  /// The text and line table of `same` under another path, shared (no copy).
  /// Copies of a SourceFile share them too: a file included many times, or
  /// kept by a cache and an analysis, is held once.
  SourceFile(std::string path, const SourceFile& same) : path_(std::move(path)), contents_(same.contents_) {}

  /// The same file with `text` in place of its own, line numbers kept.
  /// REQUIRES: `text` has the same line breaks at the same offsets.
  SourceFile WithText(std::string text) const;

  const std::string& path() const { return path_; }
  const std::string& text() const { return *contents_->text; }
  /// The text itself, to share with another holder.
  const std::shared_ptr<const std::string>& shared_text() const { return contents_->text; }
  std::string_view Slice(Range r) const {
    return std::string_view(*contents_->text).substr(r.begin, r.end - r.begin);
  }

  /// Position of byte `offset` (clamped to the text), the column counted in
  /// `unit`. An offset inside a multi-byte character counts its bytes before
  /// it as invalid ones.
  Position PositionOf(uint32_t offset, ColumnUnit unit = ColumnUnit::kCodePoint) const;
  /// The inverse: the byte offset of `position` in `unit`, clamped. Line 0 is
  /// line 1, a line past the end is the end of the text; a column past the
  /// line's end is its end (before "\n" or "\r\n"); a column inside a
  /// character (the second UTF-16 unit of an emoji, the second column of a
  /// wide character) is that character's first byte.
  uint32_t OffsetOf(Position position, ColumnUnit unit) const;
  /// 1-based line number of byte `offset`.
  uint32_t LineOf(uint32_t offset) const;
  /// Byte offset of the first byte of 1-based `line` (clamped to the lines).
  uint32_t LineStart(uint32_t line) const;
  /// The text of 1-based `line` without its line terminator.
  std::string_view LineText(uint32_t line) const;
  uint32_t line_count() const {
    return contents_->line_numbers.empty() ? static_cast<uint32_t>(contents_->line_starts.size())
                                           : contents_->line_numbers.back();
  }

 private:
  struct Contents {
    std::shared_ptr<const std::string> text;  // never null; may be shared beyond the file
    std::vector<uint32_t> line_starts;   // byte offset of each physical line's first byte
    std::vector<uint32_t> line_numbers;  // the number of each physical line; empty: 1, 2, 3...
  };
  // 1-based physical line of byte `offset`, and the physical line that holds
  // `line` (or the first after it; 0 past the last).
  uint32_t PhysicalLineOf(uint32_t offset) const;
  uint32_t PhysicalLine(uint32_t line) const;
  std::string path_;
  std::shared_ptr<const Contents> contents_;  // immutable, shared by copies
};

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_BASE_SOURCE_FILE_H_
