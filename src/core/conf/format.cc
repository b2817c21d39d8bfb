// The canonical layout of postgresql.conf-format files.
#include "core/conf/format.h"

#include <algorithm>
#include <string_view>
#include <unordered_map>

#include "core/model/syntax.h"

namespace pgconflint {
namespace {

bool Blank(char c) { return c == ' ' || c == '\t'; }

std::string_view TrimRight(std::string_view s) {
  while (!s.empty() && Blank(s.back())) s.remove_suffix(1);
  return s;
}

// The value as ALTER SYSTEM writes it, or its own spelling when that cannot
// be said the same way between single quotes.
std::string CanonicalValue(const SettingLine& s, std::string_view raw) {
  if (!s.quoted) return "'" + std::string(raw) + "'";  // unquoted tokens hold no ' or backslash
  bool control = std::any_of(s.value_text.begin(), s.value_text.end(), [](char c) {
    auto u = static_cast<unsigned char>(c);
    return u < 0x20 || u == 0x7f;
  });
  if (control) return std::string(raw);
  std::string quoted = "'" + EscapeAutoConfValue(s.value_text) + "'";
  return UnescapeString(quoted) == s.value_text ? quoted : std::string(raw);
}

// What a parse says each line means: the same names (as written) and values.
bool SameMeaning(std::string_view before_text, const ParsedFile& before, const ParsedFile& after,
                 std::string_view after_text, uint32_t* line) {
  size_t n = std::min(before.settings.size(), after.settings.size());
  for (size_t i = 0; i <= n; ++i) {
    if (i == n) {
      if (before.settings.size() == after.settings.size() && after.error_count == 0) return true;
      *line = i < before.settings.size() ? before.settings[i].line : 1;
      return false;
    }
    const SettingLine& b = before.settings[i];
    const SettingLine& a = after.settings[i];
    auto slice = [](std::string_view t, Range r) { return t.substr(r.begin, r.end - r.begin); };
    if (a.line != b.line || a.value_text != b.value_text ||
        slice(after_text, a.name) != slice(before_text, b.name)) {
      *line = b.line;
      return false;
    }
  }
  return true;
}

}  // namespace

FormatResult FormatConf(const SourceFile& file, const FormatOptions& options) {
  FormatResult out;
  const std::string& text = file.text();
  ParsedFile parsed = Parse(text);
  if (parsed.truncated) {
    out.problem = "the file is larger than pgconflint analyses";
    return out;
  }
  if (!parsed.errors.empty()) {
    const SyntaxError& e = parsed.errors.front();
    out.problem = e.at_end_of_line ? "syntax error near end of line" : "syntax error near token \"" + e.near_text + "\"";
    out.line = e.line;
    out.column = e.near.begin - file.LineStart(e.line) + 1;
    return out;
  }
  std::unordered_map<uint32_t, const SettingLine*> by_line;
  for (const SettingLine& s : parsed.settings) by_line[s.line] = &s;
  auto slice = [&](Range r) { return std::string_view(text).substr(r.begin, r.end - r.begin); };

  // The name width of each run of setting lines, for `align`.
  std::unordered_map<uint32_t, size_t> width;
  if (options.align) {
    for (size_t i = 0; i < parsed.settings.size();) {
      size_t j = i, w = 0;
      for (; j < parsed.settings.size() && parsed.settings[j].line == parsed.settings[i].line + (j - i); ++j)
        w = std::max<size_t>(w, parsed.settings[j].name.end - parsed.settings[j].name.begin);
      for (size_t k = i; k < j; ++k) width[parsed.settings[k].line] = w;
      i = j;
    }
  }

  std::string formatted;
  formatted.reserve(text.size() + text.size() / 8);
  uint32_t line = 1;
  for (size_t at = 0; at < text.size(); ++line) {
    size_t eol = text.find('\n', at);
    bool terminated = eol != std::string::npos;
    if (!terminated) eol = text.size();
    size_t end = eol;
    if (terminated && end > at && text[end - 1] == '\r') --end;  // \r\n: the \r is the terminator's
    Range old{static_cast<uint32_t>(at), static_cast<uint32_t>(end)};
    std::string now;
    if (auto it = by_line.find(line); it != by_line.end()) {
      const SettingLine& s = *it->second;
      now = std::string(slice(s.name));
      if (options.align) now.append(width[line] - now.size(), ' ');
      now += " = " + CanonicalValue(s, slice(s.value));
      if (s.comment.end > s.comment.begin) {
        std::string_view gap = slice({s.value.end, s.comment.begin});
        now += gap.empty() ? std::string_view(" ") : gap;
        // The comment token runs to the '\n': a \r\n line's \r is the terminator's.
        now += TrimRight(slice({s.comment.begin, std::min(s.comment.end, old.end)}));
      }
    } else {
      now = std::string(TrimRight(slice(old)));
    }
    if (now != slice(old)) out.edits.push_back({old, now});
    formatted += now;
    formatted.append(text, end, terminated ? eol + 1 - end : 0);
    if (!terminated) {
      formatted += '\n';
      if (!out.edits.empty() && out.edits.back().old.begin == old.begin) out.edits.back().text += '\n';
      else out.edits.push_back({{old.end, old.end}, "\n"});
    }
    at = terminated ? eol + 1 : eol;
  }

  ParsedFile again = Parse(formatted);
  if (uint32_t bad = 0; !SameMeaning(text, parsed, again, formatted, &bad)) {
    out.edits.clear();
    out.problem = "formatting would change what the server reads from this line; the file is left as it is";
    out.line = bad;
    return out;
  }
  out.ok = true;
  out.text = out.edits.empty() ? text : std::move(formatted);
  return out;
}

}  // namespace pgconflint
