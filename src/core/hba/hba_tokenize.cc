// The tokenizer of pg_hba.conf and pg_ident.conf, as hba.c's
// tokenize_auth_file, next_field_expand and next_token: logical lines
// (a trailing backslash joins the next line), blanks and commas between
// tokens, double quotes ("" is a quote), '#' to the end of the logical line,
// @file expanded in place, and in 16+ the include records. 14 and 15 refuse
// tokens of 255 bytes or more and know no include records or depth limit.
#include <algorithm>
#include <cstdint>
#include <map>

#include "core/hba/hba_source.h"

namespace pgconflint {
namespace {

constexpr int kMaxIncludeDepth = 10;           // CONF_FILE_MAX_DEPTH
// The expansion budget per root: @file and include reads, and the bytes they
// tokenize (a file is read once; each expansion tokenizes its text again).
// Past either, one error where it ran out; the expansions after it are
// counted as not performed and add no lines, so the work stays linear in the
// budget whatever the fan-out (ten includes of a file that includes itself
// ten times are 10^10 expansions for the server).
constexpr int kMaxExpansions = 2000;
constexpr uint64_t kMaxExpandedBytes = 32ull << 20;
constexpr int kEmpty = -2;    // Open(): a directory, read as an empty file
constexpr int kSkipped = -3;  // Open(): the budget is spent, the expansion is not performed
constexpr int kOutside = -4;  // Open(): outside the checked tree: not read, nothing expanded

bool IsBlank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

// One logical line: its characters and where each came from in the file.
struct Logical {
  std::string text;            // up to the first NUL, as the server's C string
  std::vector<uint32_t> pos;   // file offset of each character
  uint32_t begin = 0, end = 0; // bytes of the whole logical line
  uint32_t continuations = 0;
};

// pg_get_line_append + pg_strip_crlf + the backslash continuation rule.
bool NextLogicalLine(const std::string& file, size_t* at, Logical* out) {
  if (*at >= file.size()) return false;
  *out = Logical();
  out->begin = static_cast<uint32_t>(*at);
  std::string buf;
  std::vector<uint32_t> pos;
  size_t last_backslash = 0;
  while (*at < file.size()) {
    size_t nl = file.find('\n', *at);
    size_t stop = nl == std::string::npos ? file.size() : nl;
    for (size_t k = *at; k < stop; ++k) {
      buf += file[k];
      pos.push_back(static_cast<uint32_t>(k));
    }
    out->end = static_cast<uint32_t>(stop);
    *at = nl == std::string::npos ? file.size() : nl + 1;
    while (!buf.empty() && (buf.back() == '\r' || buf.back() == '\n')) {
      buf.pop_back();
      pos.pop_back();
    }
    if (buf.size() > last_backslash && buf.back() == '\\') {
      buf.pop_back();
      pos.pop_back();
      last_backslash = buf.size();
      ++out->continuations;
      continue;
    }
    break;
  }
  size_t nul = buf.find('\0');
  if (nul != std::string::npos) {
    buf.resize(nul);
    pos.resize(nul);
  }
  out->text = std::move(buf);
  out->pos = std::move(pos);
  return true;
}

struct RawToken {
  std::string text;
  bool initial_quote = false;
  bool comma = false;
  size_t begin = 0, end = 0;  // indices into the logical line
};

class Tokenizer {
 public:
  Tokenizer(const AuthReadContext& ctx, FileKind kind) : ctx_(ctx), kind_(kind) {}

  // Tokenizes files[file] at `depth`, appending its lines to *out.
  void File(int file, int depth, std::vector<AuthLine>* out) {
    const std::string text = ctx_.analysis->files[file].source.text();  // a copy: files may grow
    ParsedFile parsed;
    size_t at = 0;
    uint32_t line_number = 1;
    Logical l;
    while (NextLogicalLine(text, &at, &l)) {
      if (exhausted_ && depth > 0) break;  // an expansion past the budget adds nothing more
      AuthLine line;
      line.file = file;
      line.line = line_number;
      line.range = {l.begin, l.end};
      size_t k = 0;
      Range comment;
      while (k < l.text.size() && line.error.empty()) {
        AuthField field = Field(file, depth, l, &k, &line, &comment);
        if (!field.tokens.empty()) line.fields.push_back(std::move(field));
      }
      if (exhausted_ && depth > 0 && line.error.empty()) break;  // its @file was skipped: drop the line
      if (comment.end > comment.begin)
        parsed.comments.push_back({line_number, comment, line.fields.empty()});
      line_number += l.continuations + 1;
      if (line.fields.empty() && line.error.empty()) continue;
      Range first = line.fields.empty() ? line.range : line.fields.front().range;
      Range last = line.fields.empty() ? line.range : line.fields.back().range;
      parsed.settings.push_back({line.line, first, last, false, "", comment});
      if (line.error.empty() && ctx_.major >= 16 && line.fields.size() == 2 && Include(depth, line, out)) continue;
      out->push_back(std::move(line));
    }
    ctx_.analysis->files[file].parsed = std::move(parsed);
  }

 private:
  // next_token over the logical line from *k.
  bool Token(const Logical& l, size_t* k, RawToken* t, AuthLine* line, Range* comment) {
    const std::string& s = l.text;
    auto at = [&](size_t i) { return i < s.size() ? s[i] : '\0'; };
    *t = RawToken();
    size_t i = *k;
    char c = at(i++);
    while (c != '\0' && (IsBlank(c) || c == ',')) c = at(i++);
    t->begin = i - 1;
    bool in_quote = false, was_quote = false, saw_quote = false;
    while (c != '\0' && (!IsBlank(c) || in_quote)) {
      if (c == '#' && !in_quote) {
        *comment = {l.pos[i - 1], l.end};
        t->end = i - 1;
        i = s.size() + 1;
        break;
      }
      if (c == ',' && !in_quote) {
        t->comma = true;
        break;
      }
      if (c != '"' || was_quote) t->text += c;
      was_quote = in_quote && c == '"' ? !was_quote : false;
      if (c == '"') {
        in_quote = !in_quote;
        saw_quote = true;
        if (t->text.empty()) t->initial_quote = true;
      }
      c = at(i++);
    }
    if (c != '#' || in_quote) t->end = i - 1;
    *k = std::min(i - 1, s.size());
    return saw_quote || !t->text.empty();
  }

  Range RangeOf(const Logical& l, const RawToken& t) const {
    if (t.end <= t.begin) return {l.pos.empty() ? l.begin : l.pos[std::min(t.begin, l.pos.size() - 1)], l.end};
    return {l.pos[t.begin], l.pos[t.end - 1] + 1};
  }

  // next_field_expand: a comma list, @files expanded in place.
  AuthField Field(int file, int depth, const Logical& l, size_t* k, AuthLine* line, Range* comment) {
    AuthField field;
    RawToken t;
    do {
      if (!Token(l, k, &t, line, comment)) break;
      Range r = RangeOf(l, t);
      if (field.tokens.empty()) field.range.begin = r.begin;
      field.range.end = r.end;
      if (!t.initial_quote && t.text.size() > 1 && t.text[0] == '@') {
        ExpandAtFile(file, depth, t.text.substr(1), r, line, &field.tokens);
      } else {
        field.tokens.push_back({t.text, t.initial_quote, r, -1});
      }
    } while (t.comma && line->error.empty());
    return field;
  }

  // AbsoluteConfigLocation: an absolute name as written, else next to the
  // including file, canonicalized.
  std::string Location(int file, const std::string& name) const {
    if (!name.empty() && name[0] == '/') return name;
    return CanonicalizePath(ParentDirectory(ctx_.analysis->files[file].abs_path) + "/" + name);
  }

  // Opens an included file (open_auth_file); -1 with *error, *missing. A
  // directory opens, and its first read fails: tokenize_auth_file then
  // stops without a line or an error, so it reads as an empty file (-2).
  int Open(int from_file, const AuthLine& line, const std::string& path, int depth, std::string* error,
           bool* missing) {
    *missing = false;
    if (ctx_.major >= 16 && depth > kMaxIncludeDepth) {
      *error = "could not open file \"" + path + "\": maximum nesting depth exceeded";
      return -1;
    }
    if (exhausted_) return kSkipped;
    if (depth > kMaxIncludeDepth * 4) {
      *error = "pgconflint stopped expanding \"" + path + "\": the files include each other (a cycle) or too often";
      return -1;
    }
    // Outside the tree: the server reads its own copy, this machine's is
    // never read, nor asked whether it exists (the verdict must not depend
    // on the machine running pgconflint).
    if (!ctx_.allow_outside && !InsideTrees(ctx_.files->fs(), CanonicalizePath(path), ctx_.trees)) {
      if (ctx_.outside) ctx_.outside->push_back({from_file, line.range, CanonicalizePath(path)});
      return kOutside;
    }
    if (++expansions_ > kMaxExpansions) return Exhausted(path, std::to_string(kMaxExpansions) + " reads", error);
    ReadStatus status;
    std::string why;
    int idx = AddAuthFile(ctx_, CanonicalizePath(path), {from_file, line.line, line.range.begin}, depth, kind_,
                          &status, &why);
    if (idx >= 0) {
      expanded_bytes_ += ctx_.analysis->files[idx].source.text().size();
      if (expanded_bytes_ > kMaxExpandedBytes)
        return Exhausted(path, std::to_string(kMaxExpandedBytes >> 20) + " MB", error);
      return idx;
    }
    if (status == ReadStatus::kIsDirectory) return kEmpty;
    *missing = status == ReadStatus::kNotFound;
    *error = "could not open file \"" + path + "\": " + why;
    return -1;
  }

  // The budget is spent: one error, here; the expansions after it are skipped.
  int Exhausted(const std::string& path, const std::string& budget, std::string* error) {
    exhausted_ = true;
    *error = "pgconflint stopped expanding \"" + path + "\": the @files and includes expand to more than " + budget +
             " (the files include each other too often); what they would add is not checked";
    return -1;
  }

  // The error of an expansion skipped past the budget: on a line of the root
  // file only (an expanded file adds no more lines).
  std::string Skipped(int depth, const std::string& path) const {
    return depth > 0 ? "" : "pgconflint stopped expanding \"" + path + "\": the expansion budget was spent above";
  }

  void ExpandAtFile(int file, int depth, const std::string& name, Range at, AuthLine* line,
                    std::vector<AuthToken>* tokens) {
    std::string path = Location(file, name), error;
    bool missing;
    int idx = Open(file, *line, path, depth + 1, &error, &missing);
    if (idx == kEmpty || idx == kOutside) return;
    if (idx == kSkipped) {
      line->error = Skipped(depth, path);
      line->error_range = at;
      return;
    }
    if (idx < 0) {
      if (ctx_.major <= 15 && error.rfind("could not open file", 0) == 0)
        error = "could not open secondary authentication file \"@" + name + "\" as \"" + path + "\"" +
                error.substr(error.rfind(':'));
      line->error = error;
      line->error_range = at;
      return;
    }
    std::vector<AuthLine> inner;
    File(idx, depth + 1, &inner);
    for (const AuthLine& l : inner) {
      if (!l.error.empty()) {
        line->error = l.error;
        line->error_range = at;
        return;
      }
      for (const AuthField& f : l.fields)
        for (const AuthToken& t : f.tokens) tokens->push_back({t.text, t.quoted, at, t.from_file >= 0 ? t.from_file : idx});
    }
  }

  // The include records of 16+. True when the line was replaced by the
  // included lines; false leaves it (with an error, or not an include).
  bool Include(int depth, AuthLine& line, std::vector<AuthLine>* out) {
    const std::string& word = line.fields[0].tokens[0].text;
    const std::string& name = line.fields[1].tokens[0].text;
    bool optional = word == "include_if_exists";
    if (word == "include" || optional) {
      std::string error = IncludeOne(line, Location(line.file, name), depth + 1, optional, out);
      if (error.empty()) return true;
      line.error = error;
      line.error_range = line.range;
      return false;
    }
    if (word != "include_dir") return false;
    std::string dir = Location(line.file, name);
    std::vector<DirEntry> entries;
    std::string why;
    if (!ctx_.files->fs().List(CanonicalizePath(dir), &entries, &why)) {
      line.error = "could not open directory \"" + dir + "\"";
      line.error_range = line.range;
      return false;
    }
    std::vector<std::string> names;
    for (const DirEntry& e : entries) {
      const std::string& n = e.name;
      if (n.size() < 6 || n[0] == '.' || n.compare(n.size() - 5, 5, ".conf") != 0) continue;
      std::string path = CanonicalizePath(dir + "/" + n);
      if (ctx_.files->fs().Stat(path).type == FileInfo::Type::kDirectory) continue;
      names.push_back(path);
    }
    std::sort(names.begin(), names.end());
    std::string errors;
    for (const std::string& path : names) {
      std::string e = IncludeOne(line, path, depth + 1, false, out);
      if (!e.empty()) errors += (errors.empty() ? "" : "\n") + e;
    }
    if (errors.empty()) return true;
    line.error = errors;
    line.error_range = line.range;
    return false;
  }

  std::string IncludeOne(const AuthLine& line, const std::string& path, int depth, bool optional,
                         std::vector<AuthLine>* out) {
    std::string error;
    bool missing;
    int idx = Open(line.file, line, path, depth, &error, &missing);
    if (idx == kEmpty || idx == kOutside) return "";
    if (idx == kSkipped) return Skipped(depth - 1, path);
    if (idx < 0) return optional && missing ? "" : error;
    File(idx, depth, out);
    return "";
  }

  const AuthReadContext& ctx_;
  FileKind kind_;
  int expansions_ = 0;
  uint64_t expanded_bytes_ = 0;
  bool exhausted_ = false;
};

}  // namespace

int AddAuthFile(const AuthReadContext& ctx, const std::string& abs_path, IncludeSite from, int depth, FileKind kind,
                ReadStatus* status, std::string* error) {
  if (!ctx.allow_outside && !InsideTrees(ctx.files->fs(), abs_path, ctx.trees)) {
    *status = ReadStatus::kNotReadable;
    *error = "outside the checked tree: --allow-outside-includes reads it";
    return -1;
  }
  std::shared_ptr<const FileCache::Entry> entry = ctx.files->Get(abs_path, status, error);
  if (!entry) return -1;
  Analysis& a = *ctx.analysis;
  for (size_t i = 0; i < a.files.size(); ++i)
    if (a.files[i].abs_path == abs_path && a.files[i].kind == kind) return static_cast<int>(i);
  LoadedFile f{abs_path, SourceFile(DisplayPath(abs_path, ctx.display_base), entry->text), ParsedFile(), from, depth,
               false};
  f.kind = kind;
  a.files.push_back(std::move(f));
  return static_cast<int>(a.files.size() - 1);
}

std::vector<AuthLine> TokenizeAuthFile(const AuthReadContext& ctx, int file) {
  std::vector<AuthLine> lines;
  Tokenizer(ctx, ctx.analysis->files[file].kind).File(file, 0, &lines);
  return lines;
}

}  // namespace pgconflint
