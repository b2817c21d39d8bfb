// Loading (guc-file.l's ParseConfigFile / ParseConfigDirectory semantics) and
// processing (guc.c's ProcessConfigFileInternal) of one root.
#include "core/analysis.h"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <unordered_map>

#include "core/value.h"

namespace pgconflint {
namespace {

// CONF_FILE_MAX_DEPTH: postgresql.conf is depth 0, each include adds one.
constexpr int kMaxIncludeDepth = 10;

std::string Quote(std::string_view s) { return "\"" + std::string(s) + "\""; }

std::string ParentDir(const std::string& path) {
  size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

std::string CurrentDir() {
  char buf[4096];
  return getcwd(buf, sizeof buf) ? std::string(buf) : std::string("/");
}

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && AsciiLower(a) == AsciiLower(b);
}

class Loader {
 public:
  Loader(Analysis* a, const AnalyzeOptions& o) : a_(a), opts_(o) {}

  std::string Display(const std::string& abs) const {
    const std::string& base = opts_.display_base;
    if (!base.empty() && abs.size() > base.size() && abs.compare(0, base.size(), base) == 0 &&
        (base.back() == '/' || abs[base.size()] == '/'))
      return abs.substr(base.size() + (base.back() == '/' ? 0 : 1));
    return abs;
  }

  void AddDiag(RuleId rule, int file, Range range, std::string message, std::string help,
               std::string parameter = "", std::optional<bool> fatal = std::nullopt,
               std::optional<Severity> severity = std::nullopt) {
    const RuleInfo& info = Rule(rule);
    Diagnostic d;
    d.rule = &info;
    d.severity = severity.value_or(info.default_severity());
    d.fatal = fatal.value_or(info.fatality() == Fatality::kYes);
    d.file = file;
    d.range = range;
    d.parameter = std::move(parameter);
    d.message = std::move(message);
    d.help = std::move(help);
    a_->diagnostics.push_back(std::move(d));
  }

  // Adds a parsed file. `display` overrides the display path (roots keep the
  // PATH as given).
  int AddFile(std::string abs, std::string display, std::string text, IncludeSite from, int depth) {
    LoadedFile f{abs, SourceFile(std::move(display), std::move(text)), {}, from, depth, false};
    std::string base = abs.substr(abs.rfind('/') + 1);
    f.auto_conf = base == "postgresql.auto.conf";
    f.parsed = Parse(f.source);
    a_->files.push_back(std::move(f));
    return static_cast<int>(a_->files.size() - 1);
  }

  // Reads one file and everything it includes, appending settings in order.
  // `site_file`/`site_range` locate the directive that asked for it (-1 for a root).
  // Returns false when PostgreSQL would fail here (strict open failure, depth...).
  bool LoadFile(const std::string& written, bool strict, int site_file, Range site_range,
                uint32_t site_line, int depth, const std::string& base_dir) {
    if (depth > kMaxIncludeDepth) {
      AddDiag(RuleId::kIncludeRecursion, site_file, site_range,
              "could not open configuration file " + Quote(written) + ": maximum nesting depth exceeded",
              "includes nest deeper than " + std::to_string(kMaxIncludeDepth) +
                  " levels; an include cycle (a.conf includes b.conf includes a.conf) also ends here");
      return false;
    }
    if (written.find_first_not_of(" \t\r\n") == std::string::npos) {
      AddDiag(RuleId::kIncludeNotFound, site_file, site_range,
              "empty configuration file name: " + Quote(written), "give the file to include");
      return false;
    }
    std::string abs = written[0] == '/' ? written : CanonicalizePath(base_dir + "/" + written);
    const std::string* calling = site_file >= 0 ? &a_->files[site_file].abs_path : nullptr;
    if (calling && *calling == abs) {
      AddDiag(RuleId::kIncludeRecursion, site_file, site_range,
              "configuration file recursion in " + Quote(Display(*calling)),
              "remove the directive: a file cannot include itself");
      return false;
    }
    std::string text, error;
    ReadStatus st = SourceFile::Read(abs, &text, &error);
    if (st != ReadStatus::kOk) {
      if (!strict) {
        AddDiag(RuleId::kOptionalIncludeMissing, site_file, site_range,
                "skipping missing configuration file " + Quote(Display(abs)),
                "create the file or fix the path if it should exist; otherwise remove the directive "
                "(PostgreSQL logs this on every start and reload)");
        return true;
      }
      AddDiag(RuleId::kIncludeNotFound, site_file, site_range,
              "could not open configuration file " + Quote(Display(abs)) + ": " + error,
              "create the file, fix the path (relative paths start at the including file's "
              "directory), or use include_if_exists for an optional file");
      return false;
    }
    int idx = AddFile(abs, Display(abs), std::move(text), {site_file, site_line, site_range.begin}, depth);
    Process(idx, depth);
    return true;
  }

  // include_dir: *.conf files (at least 6 characters, not starting with '.'),
  // not directories, in C order; the first failing file ends the directory.
  bool LoadDir(const std::string& written, int site_file, Range site_range, uint32_t site_line,
               int depth, const std::string& base_dir) {
    if (written.find_first_not_of(" \t\r\n") == std::string::npos) {
      AddDiag(RuleId::kIncludeNotFound, site_file, site_range,
              "empty configuration directory name: " + Quote(written), "give the directory to include");
      return false;
    }
    std::string dir = written[0] == '/' ? written : CanonicalizePath(base_dir + "/" + written);
    DIR* d = opendir(dir.c_str());
    if (!d) {
      AddDiag(RuleId::kIncludeNotFound, site_file, site_range,
              "could not open configuration directory " + Quote(Display(dir)) + ": " + strerror(errno),
              "create the directory or fix the path (relative to the including file's directory)");
      return false;
    }
    std::vector<std::string> names;
    bool ok = true;
    while (dirent* e = readdir(d)) {
      std::string_view n = e->d_name;
      if (n.size() < 6 || n[0] == '.' || n.substr(n.size() - 5) != ".conf") continue;
      std::string path = dir + "/" + std::string(n);
      struct stat st;
      if (stat(path.c_str(), &st) != 0) {
        AddDiag(RuleId::kIncludeNotFound, site_file, site_range,
                "could not stat file " + Quote(Display(path)) + ": " + strerror(errno),
                "remove the dangling entry from the directory");
        ok = false;
        break;
      }
      if (S_ISDIR(st.st_mode)) continue;
      names.push_back(std::move(path));
    }
    closedir(d);
    if (!ok) return false;
    std::sort(names.begin(), names.end());  // byte order, as pg_qsort_strcmp
    for (const std::string& path : names)
      if (!LoadFile(path, true, site_file, site_range, site_line, depth, base_dir)) return false;
    return true;
  }

  // Walks one file's lines in order; runs include directives where they stand.
  void Process(int idx, int depth) {
    // Copy what we need: recursion appends to a_->files and may move it.
    std::vector<SettingLine> lines = a_->files[idx].parsed.settings;
    std::string dir = ParentDir(a_->files[idx].abs_path);
    for (const SyntaxError& e : a_->files[idx].parsed.errors) {
      std::string msg = e.at_end_of_line ? "syntax error near end of line"
                                         : "syntax error near token " + Quote(e.near_text);
      AddDiag(RuleId::kSyntaxError, idx, e.near, msg, "expected " + e.expected + SyntaxHelp(idx, e));
    }
    for (const SettingLine& s : lines) {
      const SourceFile& src = a_->files[idx].source;
      std::string name(src.Slice(s.name));
      Range whole{s.name.begin, s.value.end};
      if (EqualsIgnoreCase(name, "include")) {
        LoadFile(s.value_text, true, idx, whole, s.line, depth + 1, dir);
      } else if (EqualsIgnoreCase(name, "include_if_exists")) {
        LoadFile(s.value_text, false, idx, whole, s.line, depth + 1, dir);
      } else if (EqualsIgnoreCase(name, "include_dir")) {
        LoadDir(s.value_text, idx, whole, s.line, depth + 1, dir);
      } else {
        Setting out;
        out.name = std::move(name);
        out.param = nullptr;
        std::string_view tok = src.Slice(s.value);
        out.raw = std::string(s.quoted ? tok.substr(1, tok.size() - 2) : tok);
        out.text = s.value_text;
        out.file = idx;
        out.line = s.line;
        out.name_range = s.name;
        out.value_range = s.value;
        a_->settings.push_back(std::move(out));
      }
    }
  }

  // A few common mistakes deserve a precise hint.
  std::string SyntaxHelp(int idx, const SyntaxError& e) const {
    const std::string& text = a_->files[idx].source.text();
    std::string_view near = e.near_text;
    if (e.near.begin == 0 && text.compare(0, 3, "\xEF\xBB\xBF") == 0)
      return "; the file starts with a UTF-8 byte order mark, which PostgreSQL reads as part of the "
             "first name: save the file without it";
    if (e.expected.rfind("a parameter name", 0) == 0) {
      if (near.find('-') != std::string_view::npos) {
        std::string fixed(near);
        for (char& c : fixed)
          if (c == '-') c = '_';
        return "; names use underscores, not dashes: " + fixed;
      }
      if (near == "=") return "; the line has no parameter name";
      return "; a name starts with a letter or underscore and has at most one dot";
    }
    if (near == "\"") return "; PostgreSQL quotes values with single quotes only";
    if (near == "'") return "; the quoted value is not closed on this line";
    if (near == "\\") return "; PostgreSQL has no line continuation: keep the value on one line";
    if (near == "=") return "; remove the extra '='";
    if (e.at_end_of_line) return "";
    if (e.expected == "a value" || e.expected.rfind("'='", 0) == 0)
      return "; quote the value: '" + std::string(near) + "...'";
    // Something follows a complete value: a second token of the same value
    // ('64 MB', '1.5GB', '0.0.0.0', 'a,b'), or junk such as an unquoted comment.
    size_t line_start = text.rfind('\n', e.near.begin ? e.near.begin - 1 : 0);
    line_start = line_start == std::string::npos ? 0 : line_start + 1;
    std::string_view line(text.data() + line_start, e.near.begin - line_start);
    size_t eq = line.find('=');
    std::string_view value = eq == std::string_view::npos ? line : line.substr(eq + 1);
    while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) value.remove_prefix(1);
    std::string rest = std::string(text.data() + e.near.begin,
                                   text.find_first_of("#\n", e.near.begin) == std::string::npos
                                       ? text.size() - e.near.begin
                                       : text.find_first_of("#\n", e.near.begin) - e.near.begin);
    while (!rest.empty() && (rest.back() == ' ' || rest.back() == '\t' || rest.back() == '\r')) rest.pop_back();
    if (!value.empty() && value.front() == '\'') return "; comments start with '#'";
    std::string whole = std::string(value) + rest;
    return "; the value is more than one token: quote all of it, e.g. '" + whole + "'";
  }

 private:
  Analysis* a_;
  const AnalyzeOptions& opts_;
};

// "io_method" exists in 18 only; "ssl_groups" in 18 is "ssl_ecdh_curve" before.
std::string NotInVersionHelp(const Catalog& cat, const std::string& name) {
  for (int m : Catalog::SupportedMajors()) {
    const Catalog* other = Catalog::ForMajor(m);
    const Parameter* p = other->Find(name);
    if (!p) continue;
    for (const Alias& al : other->aliases())
      if (EqualsIgnoreCase(al.new_name, p->name) && cat.Find(al.old_name))
        return "in PostgreSQL " + std::to_string(cat.major()) + " this parameter is called " + al.old_name;
  }
  return "remove the line for this major, or check with the --pg-version of the server you run";
}

// ProcessConfigFileInternal: names, duplicates, then values.
void ProcessSettings(Analysis* a, Loader* loader) {
  const Catalog& cat = *a->catalog;
  // 1. Names.
  for (Setting& s : a->settings) {
    s.param = cat.Find(s.name);
    if (!s.param) {
      if (const char* target = cat.AliasTarget(s.name)) {
        s.param = cat.Find(target);
        loader->AddDiag(RuleId::kRenamedParameter, s.file, s.name_range,
                        Quote(s.name) + " is an old name for " + Quote(target),
                        "write " + std::string(target) + "; the old name still works but is undocumented",
                        target);
      }
    }
    if (s.param || s.name.find('.') != std::string::npos) continue;  // known, or a custom placeholder
    std::vector<int> majors = MajorsWithParameter(s.name);
    if (!majors.empty()) {
      std::string list;
      for (size_t i = 0; i < majors.size(); ++i) list += (i ? ", " : "") + std::to_string(majors[i]);
      loader->AddDiag(RuleId::kParameterNotInVersion, s.file, s.name_range,
                      "unrecognized configuration parameter " + Quote(s.name) + " in PostgreSQL " +
                          std::to_string(cat.major()) + " (it exists in " + list + ")",
                      NotInVersionHelp(cat, s.name), s.name);
      continue;
    }
    std::vector<std::string> hint = cat.Suggest(s.name, 1);
    bool bom = s.name.compare(0, 3, "\xEF\xBB\xBF") == 0;
    loader->AddDiag(RuleId::kUnknownParameter, s.file, s.name_range,
                    "unrecognized configuration parameter " + Quote(s.name),
                    bom ? "the file starts with a UTF-8 byte order mark, which PostgreSQL reads as part of this "
                          "name: save the file without it"
                    : hint.empty() ? "check the spelling with `pgconflint params`; an extension's parameters "
                                   "need its prefix, e.g. auto_explain.log_min_duration"
                                 : "did you mean " + Quote(hint[0]) + "?",
                    s.name);
  }
  // 2. Duplicates: earlier entries with exactly the same spelling are ignored
  //    (known parameters only); spellings that differ are all applied, in order.
  std::vector<std::pair<size_t, size_t>> overridden;  // (earlier, later)
  {
    std::unordered_map<std::string, size_t> last_by_key;  // lower-cased resolved name
    for (size_t i = 0; i < a->settings.size(); ++i) {
      Setting& s = a->settings[i];
      if (!s.param && s.name.find('.') == std::string::npos) continue;  // unknown: already an error
      std::string key = AsciiLower(s.param ? s.param->name : s.name);
      if (auto it = last_by_key.find(key); it != last_by_key.end()) {
        Setting& prev = a->settings[it->second];
        if (prev.name == s.name && s.param) prev.ignored = true;
        overridden.emplace_back(it->second, i);
      }
      last_by_key[key] = i;
    }
  }
  // 3. Values. Ignored lines are parsed too (for `value` and PGC303), but the
  //    server never looks at them, so only the others get diagnostics.
  std::vector<std::string> invalid(a->settings.size());
  for (size_t i = 0; i < a->settings.size(); ++i) {
    Setting& s = a->settings[i];
    if (!s.param) {
      if (s.name.find('.') != std::string::npos) {  // custom placeholder: any string
        s.value = s.text;
        s.applied = !s.ignored;
      }
      continue;
    }
    const Parameter& p = *s.param;
    const LoadedFile& file = a->files[s.file];
    // The harvest records what `postgres -C` does with the boot value in a
    // file; "cannot be changed" means no value can be set there.
    if (!p.file_accepted && std::string_view(p.file_message).find("cannot be changed") != std::string_view::npos) {
      if (!s.ignored)
        loader->AddDiag(RuleId::kParameterNotSettableInFile, s.file, s.name_range, p.file_message,
                        "remove the line: this parameter is read-only (set when PostgreSQL is built, or "
                        "by initdb)",
                        p.name, true, Severity::kError);
      continue;
    }
    if (file.auto_conf && !p.alter_system_accepted && !s.ignored) {
      loader->AddDiag(RuleId::kParameterNotSettableInFile, s.file, s.name_range,
                      "ALTER SYSTEM refuses " + Quote(p.name) + " (" + p.alter_system_message +
                          "), so this line was written into postgresql.auto.conf by hand",
                      "move it to postgresql.conf", p.name, false, Severity::kWarning);
    }
    ParsedValue v = ParseValue(*a->catalog, p, s.text);
    if (!v.ok()) {
      invalid[i] = v.message;
      if (s.ignored) continue;
      RuleId rule = v.problem == ValueProblem::kOutOfRange ? RuleId::kValueOutOfRange : RuleId::kInvalidValue;
      std::string help = v.hint;
      if (help.empty() && p.type == VarType::kBool) help = "use on or off (also true/false, yes/no, 1/0)";
      if (help.empty() && p.min_val[0])
        help = std::string("the range is ") + p.min_val + " .. " + p.max_val +
               (p.unit[0] ? std::string(" (unit ") + p.unit + ")" : "");
      if (help.empty()) help = "see `pgconflint params " + std::string(p.name) + "`";
      loader->AddDiag(rule, s.file, s.value_range, v.message, help, p.name);
      continue;
    }
    s.value = v.normalized;
    s.number = v.number;
    s.applied = !s.ignored;
    if (s.ignored) continue;
    if (v.rounded) {
      bool to_zero = v.number == 0 && v.exact != 0;
      loader->AddDiag(RuleId::kValueRounded, s.file, s.value_range,
                      Quote(s.raw) + " is rounded to " + FormatWithUnit(v.number, p) +
                          (to_zero ? ", and 0 often means disabled" : ""),
                      "write a whole number of " + std::string(p.unit[0] ? p.unit : "units") +
                          ", the value PostgreSQL will use",
                      p.name);
    }
    if (v.octal || v.hex) {
      bool perms = std::string_view(p.short_desc).find("permissions") != std::string_view::npos;
      if (!perms || v.hex) {
        std::string decimal = s.raw;
        decimal.erase(0, decimal.find_first_not_of("+-0xX"));
        loader->AddDiag(RuleId::kOctalOrHexLiteral, s.file, s.value_range,
                        Quote(s.raw) + (v.octal ? " has a leading zero, so it is octal: " : " is hexadecimal: ") +
                            FormatWithUnit(v.number, p),
                        v.octal ? "write " + (decimal.empty() ? std::string("0") : decimal) +
                                      " if you meant decimal, or " + FormatWithUnit(v.number, p) + " if not"
                                : "write the decimal number " + FormatWithUnit(v.number, p),
                        p.name);
      }
    }
    if (p.type == VarType::kInteger && p.unit_kind != UnitKind::kNone && !v.has_unit && v.number != 0 &&
        v.number != -1) {
      bool blocks = isdigit(static_cast<unsigned char>(p.unit[0]));
      std::string meaning = blocks ? s.raw + " blocks of " + p.unit : s.raw + p.unit;
      std::string shown = FormatWithUnit(v.number, p);
      loader->AddDiag(RuleId::kValueWithoutUnit, s.file, s.value_range,
                      Quote(s.raw) + " has no unit, so it means " + meaning +
                          (shown != s.raw + p.unit ? " (" + shown + ")" : ""),
                      "write it with a unit: '" + shown + "'", p.name);
    }
    if (v.adjusted) {
      loader->AddDiag(RuleId::kValueRounded, s.file, s.value_range,
                      Quote(s.raw) + " is " + v.adjustment + " by the server",
                      "write the value the server will use", p.name);
    }
  }
  for (const auto& [i, j] : overridden) {
    const Setting& prev = a->settings[i];
    const Setting& s = a->settings[j];
    std::string name = s.param ? s.param->name : s.name;
    std::string where = a->files[s.file].source.path() + ":" + std::to_string(s.line);
    std::string msg = Quote(prev.name) + (EqualsIgnoreCase(prev.name, name) ? "" : " (" + name + ")") +
                      " is set again at " + where + ", so this line has no effect";
    if (!invalid[i].empty()) msg += "; its value is invalid too (" + invalid[i] + ")";
    std::string help = prev.name == s.name || !s.param
                           ? "delete this line, or move the value you want to the last occurrence"
                           : "delete this line; PostgreSQL applies both because they are spelled differently (" +
                                 prev.name + ", " + s.name + ") and the later one wins";
    loader->AddDiag(RuleId::kSettingOverridden, prev.file, prev.name_range, msg, help, name);
  }
}

}  // namespace

std::string CanonicalizePath(const std::string& path) {
  bool absolute = !path.empty() && path[0] == '/';
  std::vector<std::string> parts;
  size_t i = 0;
  while (i <= path.size()) {
    size_t j = path.find('/', i);
    if (j == std::string::npos) j = path.size();
    std::string part = path.substr(i, j - i);
    if (part.empty() || part == ".") {
    } else if (part == "..") {
      if (!parts.empty() && parts.back() != "..") parts.pop_back();
      else if (!absolute) parts.push_back(part);
    } else {
      parts.push_back(part);
    }
    i = j + 1;
  }
  std::string out = absolute ? "/" : "";
  for (size_t k = 0; k < parts.size(); ++k) out += (k ? "/" : "") + parts[k];
  if (out.empty()) out = ".";
  return out;
}

bool Analysis::fatal() const {
  for (const Diagnostic& d : diagnostics)
    if (d.fatal) return true;
  return failure != Failure::kNone;
}

std::vector<IncludeSite> Analysis::IncludeChain(int file) const {
  std::vector<IncludeSite> chain;
  while (file >= 0 && files[file].included_from.file >= 0) {
    chain.push_back(files[file].included_from);
    file = files[file].included_from.file;
  }
  std::reverse(chain.begin(), chain.end());
  return chain;
}

const Setting* Analysis::Effective(std::string_view name) const {
  const Setting* found = nullptr;
  for (const Setting& s : settings) {
    if (!s.applied) continue;
    std::string_view n = s.param ? std::string_view(s.param->name) : std::string_view(s.name);
    if (EqualsIgnoreCase(n, name)) found = &s;
  }
  return found;
}

std::vector<uint32_t> Analysis::ReadingOrder(int file, uint32_t offset) const {
  std::vector<uint32_t> key;
  if (file < 0) return {UINT32_MAX};
  // The root's own index first: a data directory has two roots.
  int f = file;
  while (files[f].included_from.file >= 0) f = files[f].included_from.file;
  key.push_back(static_cast<uint32_t>(f));
  for (const IncludeSite& s : IncludeChain(file)) key.push_back(s.offset);
  key.push_back(offset);
  return key;
}

static void SortDiagnostics(Analysis* a) {
  std::vector<std::pair<std::vector<uint32_t>, size_t>> keys;
  for (size_t i = 0; i < a->diagnostics.size(); ++i)
    keys.emplace_back(a->ReadingOrder(a->diagnostics[i].file, a->diagnostics[i].range.begin), i);
  std::stable_sort(keys.begin(), keys.end(), [&](const auto& x, const auto& y) {
    if (x.first != y.first) return x.first < y.first;
    return strcmp(a->diagnostics[x.second].rule->code, a->diagnostics[y.second].rule->code) < 0;
  });
  std::vector<Diagnostic> sorted;
  sorted.reserve(keys.size());
  for (const auto& k : keys) sorted.push_back(std::move(a->diagnostics[k.second]));
  a->diagnostics = std::move(sorted);
}

namespace {

std::string MakeAbsolute(const std::string& path) {
  return CanonicalizePath(path[0] == '/' ? path : CurrentDir() + "/" + path);
}

}  // namespace

Analysis Analyze(const std::string& root, const AnalyzeOptions& options) {
  Analysis a;
  a.root = root;
  a.catalog = options.catalog;
  Loader loader(&a, options);
  if (root.empty()) {
    a.failure = Analysis::Failure::kUsage;
    a.failure_message = "empty path";
    return a;
  }
  std::string abs = MakeAbsolute(root);
  struct stat st;
  bool is_dir = stat(abs.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
  std::vector<std::pair<std::string, bool>> roots;  // (absolute path, strict)
  if (is_dir) {
    roots.emplace_back(abs + "/postgresql.conf", true);
    roots.emplace_back(abs + "/postgresql.auto.conf", false);
  } else {
    roots.emplace_back(abs, true);
  }
  for (const auto& [path, strict] : roots) {
    std::string text, error;
    ReadStatus rs = SourceFile::Read(path, &text, &error);
    if (rs != ReadStatus::kOk) {
      if (!strict && rs == ReadStatus::kNotFound) continue;
      a.failure = rs == ReadStatus::kNotFound || rs == ReadStatus::kBinary || rs == ReadStatus::kTooLarge ||
                          rs == ReadStatus::kIsDirectory
                      ? Analysis::Failure::kUsage
                      : Analysis::Failure::kIo;
      a.failure_message = path + ": " + error;
      return a;
    }
    std::string display = is_dir ? loader.Display(path) : root;
    if (is_dir && options.display_base.empty()) display = root + (root.back() == '/' ? "" : "/") + path.substr(path.rfind('/') + 1);
    int idx = loader.AddFile(path, display, std::move(text), {}, 0);
    loader.Process(idx, 0);
  }
  ProcessSettings(&a, &loader);
  SortDiagnostics(&a);
  return a;
}

Analysis AnalyzeText(const std::string& name, const std::string& text, const AnalyzeOptions& options) {
  Analysis a;
  a.root = name;
  a.catalog = options.catalog;
  Loader loader(&a, options);
  int idx = loader.AddFile(MakeAbsolute(name), name, text, {}, 0);
  loader.Process(idx, 0);
  ProcessSettings(&a, &loader);
  SortDiagnostics(&a);
  return a;
}

}  // namespace pgconflint
