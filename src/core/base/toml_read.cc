// Reading TOML (see toml_read.h). The guard is a small scanner of TOML's
// lexical states; it looks only for what toml++ mishandles (code points it
// has undefined behaviour on, keys of so many dotted parts that its
// recursion overflows the stack) and leaves every other verdict to toml++.
#include "core/base/toml_read.h"

#include <cstdint>
#include <cstdio>
#include <string>

#include "core/base/limits.h"
#include "core/base/source_file.h"

namespace pgconflint {

bool TomlWhitespaceTestIsUndefined(char32_t c) {
  // toml++ 3.3 splits U+00A0..U+FEFF into blocks of 0x3FA code points, and
  // decides blocks 5 and 7 by a switch whose default is unreachable; blocks
  // 0 and 63 reach that default (their bits in its mask are 0).
  if (c <= 0xA0 || c >= 0xFEFF || c == 0x3000) return false;
  const uint64_t block = (static_cast<uint64_t>(c) - 0xA0) / 0x3FA;
  const uint64_t classified_by_mask = 0x7FFFFFFFFFFFF75Eull;
  if ((1ull << block) & classified_by_mask) return false;
  return block != 5 && block != 7;
}

namespace {

class Scanner {
 public:
  explicit Scanner(std::string_view text) : text_(text) {}

  bool Run(std::string* error) {
    while (i_ < text_.size()) {
      if (!KeyParts(error)) return false;
      if ((text_[i_] == '"' || text_[i_] == '\'') && !CanOpenString()) {
        ++i_;  // a quote inside a malformed bare value: toml++ reads on as if it were not one
      } else if (StartsWith("\"\"\"")) {
        if (!MultiLineBasic(error)) return false;
      } else if (StartsWith("'''")) {
        Skip("'''", 3);
      } else if (text_[i_] == '"') {
        Basic();
      } else if (text_[i_] == '\'') {
        Skip("'", 1);
      } else if (text_[i_] == '#') {
        while (i_ < text_.size() && text_[i_] != '\n') ++i_;
      } else if (!Check(error, "outside a string or a comment")) {
        return false;
      }
    }
    return true;
  }

 private:
  bool StartsWith(std::string_view s) const { return text_.substr(i_, s.size()) == s; }

  // Whether a quote at i_ can start a string or a quoted key: after '=', '[',
  // ',', '{', '.', or first on its line (blanks aside). Elsewhere it follows a
  // malformed bare value, which toml++ may read past (the fuzzer's second
  // finding: `= 0og-...` then `"`, a control byte and U+FCFF).
  bool CanOpenString() const {
    size_t k = i_;
    while (k > 0 && (text_[k - 1] == ' ' || text_[k - 1] == '\t')) --k;
    if (k == 0) return true;
    const char before = text_[k - 1];
    return before == '\n' || before == '=' || before == '[' || before == ',' || before == '{' || before == '.';
  }

  // Advances past the code point at i_ and returns it (U+FFFD for malformed
  // UTF-8, which toml++ refuses before any whitespace test).
  char32_t Next() {
    size_t length;
    const char32_t c = DecodeUtf8(text_, i_, &length);
    i_ += length;
    return c;
  }

  // Consumes one code point; false with *error if toml++ would test it here.
  bool Check(std::string* error, const char* where) {
    const size_t at = i_;
    const char32_t c = Next();
    if (!TomlWhitespaceTestIsUndefined(c)) return true;
    size_t line = 1, column = 1;
    for (size_t k = 0; k < at; ++k) {
      if (text_[k] == '\n') {
        line++;
        column = 1;
      } else if ((static_cast<unsigned char>(text_[k]) & 0xC0) != 0x80) {
        column++;
      }
    }
    char hex[16];
    snprintf(hex, sizeof hex, "U+%04X", static_cast<unsigned>(c));
    *error = std::to_string(line) + ":" + std::to_string(column) + ": character " + hex +
             " " + where + " (the TOML reader cannot take it there)";
    return false;
  }

  // A literal string: to its closing delimiter (or the end of the text).
  void Skip(std::string_view close, size_t open) {
    i_ += open;
    size_t end = text_.find(close, i_);
    i_ = end == std::string_view::npos ? text_.size() : end + close.size();
  }

  // A single-line basic string, escapes included; ends at its quote or line.
  void Basic() {
    for (++i_; i_ < text_.size() && text_[i_] != '"' && text_[i_] != '\n'; ++i_)
      if (text_[i_] == '\\') ++i_;
    if (i_ < text_.size() && text_[i_] == '"') ++i_;
  }

  bool MultiLineBasic(std::string* error) {
    for (i_ += 3; i_ < text_.size();) {
      if (StartsWith("\"\"\"")) {
        i_ += 3;
        while (i_ < text_.size() && text_[i_] == '"') ++i_;  // up to two quotes end the content
        return true;
      }
      if (text_[i_] != '\\') {
        Next();
        continue;
      }
      ++i_;
      if (i_ >= text_.size()) return true;
      const bool line_ending = text_[i_] == ' ' || text_[i_] == '\t' || text_[i_] == '\n' || text_[i_] == '\r';
      if (!line_ending) {
        if (!Check(error, "after a backslash in a multi-line string")) return false;
        continue;
      }
      while (i_ < text_.size() && (text_[i_] == ' ' || text_[i_] == '\t' || text_[i_] == '\n' || text_[i_] == '\r'))
        ++i_;
      if (i_ < text_.size() && !Check(error, "first after a line-ending backslash (join the lines)")) return false;
    }
    return true;
  }

  // Counts the dots of the key being read: from the start of a line, a '['
  // or a '{' or ',' of an inline table, up to its '=' or ']'. toml++ builds a
  // key of N parts by recursion N deep.
  bool KeyParts(std::string* error) {
    const char c = text_[i_];
    if (c == '\n' || c == '[' || c == '{' || c == ',') {
      in_key_ = true;
      dots_ = 0;
    } else if (c == '=' || c == ']') {
      in_key_ = false;
    } else if (c == '.' && in_key_ && ++dots_ >= kMaxTomlKeyParts) {
      *error = std::to_string(LineOf(i_)) + ": a key of more than " + std::to_string(kMaxTomlKeyParts) +
               " dotted parts (the TOML reader cannot take it)";
      return false;
    }
    return true;
  }

  size_t LineOf(size_t at) const {
    size_t line = 1;
    for (size_t k = 0; k < at; ++k) line += text_[k] == '\n';
    return line;
  }

  std::string_view text_;
  size_t i_ = 0;
  bool in_key_ = true;
  size_t dots_ = 0;
};

}  // namespace

bool CheckTomlText(std::string_view text, std::string* error) { return Scanner(text).Run(error); }

bool ParseToml(std::string_view text, const std::string& path, toml::table* out, std::string* error) {
  std::string guard_error;
  if (!CheckTomlText(text, &guard_error)) {
    *error = path + ":" + guard_error;
    return false;
  }
  try {
    *out = toml::parse(text, path);
  } catch (const toml::parse_error& e) {
    *error = path + ":" + std::to_string(e.source().begin.line) + ": " + std::string(e.description());
    return false;
  }
  return true;
}

}  // namespace pgconflint
