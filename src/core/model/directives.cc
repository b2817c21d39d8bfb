// Reading `# pgconflint:` directives from a file's comments.
#include "core/model/directives.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>

#include "core/base/strings.h"

namespace pgconflint {
namespace {

constexpr std::string_view kPrefix = "pgconflint:";

// The first line after `line` that holds a setting or a syntax error (both
// lists are in line order), or 0.
uint32_t NextLine(const ParsedFile& parsed, uint32_t line) {
  uint32_t next = 0;
  auto s = std::upper_bound(parsed.settings.begin(), parsed.settings.end(), line,
                            [](uint32_t l, const SettingLine& x) { return l < x.line; });
  if (s != parsed.settings.end()) next = s->line;
  auto e = std::upper_bound(parsed.errors.begin(), parsed.errors.end(), line,
                            [](uint32_t l, const SyntaxError& x) { return l < x.line; });
  if (e != parsed.errors.end() && (next == 0 || e->line < next)) next = e->line;
  return next;
}

// A major written as plain digits, within int range; 0 otherwise.
int ParseMajor(const std::string& text) {
  if (text.empty() || text.size() > 4 || text.find_first_not_of("0123456789") != std::string::npos) return 0;
  return std::atoi(text.c_str());
}

std::vector<std::string> SplitSelectors(std::string_view value) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= value.size()) {
    size_t comma = value.find(',', start);
    std::string_view sel = TrimBlanks(value.substr(start, comma == std::string_view::npos ? std::string_view::npos
                                                                                    : comma - start));
    if (!sel.empty()) out.emplace_back(sel);
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return out;
}

// The length of a `file-type = conf|hba|ident` item at the start of `s`
// (blanks allowed around '='), and what it says; 0 when `s` does not start
// with one.
size_t FileTypeItem(std::string_view s, MarkedFileType* type) {
  constexpr std::string_view kKey = "file-type";
  if (s.substr(0, kKey.size()) != kKey) return 0;
  size_t i = kKey.size();
  auto blanks = [&] {
    while (i < s.size() && IsBlank(s[i])) ++i;
  };
  blanks();
  if (i == s.size() || s[i] != '=') return 0;
  ++i;
  blanks();
  const size_t start = i;
  while (i < s.size() && s[i] >= 'a' && s[i] <= 'z') ++i;
  if (i < s.size() && !IsBlank(s[i]) && s[i] != '#') return 0;
  const std::string_view word = s.substr(start, i - start);
  *type = word == "conf"    ? MarkedFileType::kConf
          : word == "hba"   ? MarkedFileType::kHba
          : word == "ident" ? MarkedFileType::kIdent
                            : MarkedFileType::kNone;
  return *type == MarkedFileType::kNone ? 0 : i;
}

// Reads the items of one directive comment (after "pgconflint:").
void ReadComment(const ParsedFile& parsed, const CommentLine& c, std::string_view body, FileDirectives* out) {
  body = body.substr(0, body.find('#'));  // a reason may follow after another '#'
  bool any = false, reported = false;
  std::string_view rest = body;
  while (!(rest = TrimBlanks(rest)).empty()) {
    MarkedFileType type;
    if (size_t n = c.line == 1 ? FileTypeItem(rest, &type) : 0) {  // read by the classifier
      any = true;
      rest.remove_prefix(n);
      continue;
    }
    size_t sp = rest.find_first_of(" \t");
    std::string_view item = rest.substr(0, sp);
    rest = sp == std::string_view::npos ? std::string_view() : rest.substr(sp);
    size_t eq = item.find('=');
    std::string_view key = item.substr(0, eq);
    std::string_view value = eq == std::string_view::npos ? std::string_view() : item.substr(eq + 1);
    bool known = key == "disable" || key == "disable-file" || key == "pg-version";
    bool item_shaped = eq != std::string_view::npos && !key.empty() &&
                       key.find_first_not_of("abcdefghijklmnopqrstuvwxyz-") == std::string_view::npos;
    if (!known || value.empty()) {
      // Free text after at least one item is the reason; a misspelt item is not.
      if (!any || item_shaped) {
        out->malformed.push_back({c.range, std::string(item)});
        reported = true;
      }
      if (item_shaped) continue;
      return;
    }
    any = true;
    Directive d;
    d.comment = c.range;
    d.line = c.line;
    if (key == "pg-version") {
      d.kind = Directive::Kind::kPgVersion;
      d.version_text = std::string(value);
      d.pg_version = ParseMajor(d.version_text);
    } else {
      d.kind = key == "disable-file" ? Directive::Kind::kDisableFile
               : c.own_line          ? Directive::Kind::kDisableNext
                                     : Directive::Kind::kDisableLine;
      if (d.kind == Directive::Kind::kDisableNext) d.line = NextLine(parsed, c.line);
      d.selectors = SplitSelectors(value);
    }
    out->directives.push_back(std::move(d));
  }
  if (!any && !reported) out->malformed.push_back({c.range, ""});
}

}  // namespace

FileDirectives ReadDirectives(std::string_view file, const ParsedFile& parsed) {
  FileDirectives out;
  // Most files have no directive at all: one search instead of one per comment.
  if (file.find(kPrefix) == std::string_view::npos) return out;
  for (const CommentLine& c : parsed.comments) {
    std::string_view text = file.substr(c.range.begin, c.range.end - c.range.begin);
    text.remove_prefix(1);  // '#'
    text = TrimBlanks(text);
    if (text.substr(0, kPrefix.size()) != kPrefix) continue;
    ReadComment(parsed, c, text.substr(kPrefix.size()), &out);
  }
  return out;
}

MarkedFileType FirstLineFileType(std::string_view text) {
  std::string_view line = TrimBlanks(text.substr(0, text.find('\n')));
  if (line.empty() || line[0] != '#') return MarkedFileType::kNone;
  line = TrimBlanks(line.substr(1));
  if (line.substr(0, kPrefix.size()) != kPrefix) return MarkedFileType::kNone;
  MarkedFileType type = MarkedFileType::kNone;
  return FileTypeItem(TrimBlanks(line.substr(kPrefix.size())), &type) ? type : MarkedFileType::kNone;
}

int PgVersionDirective(std::string_view text, const ParsedFile& parsed) {
  for (const Directive& d : ReadDirectives(text, parsed).directives)
    if (d.kind == Directive::Kind::kPgVersion && d.pg_version) return d.pg_version;
  return 0;
}

}  // namespace pgconflint
