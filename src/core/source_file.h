// A configuration file's bytes and its line table.
#ifndef PGCONFLINT_CORE_SOURCE_FILE_H_
#define PGCONFLINT_CORE_SOURCE_FILE_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace pgconflint {

/// A half-open byte range [begin, end) in one file.
struct Range {
  uint32_t begin = 0;
  uint32_t end = 0;
};

/// 1-based line and column; the column counts characters (UTF-8 code points,
/// an invalid byte counts as one).
struct Position {
  uint32_t line = 1;
  uint32_t column = 1;
};

class SourceFile {
 public:
  SourceFile(std::string path, std::string text);

  const std::string& path() const { return path_; }
  const std::string& text() const { return text_; }
  std::string_view Slice(Range r) const { return std::string_view(text_).substr(r.begin, r.end - r.begin); }

  /// Position of byte `offset` (clamped to the text).
  Position PositionOf(uint32_t offset) const;
  /// 1-based line number of byte `offset`.
  uint32_t LineOf(uint32_t offset) const;
  /// The text of 1-based `line` without its line terminator.
  std::string_view LineText(uint32_t line) const;
  uint32_t line_count() const { return static_cast<uint32_t>(line_starts_.size()); }

 private:
  std::string path_;
  std::string text_;
  std::vector<uint32_t> line_starts_;  // byte offset of each line's first byte
};

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_SOURCE_FILE_H_
