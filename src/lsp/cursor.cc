// Words, settings and directives at a byte offset.
#include "lsp/cursor.h"

namespace pgconflint::lsp {

bool IsNameChar(char c) {
  unsigned char u = static_cast<unsigned char>(c);
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
         u >= 0x80;
}

bool IsRuleChar(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-'; }

Range WordAround(std::string_view text, uint32_t offset, bool (*in_word)(char)) {
  uint32_t begin = std::min<uint32_t>(offset, static_cast<uint32_t>(text.size())), end = begin;
  while (begin > 0 && in_word(text[begin - 1])) --begin;
  while (end < text.size() && in_word(text[end])) ++end;
  return {begin, end};
}

const Parameter* ParameterNamed(const Catalog& catalog, std::string_view name, bool* old_name,
                                const ExtensionSet* extensions, const ExtensionModule** module) {
  *old_name = false;
  if (module) *module = nullptr;
  if (name.empty()) return nullptr;
  if (const Parameter* p = catalog.Find(name)) return p;
  const char* target = catalog.AliasTarget(name);
  if (!target) {
    const ExtensionParameter* ep = extensions ? extensions->Find(name) : nullptr;
    if (ep && module) *module = &extensions->ModuleOf(*ep);
    return ep ? &ep->param : nullptr;
  }
  *old_name = true;
  return catalog.Find(target);
}

const CommentLine* DirectiveAt(const LoadedFile& file, uint32_t offset) {
  for (const CommentLine& c : file.parsed.comments) {
    if (offset < c.range.begin || offset > c.range.end) continue;
    std::string_view text = file.source.Slice(c.range);
    // "#", blanks, then the directive's marker, as directives.cc reads it.
    size_t at = text.find_first_not_of(" \t\r", 1);
    return at != std::string_view::npos && text.substr(at, 11) == "pgconflint:" ? &c : nullptr;
  }
  return nullptr;
}

const Setting* SettingAt(const Analysis& a, int file, uint32_t offset) {
  const SourceFile& src = a.files[file].source;
  uint32_t line = src.LineOf(offset);
  for (const Setting& s : a.settings)
    if (s.file == file && s.line == line) return &s;
  return nullptr;
}

bool IsIncludeDirective(std::string_view name) {
  std::string lower = AsciiLower(name);
  return lower == "include" || lower == "include_if_exists" || lower == "include_dir";
}

std::vector<int> IncludedBy(const Analysis& a, int file, uint32_t offset) {
  std::vector<int> out;
  for (size_t i = 0; i < a.files.size(); ++i)
    if (a.files[i].included_from.file == file && a.files[i].included_from.offset == offset)
      out.push_back(static_cast<int>(i));
  return out;
}

}  // namespace pgconflint::lsp
