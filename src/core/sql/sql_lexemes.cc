// scan.l's stateless pieces.
#include "core/sql/sql_lexemes.h"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "core/base/source_file.h"

namespace pgconflint {
namespace {

bool HexRun(std::string_view s, size_t i, size_t n) {
  for (size_t k = 0; k < n; ++k)
    if (i + k >= s.size() || !SqlIsHex(s[i + k])) return false;
  return true;
}

}  // namespace

void AppendUtf8(char32_t c, std::string* out) {
  if (c < 0x80) {
    *out += static_cast<char>(c);
  } else if (c < 0x800) {
    *out += static_cast<char>(0xC0 | (c >> 6));
    *out += static_cast<char>(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    *out += static_cast<char>(0xE0 | (c >> 12));
    *out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    *out += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    *out += static_cast<char>(0xF0 | (c >> 18));
    *out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
    *out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    *out += static_cast<char>(0x80 | (c & 0x3F));
  }
}

void TruncateIdentifier(std::string* s, int max_length) {
  if (static_cast<int>(s->size()) <= max_length) return;
  size_t n = static_cast<size_t>(max_length);
  while (n > 0 && (static_cast<unsigned char>((*s)[n]) & 0xC0) == 0x80) --n;
  s->resize(n);
}

size_t DecodeEscape(std::string_view s, size_t i, std::string* value) {
  char c = s[i + 1];
  i += 2;
  switch (c) {
    case 'b': *value += '\b'; return i;
    case 'f': *value += '\f'; return i;
    case 'n': *value += '\n'; return i;
    case 'r': *value += '\r'; return i;
    case 't': *value += '\t'; return i;
    case 'v': *value += '\v'; return i;
    default: break;
  }
  if (SqlIsOct(c)) {
    int v = c - '0';
    for (int k = 0; k < 2 && i < s.size() && SqlIsOct(s[i]); ++k) v = v * 8 + (s[i++] - '0');
    *value += static_cast<char>(v);
  } else if (c == 'x' && i < s.size() && SqlIsHex(s[i])) {
    size_t n = i + 1 < s.size() && SqlIsHex(s[i + 1]) ? 2 : 1;
    *value += static_cast<char>(strtol(std::string(s.substr(i, n)).c_str(), nullptr, 16));
    i += n;
  } else if ((c == 'u' || c == 'U') && HexRun(s, i, c == 'u' ? 4 : 8)) {
    size_t n = c == 'u' ? 4 : 8;
    AppendUtf8(static_cast<char32_t>(strtoul(std::string(s.substr(i, n)).c_str(), nullptr, 16)), value);
    i += n;
  } else {
    *value += c;
  }
  return i;
}

bool DecodeUnicodeEscapes(std::string_view v, std::string* out, char escape) {
  out->clear();
  for (size_t k = 0; k < v.size(); ++k) {
    if (v[k] != escape) {
      *out += v[k];
    } else if (k + 1 < v.size() && v[k + 1] == escape) {
      *out += escape;
      ++k;
    } else {
      size_t n = k + 1 < v.size() && v[k + 1] == '+' ? 6 : 4;
      size_t from = k + 1 + (n == 6 ? 1 : 0);
      if (!HexRun(v, from, n)) return false;
      AppendUtf8(static_cast<char32_t>(strtoul(std::string(v.substr(from, n)).c_str(), nullptr, 16)), out);
      k = from + n - 1;
    }
  }
  return true;
}

size_t LiteralContinuation(std::string_view s, size_t i) {
  bool newline = false;
  while (i < s.size()) {
    if (s[i] == '\n') {
      newline = true;
      ++i;
    } else if (SqlIsSpace(s[i])) {
      ++i;
    } else if (newline && s[i] == '-' && i + 1 < s.size() && s[i + 1] == '-') {
      while (i < s.size() && s[i] != '\n') ++i;
    } else {
      break;
    }
  }
  if (!newline || i >= s.size() || s[i] != '\'') return std::string_view::npos;
  return i + 1;
}

bool Int4Literal(std::string_view text, long long* value) {
  std::string digits;
  for (char c : text)
    if (c != '_') digits += c;
  int base = 10;
  size_t skip = 0;
  if (digits.size() > 2 && digits[0] == '0') {
    char p = digits[1];
    base = (p == 'x' || p == 'X') ? 16 : (p == 'o' || p == 'O') ? 8 : (p == 'b' || p == 'B') ? 2 : 10;
    skip = base == 10 ? 0 : 2;
  }
  errno = 0;
  long long v = strtoll(digits.c_str() + skip, nullptr, base);
  if (errno == ERANGE || v > INT32_MAX) return false;
  *value = v;
  return true;
}

std::string SqlInvalidUtf8(std::string_view v) {
  for (size_t k = 0; k < v.size();) {
    size_t n = 1;
    unsigned char b = static_cast<unsigned char>(v[k]);
    if (b < 0x80 || DecodeUtf8(v, k, &n) != 0xFFFD || n != 1) {
      k += n;
      continue;
    }
    size_t want = (b & 0xE0) == 0xC0 ? 2 : (b & 0xF0) == 0xE0 ? 3 : (b & 0xF8) == 0xF0 ? 4 : 1;
    std::string out;
    for (size_t j = k; j < std::min(v.size(), k + want); ++j) {
      char hex[8];
      snprintf(hex, sizeof hex, "%s0x%02x", out.empty() ? "" : " ", static_cast<unsigned char>(v[j]));
      out += hex;
    }
    return out;
  }
  return "";
}

}  // namespace pgconflint
