// Reading a postgresql.conf tree as guc-file.l's ParseConfigFile and
// ParseConfigDirectory do: includes where they stand, relative paths from the
// including file's directory, include_dir in C order, the nesting depth limit.
// Syntax errors are reported by syntax_diagnostics.cc.
//
// The input may be hostile: only regular files are read, only inside the
// tree being checked (PGC305 otherwise), and the limits of core/base/limits.h
// bound what one root may read and hold.
#include <algorithm>
#include <set>

#include "core/conf/classify.h"
#include "core/base/limits.h"
#include "core/model/outside_tree.h"
#include "core/model/settings_source.h"
#include "core/model/syntax_diagnostics.h"
#include "core/base/strings.h"

namespace pgconflint {
namespace {

std::string ByteCount(uint64_t n) {
  return n % (1 << 20) == 0 ? std::to_string(n >> 20) + " MiB" : std::to_string(n) + " bytes";
}

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    char x = a[i], y = b[i];
    if (x >= 'A' && x <= 'Z') x = static_cast<char>(x - 'A' + 'a');
    if (y >= 'A' && y <= 'Z') y = static_cast<char>(y - 'A' + 'a');
    if (x != y) return false;
  }
  return true;
}

// The directive that asks for a file: where it stands, for diagnostics.
struct Site {
  int file = -1;  // -1 for a root
  Range range;
  uint32_t line = 0;
  int depth = 0;
  std::string base_dir;
  bool quiet_if_missing = false;  // postgresql.auto.conf: its absence is normal
};

// What PostgreSQL does with a file that is not a regular one (`error` is
// FileSystem::Read's "not a regular file (a FIFO)").
std::string SpecialFileMessage(const std::string& shown, const std::string& error, bool* fatal) {
  *fatal = error.find("FIFO") != std::string::npos;
  std::string what = error.substr(error.find('(') + 1);
  what.pop_back();  // ")"
  return "configuration file " + shown + " is " + what + ", not a regular file: " +
         (*fatal ? "PostgreSQL would wait when opening it until another process writes to it, and not start "
                   "meanwhile"
                 : "PostgreSQL would read whatever the device returns (nothing from /dev/null, zeros without "
                   "end from /dev/zero)") +
         "; pgconflint reads only regular files";
}

class Loader {
 public:
  Loader(const CollectContext& ctx, std::vector<std::string> trees, Analysis* a)
      : ctx_(ctx), fs_(ctx.files->fs()), trees_(std::move(trees)), a_(a) {}

  std::string Display(const std::string& abs) const { return DisplayPath(abs, ctx_.display_base); }
  // The path a root file is shown with (as given), instead of Display's.
  void ShowAs(const std::string& abs, std::string shown) { shown_[abs] = std::move(shown); }

  // A root file (postgresql.conf, or the file given): anything that stops
  // it from being read fails the root.
  bool LoadRoot(const std::string& abs) {
    std::string real;
    if (!ctx_.allow_outside && !InsideTrees(fs_, abs, trees_, &real))
      return Fail(Analysis::Failure::kUsage, abs + ": resolves to " + real +
                                                 ", outside the tree being checked; not read "
                                                 "(--allow-outside-includes reads it)");
    ReadStatus status;
    std::string error;
    std::shared_ptr<const FileCache::Entry> entry = ctx_.files->Get(abs, &status, &error);
    if (!entry)
      return Fail(status == ReadStatus::kNotReadable ? Analysis::Failure::kIo : Analysis::Failure::kUsage,
                  abs + ": " + error);
    if (!Account(abs, *entry)) return false;
    AddAndProcess(abs, entry, {}, 0);
    return true;
  }

  // Reads one included file (or postgresql.auto.conf, from a root site) and
  // everything it includes. Returns false where PostgreSQL would fail
  // (strict open failure, depth...) or a limit stopped the root.
  bool LoadFile(const std::string& written, bool strict, const Site& site) {
    if (site.depth > kMaxIncludeDepth) {
      AddDiag(RuleId::kIncludeRecursion, site.file, site.range,
              "could not open configuration file " + DoubleQuoted(written) + ": maximum nesting depth exceeded",
              "includes nest deeper than " + std::to_string(kMaxIncludeDepth) +
                  " levels; an include cycle (a.conf includes b.conf includes a.conf) also ends here");
      return false;
    }
    if (written.find_first_not_of(" \t\r\n") == std::string::npos) {
      AddDiag(RuleId::kIncludeNotFound, site.file, site.range, "empty configuration file name: " + DoubleQuoted(written),
              "give the file to include");
      return false;
    }
    std::string abs = written[0] == '/' ? written : CanonicalizePath(site.base_dir + "/" + written);
    if (site.file >= 0 && a_->files[site.file].abs_path == abs) {
      AddDiag(RuleId::kIncludeRecursion, site.file, site.range,
              "configuration file recursion in " + DoubleQuoted(Display(abs)),
              "remove the directive: a file cannot include itself");
      return false;
    }
    if (std::find(stack_.begin(), stack_.end(), abs) != stack_.end()) return Cycle(abs, site);
    if (loads_ >= ctx_.limits.max_file_loads) return TooManyLoads(site);
    if (!ctx_.allow_outside && !InsideTrees(fs_, abs, trees_)) return Outside(abs, false, strict, site);
    ReadStatus status;
    std::string error;
    std::shared_ptr<const FileCache::Entry> entry = ctx_.files->Get(abs, &status, &error);
    if (!entry) return Unreadable(abs, status, error, strict, site);
    if (!Account(abs, *entry)) return false;
    AddAndProcess(abs, entry, {site.file, site.line, site.range.begin}, site.depth);
    return true;
  }

  // include_dir: *.conf files (at least 6 characters, not starting with '.'),
  // not directories, in C order; the first failing file ends the directory.
  bool LoadDir(const std::string& written, const Site& site) {
    if (written.find_first_not_of(" \t\r\n") == std::string::npos) {
      AddDiag(RuleId::kIncludeNotFound, site.file, site.range,
              "empty configuration directory name: " + DoubleQuoted(written), "give the directory to include");
      return false;
    }
    std::string dir = written[0] == '/' ? written : CanonicalizePath(site.base_dir + "/" + written);
    if (!ctx_.allow_outside && !InsideTrees(fs_, dir, trees_)) return Outside(dir, true, true, site);
    std::vector<DirEntry> entries;
    std::string list_error;
    if (!fs_.List(dir, &entries, &list_error)) {
      AddDiag(RuleId::kIncludeNotFound, site.file, site.range,
              "could not open configuration directory " + DoubleQuoted(Display(dir)) + ": " + list_error,
              "create the directory or fix the path (relative to the including file's directory)");
      return false;
    }
    std::vector<std::string> names;
    for (const DirEntry& e : entries) {
      std::string_view n = e.name;
      if (n.size() < 6 || n[0] == '.' || n.substr(n.size() - 5) != ".conf") continue;
      std::string path = dir + "/" + e.name;
      FileInfo info = fs_.Stat(path);
      if (info.type == FileInfo::Type::kMissing || info.type == FileInfo::Type::kError) {
        AddDiag(RuleId::kIncludeNotFound, site.file, site.range,
                "could not stat file " + DoubleQuoted(Display(path)) + ": " + info.error,
                "remove the dangling entry from the directory");
        return false;
      }
      if (info.type == FileInfo::Type::kDirectory) continue;
      names.push_back(std::move(path));
    }
    std::sort(names.begin(), names.end());  // byte order, as pg_qsort_strcmp
    for (const std::string& path : names)
      if (!LoadFile(path, true, site)) return false;
    return true;
  }

 private:
  bool Stopped() const { return a_->failure != Analysis::Failure::kNone; }

  bool Fail(Analysis::Failure kind, std::string message) {
    a_->failure = kind;
    a_->failure_message = std::move(message);
    return false;
  }

  void AddDiag(RuleId rule, int file, Range range, std::string message, std::string help) {
    if (rule != RuleId::kOptionalIncludeMissing) a_->incomplete_tree = true;
    a_->Add(MakeDiagnostic(Rule(rule), {file, range}, std::move(message), std::move(help)));
  }

  // Counts a load against the limits: the bytes of each distinct file, and
  // what each load adds to the analysis. False (the root fails) past one.
  bool Account(const std::string& abs, const FileCache::Entry& entry) {
    if (read_.insert(abs).second) bytes_ += entry.text.size();
    const ParsedFile& p = entry.parsed;
    entries_ += p.settings.size() + p.comments.size() + p.errors.size();
    const std::string too_large = ": pgconflint does not analyse configurations this large";
    const RootLimits& limits = ctx_.limits;
    if (bytes_ > limits.max_bytes)
      return Fail(Analysis::Failure::kUsage, Display(abs) + ": the files of this configuration hold more than " +
                                                 ByteCount(limits.max_bytes) + too_large);
    if (p.truncated || entries_ > limits.max_entries)
      return Fail(Analysis::Failure::kUsage,
                  Display(abs) + ": more than " + std::to_string(limits.max_entries) +
                      " settings, include directives and pgconflint comments (each include of a file counted)" +
                      too_large);
    return true;
  }

  // Adds a read file and walks it.
  void AddAndProcess(const std::string& abs, const std::shared_ptr<const FileCache::Entry>& entry,
                     IncludeSite from, int depth) {
    auto shown = shown_.find(abs);
    LoadedFile f{abs, SourceFile(shown != shown_.end() ? shown->second : Display(abs), entry->source),
                 entry->parsed, from, depth, false};
    // ALTER SYSTEM writes a header; a file with it is an auto.conf whatever its name.
    f.auto_conf = IsAutoConf(abs, f.source.text());
    a_->files.push_back(std::move(f));
    int idx = static_cast<int>(a_->files.size() - 1);
    ++loads_;
    stack_.push_back(abs);
    Process(idx, depth, entry->parsed);
    stack_.pop_back();
  }

  // Walks one file's lines in order; runs include directives where they
  // stand. `parsed` is the cache's (a_->files may move while includes load).
  void Process(int idx, int depth, const ParsedFile& parsed) {
    ReportSyntaxErrors(a_, idx);
    std::string dir = ParentDirectory(a_->files[idx].abs_path);
    for (const SettingLine& s : parsed.settings) {
      if (Stopped()) return;
      const SourceFile& src = a_->files[idx].source;
      std::string name(src.Slice(s.name));
      Site site{idx, {s.name.begin, s.value.end}, s.line, depth + 1, dir, false};
      const bool include = EqualsIgnoreCase(name, "include");
      if ((include || EqualsIgnoreCase(name, "include_if_exists")) && !a_->files[idx].auto_conf &&
          s.value_text.substr(s.value_text.find_last_of('/') + 1) == "postgresql.auto.conf")
        a_->Add(MakeDiagnostic(
            Rule(RuleId::kAutoConfIncluded), {idx, site.range},
            name + " of postgresql.auto.conf: PostgreSQL reads the data directory's postgresql.auto.conf on its "
                   "own, after this file and everything it includes; this line reads a file of that name a second "
                   "time, at this position, where any later line overrides its values",
            "remove the line; ALTER SYSTEM's values are read last without it"));
      if (include) {
        LoadFile(s.value_text, true, site);
      } else if (EqualsIgnoreCase(name, "include_if_exists")) {
        LoadFile(s.value_text, false, site);
      } else if (EqualsIgnoreCase(name, "include_dir")) {
        LoadDir(s.value_text, site);
      } else {
        AddSetting(idx, src, s, std::move(name));
      }
    }
  }

  void AddSetting(int idx, const SourceFile& src, const SettingLine& s, std::string name) {
    Setting out = SettingFromLine(src, s, idx);
    out.name = std::move(name);
    a_->settings.push_back(std::move(out));
  }

  // A file that could not be read, as PostgreSQL's ParseConfigFile treats
  // the same failure of fopen() and of reading.
  bool Unreadable(const std::string& abs, ReadStatus status, const std::string& error, bool strict,
                  const Site& site) {
    const std::string shown = DoubleQuoted(Display(abs));
    if (status == ReadStatus::kTooLarge) return Fail(Analysis::Failure::kUsage, Display(abs) + ": " + error);
    if (status == ReadStatus::kNotRegular) {
      bool fatal;
      std::string message = SpecialFileMessage(shown, error, &fatal);
      Diagnostic d = MakeDiagnostic(Rule(RuleId::kIncludeNotFound), {site.file, site.range}, message,
                                    "include a regular file");
      // A device is read for what it returns: the server starts.
      if (!fatal) d.Set(Outcome::kAdvisory, Severity::kError);
      a_->incomplete_tree = true;
      a_->Add(std::move(d));
      return false;
    }
    // Any fopen() failure of an optional file is skipped ("skipping missing
    // configuration file", whatever errno says); a directory opens but cannot
    // be read: the server fails even for include_if_exists.
    if (!strict && status != ReadStatus::kIsDirectory) {
      if (status == ReadStatus::kNotFound && site.quiet_if_missing) return true;
      bool missing = status == ReadStatus::kNotFound;
      AddDiag(RuleId::kOptionalIncludeMissing, site.file, site.range,
              "skipping missing configuration file " + shown + (missing ? "" : " (" + error + ")"),
              missing ? "create the file or fix the path if it should exist; otherwise remove the directive "
                        "(PostgreSQL logs this on every start and reload)"
                      : "the file exists but cannot be read; PostgreSQL skips it as if it were missing, "
                        "so nothing in it applies: fix its permissions");
      return true;
    }
    AddDiag(RuleId::kIncludeNotFound, site.file, site.range,
            "could not open configuration file " + shown + ": " + error,
            "create the file, fix the path (relative paths start at the including file's "
            "directory), or use include_if_exists for an optional file");
    return false;
  }

  // A file or directory outside the tree being checked: never read, so never
  // echoed, and not even asked whether it exists: it names a path of the
  // server's host, and the verdict must not depend on the machine running
  // pgconflint.
  bool Outside(const std::string& abs, bool dir, bool strict, const Site& site) {
    a_->incomplete_tree = true;
    a_->Add(OutsideTreeDiagnostic(fs_, abs, Display(abs), dir, strict, trees_, {site.file, site.range}));
    return true;
  }

  // Re-entering a file that is still being read never ends before the
  // nesting limit: the server follows the cycle until depth 10 and fails.
  // Report that outcome without performing the expansion.
  bool Cycle(const std::string& abs, const Site& site) {
    std::string chain;
    auto first = std::find(stack_.begin(), stack_.end(), abs);
    for (auto it = first; it != stack_.end(); ++it) chain += Display(*it) + " -> ";
    chain += Display(abs);
    AddDiag(RuleId::kIncludeRecursion, site.file, site.range,
            "include cycle: " + chain + "; PostgreSQL follows it until the nesting depth limit (" +
                std::to_string(kMaxIncludeDepth) + ") and fails with \"maximum nesting depth exceeded\"",
            "break the cycle: a file must not include a file that includes it");
    return false;
  }

  bool TooManyLoads(const Site& site) {
    if (reported_loads_) return false;
    reported_loads_ = true;
    const std::string limit = std::to_string(ctx_.limits.max_file_loads);
    // Mostly distinct files (an include_dir of 100,000): the server reads
    // each once and starts; the limit is pgconflint's, and said as such.
    if ((static_cast<size_t>(loads_) - read_.size()) * 10 < static_cast<size_t>(loads_)) {
      a_->incomplete_tree = true;
      Diagnostic d = MakeDiagnostic(
          Rule(RuleId::kIncludeRecursion), {site.file, site.range},
          "the configuration includes more than " + limit +
              " files; pgconflint reads at most " + limit +
              " per root and stopped here, so the files after this point are not checked (PostgreSQL reads "
              "each of them)",
          "keep the configuration in fewer files; pgconflint's limits are in docs/robustness.md");
      d.Set(Outcome::kAdvisory, Severity::kWarning);
      a_->Add(std::move(d));
      return false;
    }
    AddDiag(RuleId::kIncludeRecursion, site.file, site.range,
            "the includes expand to more than " + limit +
                " file loads; pgconflint stopped expanding them here (PostgreSQL would keep reading "
                "the same files again and again)",
            "include each file once: repeated include lines multiply at every level");
    return false;
  }

  const CollectContext& ctx_;
  const FileSystem& fs_;
  const std::vector<std::string> trees_;  // links resolved
  Analysis* a_;
  std::map<std::string, std::string> shown_;  // display paths of the roots
  std::vector<std::string> stack_;            // absolute paths of the files being read, outermost first
  std::set<std::string> read_;                // distinct files read
  uint64_t bytes_ = 0;                        // their bytes
  size_t entries_ = 0;                        // settings, directive comments and errors, per load
  int loads_ = 0;
  bool reported_loads_ = false;
};

}  // namespace

void AddRootTrees(const CollectContext& ctx, const FileSystem& fs, const std::string& abs, bool is_dir,
                  std::vector<std::string>* trees) {
  std::string tree = fs.RealPath(is_dir ? abs : ParentDirectory(abs));
  if (!ctx.allow_outside && !ctx.stdin_file.empty() && abs == ctx.stdin_file) {
    const std::string cwd = fs.RealPath(fs.CurrentDirectory());
    if (!InsideTrees(fs, tree, {cwd})) {
      trees->push_back(cwd);
      trees->push_back(fs.RealPath(abs));
      return;
    }
  }
  trees->push_back(std::move(tree));
}

std::string DisplayPath(const std::string& abs, const std::string& base) {
  if (!base.empty() && abs.size() > base.size() && abs.compare(0, base.size(), base) == 0 &&
      (base.back() == '/' || abs[base.size()] == '/'))
    return abs.substr(base.size() + (base.back() == '/' ? 0 : 1));
  return abs;
}

Setting SettingFromLine(const SourceFile& src, const SettingLine& s, int file) {
  Setting out;
  out.name = std::string(src.Slice(s.name));
  std::string_view tok = src.Slice(s.value);
  out.raw = std::string(s.quoted ? tok.substr(1, tok.size() - 2) : tok);
  out.text = s.value_text;
  out.file = file;
  out.line = s.line;
  out.name_range = s.name;
  out.value_range = s.value;
  out.quoted = s.quoted;
  return out;
}

void ConfTreeSource::Collect(const CollectContext& ctx, Analysis* a) const {
  if (root_.empty()) {
    a->failure = Analysis::Failure::kUsage;
    a->failure_message = "empty path";
    return;
  }
  const FileSystem& fs = ctx.files->fs();
  std::string abs = AbsolutePath(fs, root_);
  bool is_dir = fs.Stat(abs).type == FileInfo::Type::kDirectory;
  // The root's tree: its directory (a data directory: itself).
  std::vector<std::string> trees = ctx.trees;
  AddRootTrees(ctx, fs, abs, is_dir, &trees);
  Loader loader(ctx, std::move(trees), a);
  if (!is_dir) {
    loader.ShowAs(abs, root_);  // as given
    loader.LoadRoot(abs);
    return;
  }
  // A data directory: postgresql.conf, then postgresql.auto.conf as the
  // server reads it (an optional file whose absence is normal).
  std::string conf = ChildPath(abs, "postgresql.conf"), auto_conf = ChildPath(abs, "postgresql.auto.conf");
  if (ctx.display_base.empty()) {
    loader.ShowAs(conf, ChildPath(root_, "postgresql.conf"));
    loader.ShowAs(auto_conf, ChildPath(root_, "postgresql.auto.conf"));
  }
  if (!loader.LoadRoot(conf)) return;
  Site site;
  site.base_dir = abs;
  site.quiet_if_missing = true;
  loader.LoadFile(auto_conf, false, site);
}

}  // namespace pgconflint
