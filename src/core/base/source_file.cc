// The line table and every conversion between byte offsets and columns.
#include "core/base/source_file.h"

#include <algorithm>
#include <cstring>

namespace pgconflint {
namespace {

struct CodePointRange {
  char32_t first, last;
};

#include "core/base/unicode_width.inc"

template <size_t N>
bool InRanges(const CodePointRange (&ranges)[N], char32_t c) {
  auto it = std::upper_bound(std::begin(ranges), std::end(ranges), c,
                             [](char32_t v, const CodePointRange& r) { return v < r.first; });
  return it != std::begin(ranges) && c <= (it - 1)->last;
}

// Decodes the character at s[i], sets *length, and returns its columns in `unit`.
uint32_t UnitsAt(std::string_view s, size_t i, ColumnUnit unit, size_t* length) {
  char32_t c = DecodeUtf8(s, i, length);
  switch (unit) {
    case ColumnUnit::kUtf8: return static_cast<uint32_t>(*length);
    case ColumnUnit::kCodePoint: return 1;
    case ColumnUnit::kUtf16: return c >= 0x10000 ? 2 : 1;
    case ColumnUnit::kDisplay:
      // An invalid byte (a U+FFFD of one byte) is shown as its \xNN escape.
      return c == 0xFFFD && *length == 1 ? 4 : DisplayWidth(c);
  }
  return 1;
}

}  // namespace

long Utf8Sequence(std::string_view s, size_t i) {
  const unsigned char c = static_cast<unsigned char>(s[i]);
  int more;
  unsigned char lo = 0x80, hi = 0xBF;  // the range of the second byte
  if (c < 0x80) return 1;
  if (c >= 0xC2 && c <= 0xDF) more = 1;
  else if (c == 0xE0) more = 2, lo = 0xA0;  // no overlong form
  else if ((c >= 0xE1 && c <= 0xEC) || c == 0xEE || c == 0xEF) more = 2;
  else if (c == 0xED) more = 2, hi = 0x9F;  // no surrogate
  else if (c == 0xF0) more = 3, lo = 0x90;  // no overlong form
  else if (c >= 0xF1 && c <= 0xF3) more = 3;
  else if (c == 0xF4) more = 3, hi = 0x8F;  // at most U+10FFFF
  else return -1;
  long n = 1;
  for (int k = 0; k < more; ++k, lo = 0x80, hi = 0xBF) {
    if (i + n >= s.size()) return -n;
    const unsigned char b = static_cast<unsigned char>(s[i + n]);
    if (b < lo || b > hi) return -n;
    ++n;
  }
  return n;
}

char32_t DecodeUtf8(std::string_view s, size_t i, size_t* length) {
  const unsigned char b = static_cast<unsigned char>(s[i]);
  *length = 1;
  if (b < 0x80) return b;
  const long n = Utf8Sequence(s, i);
  if (n < 0) return 0xFFFD;
  char32_t c = b & (n == 2 ? 0x1F : n == 3 ? 0x0F : 0x07);
  for (long k = 1; k < n; ++k) c = (c << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
  *length = static_cast<size_t>(n);
  return c;
}

bool ShownEscaped(char32_t c) {
  if (c < 0x20) return c != '\t';
  if (c < 0x7F) return false;
  return c == 0x7F || (c >= 0x80 && c <= 0x9F) || c == 0x061C || c == 0x200B || c == 0x200E || c == 0x200F ||
         (c >= 0x2028 && c <= 0x202E) || (c >= 0x2060 && c <= 0x2069) || c == 0xFEFF;
}

uint32_t DisplayWidth(char32_t c) {
  if (c == '\t') return 4;
  if (ShownEscaped(c)) return 4 * (c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4);  // \xNN per byte
  if (c < 0x300) return 1;                            // the common case, before any mark
  if (InRanges(kZeroWidth, c)) return 0;
  if (InRanges(kDoubleWidth, c)) return 2;
  return 1;
}

uint32_t ColumnWidth(std::string_view s, ColumnUnit unit) {
  if (unit == ColumnUnit::kUtf8) return static_cast<uint32_t>(s.size());
  uint32_t w = 0;
  for (size_t i = 0, n = 0; i < s.size(); i += n) w += UnitsAt(s, i, unit, &n);
  return w;
}

SourceFile::SourceFile(std::string path, std::string text)
    : SourceFile(std::move(path), std::make_shared<const std::string>(std::move(text))) {}

SourceFile::SourceFile(std::string path, std::shared_ptr<const std::string> text) : path_(std::move(path)) {
  auto contents = std::make_shared<Contents>();
  contents->text = std::move(text);
  std::vector<uint32_t>& starts = contents->line_starts;
  starts.push_back(0);
  const char* begin = contents->text->data();
  const char* p = begin;
  const char* end = p + contents->text->size();
  while ((p = static_cast<const char*>(memchr(p, '\n', end - p))) != nullptr) {
    ++p;
    starts.push_back(static_cast<uint32_t>(p - begin));
  }
  contents_ = std::move(contents);
}

SourceFile::SourceFile(std::string path, std::string text, std::vector<uint32_t> line_numbers)
    : SourceFile(std::move(path), std::move(text)) {
  auto contents = std::make_shared<Contents>(*contents_);
  contents->line_numbers = std::move(line_numbers);
  contents->line_numbers.resize(contents->line_starts.size(),
                                contents->line_numbers.empty() ? 1 : contents->line_numbers.back() + 1);
  contents_ = std::move(contents);
}

SourceFile SourceFile::WithText(std::string text) const {
  SourceFile copy(path_, *this);
  auto contents = std::make_shared<Contents>(*contents_);
  contents->text = std::make_shared<const std::string>(std::move(text));
  copy.contents_ = std::move(contents);
  return copy;
}

uint32_t SourceFile::PhysicalLineOf(uint32_t offset) const {
  auto it = std::upper_bound(contents_->line_starts.begin(), contents_->line_starts.end(), offset);
  return static_cast<uint32_t>(it - contents_->line_starts.begin());
}

uint32_t SourceFile::PhysicalLine(uint32_t line) const {
  const std::vector<uint32_t>& numbers = contents_->line_numbers;
  if (numbers.empty()) return line <= contents_->line_starts.size() ? line : 0;
  auto it = std::lower_bound(numbers.begin(), numbers.end(), line);
  return it == numbers.end() ? 0 : static_cast<uint32_t>(it - numbers.begin()) + 1;
}

uint32_t SourceFile::LineOf(uint32_t offset) const {
  uint32_t physical = PhysicalLineOf(offset);
  return contents_->line_numbers.empty() ? physical : contents_->line_numbers[physical - 1];
}

uint32_t SourceFile::LineStart(uint32_t line) const {
  uint32_t physical = PhysicalLine(std::clamp<uint32_t>(line, 1, line_count()));
  return contents_->line_starts[(physical ? physical : contents_->line_starts.size()) - 1];
}

Position SourceFile::PositionOf(uint32_t offset, ColumnUnit unit) const {
  offset = std::min<uint32_t>(offset, static_cast<uint32_t>(contents_->text->size()));
  uint32_t physical = PhysicalLineOf(offset);
  uint32_t start = contents_->line_starts[physical - 1];
  return {LineOf(offset), 1 + ColumnWidth(std::string_view(*contents_->text).substr(start, offset - start), unit)};
}

uint32_t SourceFile::OffsetOf(Position position, ColumnUnit unit) const {
  if (position.line > line_count()) return static_cast<uint32_t>(contents_->text->size());
  uint32_t start = LineStart(position.line);
  std::string_view line = LineText(std::max<uint32_t>(position.line, 1));
  uint32_t target = position.column > 0 ? position.column - 1 : 0;
  uint32_t done = 0;
  size_t i = 0, n = 0;
  while (i < line.size() && done < target) {
    uint32_t w = UnitsAt(line, i, unit, &n);
    if (done + w > target) break;  // inside this character: its first byte
    done += w;
    i += n;
  }
  return start + static_cast<uint32_t>(i);
}

std::string_view SourceFile::LineText(uint32_t line) const {
  const std::vector<uint32_t>& starts = contents_->line_starts;
  const std::string& text = *contents_->text;
  if (line == 0 || line > line_count()) return {};
  const uint32_t physical = PhysicalLine(line);
  if (physical == 0 || LineOf(starts[physical - 1]) != line) return {};  // a line between the rows
  uint32_t b = starts[physical - 1];
  uint32_t e = physical < starts.size() ? starts[physical] : static_cast<uint32_t>(text.size());
  std::string_view s(text.data() + b, e - b);
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

}  // namespace pgconflint
