// Reading files and mapping byte offsets to lines and columns.
#include "core/source_file.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

namespace pgconflint {

SourceFile::SourceFile(std::string path, std::string text)
    : path_(std::move(path)), text_(std::move(text)) {
  line_starts_.push_back(0);
  const char* p = text_.data();
  const char* end = p + text_.size();
  while ((p = static_cast<const char*>(memchr(p, '\n', end - p))) != nullptr) {
    ++p;
    line_starts_.push_back(static_cast<uint32_t>(p - text_.data()));
  }
}

uint32_t SourceFile::LineOf(uint32_t offset) const {
  auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
  return static_cast<uint32_t>(it - line_starts_.begin());
}

Position SourceFile::PositionOf(uint32_t offset) const {
  offset = std::min<uint32_t>(offset, static_cast<uint32_t>(text_.size()));
  uint32_t line = LineOf(offset);
  uint32_t col = 1;
  for (uint32_t i = line_starts_[line - 1]; i < offset; ++i) {
    // Count code points: skip UTF-8 continuation bytes that follow a lead byte.
    unsigned char c = static_cast<unsigned char>(text_[i]);
    if ((c & 0xC0) != 0x80 || i == line_starts_[line - 1]) ++col;
  }
  return {line, col};
}

std::string_view SourceFile::LineText(uint32_t line) const {
  if (line == 0 || line > line_starts_.size()) return {};
  uint32_t b = line_starts_[line - 1];
  uint32_t e = line < line_starts_.size() ? line_starts_[line] : static_cast<uint32_t>(text_.size());
  std::string_view s(text_.data() + b, e - b);
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

}  // namespace pgconflint
