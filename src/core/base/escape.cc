// Escaping text for terminals, XML and markdown.
#include "core/base/escape.h"

#include <algorithm>

#include "core/base/source_file.h"

namespace pgconflint {
namespace {

// `s` with control characters escaped and invalid UTF-8 replaced, then each
// byte for which `sub` returns a string replaced by it.
template <typename Sub>
std::string Substituted(std::string_view s, Sub sub) {
  std::string out;
  for (char c : ValidUtf8(EscapeControls(s))) {
    const char* r = sub(c);
    if (r) out += r;
    else out += c;
  }
  return out;
}

}  // namespace

void AppendEscaped(std::string_view s, std::string_view tab, std::string* out) {
  static const char kHex[] = "0123456789abcdef";
  out->reserve(out->size() + s.size());
  size_t run = 0;  // start of the bytes not yet appended
  for (size_t i = 0; i < s.size();) {
    unsigned char b = static_cast<unsigned char>(s[i]);
    if (b >= 0x20 && b < 0x7F) {
      ++i;
      continue;
    }
    size_t n = 1;
    char32_t c = b < 0x80 ? b : DecodeUtf8(s, i, &n);
    const bool invalid = c == 0xFFFD && n == 1;
    if (b != '\t' && !invalid && !ShownEscaped(c)) {
      i += n;
      continue;
    }
    out->append(s.substr(run, i - run));
    if (b == '\t') {
      out->append(tab);
    } else {
      for (size_t k = i; k < i + n; ++k) {
        unsigned char e = static_cast<unsigned char>(s[k]);
        out->append({'\\', 'x', kHex[e >> 4], kHex[e & 15]});
      }
    }
    i += n;
    run = i;
  }
  out->append(s.substr(run));
}

std::string EscapeControls(std::string_view s) {
  std::string out;
  AppendEscaped(s, "\t", &out);
  return out;
}

std::string ValidUtf8(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    size_t n = 0;
    char32_t c = DecodeUtf8(s, i, &n);
    if (c == 0xFFFD && n == 1) out += "\xEF\xBF\xBD";
    else out.append(s.substr(i, n));
    i += n;
  }
  return out;
}

std::string XmlEscape(std::string_view s) {
  return Substituted(s, [](char c) -> const char* {
    switch (c) {
      case '&': return "&amp;";
      case '<': return "&lt;";
      case '>': return "&gt;";
      case '"': return "&quot;";
      case '\'': return "&apos;";
      case '\t': return "&#9;";
      default: return nullptr;
    }
  });
}

std::string MarkdownEscape(std::string_view s) {
  return Substituted(s, [](char c) -> const char* {
    switch (c) {
      case '&': return "&amp;";
      case '<': return "&lt;";
      case '>': return "&gt;";
      case '@': return "&#64;";
      case '|': return "\\|";
      case '\\': return "\\\\";
      case '*': return "\\*";
      case '_': return "\\_";
      case '[': return "\\[";
      case ']': return "\\]";
      case '`': return "\\`";
      case '~': return "\\~";
      case '#': return "\\#";
      default: return nullptr;
    }
  });
}

std::string MarkdownCode(std::string_view s) {
  const std::string text = ValidUtf8(EscapeControls(s));
  size_t longest = 0, run = 0;
  for (char c : text) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  const std::string fence(longest + 1, '`');
  const bool pad = !text.empty() && (text.front() == '`' || text.back() == '`' || text.front() == ' ' ||
                                      text.back() == ' ');
  return fence + (pad ? " " : "") + text + (pad ? " " : "") + fence;
}

}  // namespace pgconflint
