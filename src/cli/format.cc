// `pgconflint format PATH...`: postgresql.conf-format files in the canonical
// layout (core/conf/format.h), written atomically; --check and --diff write
// nothing. A data directory formats every postgresql.conf-format file it
// reads inside the tree; pg_hba.conf, pg_ident.conf, SQL and other programs'
// files are left as they are; `-` formats standard input to standard output.
#include <iostream>
#include <memory>
#include <optional>
#include <set>

#include "cli/commands.h"
#include "cli/common.h"
#include "cli/targets.h"
#include "core/base/atomic_write.h"
#include "core/base/escape.h"
#include "core/conf/classify.h"
#include "core/conf/format.h"
#include "core/model/secrets.h"
#include "core/workspace/project_config.h"
#include "report/unified_diff.h"

namespace pgconflint::cli {
namespace {

struct FormatCliOptions {
  CommonOptions common;
  std::vector<std::string> paths;
  bool check = false, diff = false, align = false, no_align = false;
  bool force_exclude = false, verbose = false;
};

struct Tally {
  int reformatted = 0, unchanged = 0;
  int exit_code = kExitOk;
  void Fail(int code) { exit_code = std::max(exit_code, code); }
};

class Formatter {
 public:
  Formatter(const FormatCliOptions& o, Workspace* ws) : o_(o), ws_(ws) {}

  void Path(const std::string& p) {
    if (p == "-") return Stdin();
    std::string abs = AbsolutePath(ws_->fs(), p);
    const ProjectConfig* config = nullptr;
    std::string error;
    if (!ws_->ConfigFor(abs, &config, &error)) {
      PrintError(error);
      return tally_.Fail(kExitUsage);
    }
    if (o_.force_exclude && MatchesGlobs(*config, config->exclude, abs)) return;
    InputClass c = ws_->Classify(abs);
    switch (c.kind) {
      case InputKind::kMissing: return File(p, abs, *config);  // reading it says why
      case InputKind::kDataDirectory: return Directory(abs, *config);
      case InputKind::kConfRoot:
      case InputKind::kConfFragment:
      case InputKind::kAutoConf: return File(p, abs, *config);
      default:
        // Never an error: a tool that passes every *.conf passes other files too.
        if (o_.verbose || !o_.force_exclude)
          std::cerr << "pgconflint: note: " << EscapeControls(p) << " is "
                    << (c.kind == InputKind::kNotPostgres ? "not PostgreSQL configuration"
                                                          : "a " + std::string(InputKindName(c.kind)))
                    << ": only postgresql.conf-format files are formatted; left as it is\n";
    }
  }

  int Finish() {
    if (!std::cout.flush()) tally_.Fail(kExitInternal);
    if (tally_.reformatted + tally_.unchanged > 0) {
      auto files = [](int n) { return std::to_string(n) + (n == 1 ? " file" : " files"); };
      std::cerr << "pgconflint: " << files(tally_.reformatted)
                << (o_.check || o_.diff ? " would be reformatted, " : " reformatted, ") << files(tally_.unchanged)
                << " already formatted\n";
    }
    if (tally_.exit_code != kExitOk) return tally_.exit_code;
    return (o_.check || o_.diff) && tally_.reformatted > 0 ? kExitFindings : kExitOk;
  }

 private:
  FormatOptions OptionsFor(const ProjectConfig& config) const {
    FormatOptions f;
    f.align = o_.align || (config.format_align && !o_.no_align);
    return f;
  }

  void Stdin() {
    std::string text, error;
    const ProjectConfig* config = nullptr;
    if (!ReadStdin(&text, &error) || !ws_->ConfigFor(ws_->fs().CurrentDirectory(), &config, &error)) {
      PrintError(error);
      return tally_.Fail(kExitUsage);
    }
    Text("-", "", text, *config);
  }

  void Directory(const std::string& abs, const ProjectConfig& config) {
    Analysis a;
    if (int code = LintOne(ws_, abs, &a); code != kExitOk) return tally_.Fail(code);
    // Only what the lint read: an include outside the tree is not read (unless a
    // --config from outside allows it), so not written.
    for (const LoadedFile& f : a.files)
      if (f.kind == FileKind::kConf) Text(f.source.path(), f.abs_path, f.source.text(), config);
  }

  void File(const std::string& shown, const std::string& abs, const ProjectConfig& config) {
    std::string text, error;
    if (ReadStatus status = ws_->fs().Read(abs, &text, &error); status != ReadStatus::kOk) {
      PrintError(EscapeControls(shown) + ": " + error);
      bool usage = status == ReadStatus::kNotFound || status == ReadStatus::kNotRegular || status == ReadStatus::kTooLarge;
      return tally_.Fail(usage ? kExitUsage : kExitInternal);
    }
    Text(shown, abs, text, config);
  }

  // Formats one text; `abs` "" is standard input, whose formatted text goes to
  // standard output (and is not counted) unless --check or --diff.
  void Text(const std::string& shown, const std::string& abs, const std::string& text, const ProjectConfig& config) {
    if (!abs.empty() && !done_.insert(abs).second) return;
    FormatResult r = FormatConf(SourceFile(shown, text), OptionsFor(config));
    if (!Formatted(shown, r)) return;
    if (abs.empty() && !o_.check && !o_.diff) {
      std::cout << r.text;
      return;
    }
    if (r.edits.empty()) {
      ++tally_.unchanged;
      return;
    }
    ++tally_.reformatted;
    std::string error;
    if (o_.check) {
      std::cout << "Would reformat: " << EscapeControls(shown) << "\n";
    } else if (o_.diff) {
      std::cout << MaskSecrets(UnifiedDiff(EscapeControls(shown), text, r.text));
    } else if (!WriteFileAtomically(abs, r.text, &error)) {
      PrintError(error);
      --tally_.reformatted;
      tally_.Fail(kExitInternal);
    }
  }

  // False (and the exit code 2) when the file could not be formatted.
  bool Formatted(const std::string& shown, const FormatResult& r) {
    if (r.ok) return true;
    std::cerr << EscapeControls(shown);
    if (r.line) std::cerr << ":" << r.line << ":" << r.column;
    std::cerr << ": pgconflint: cannot format: " << r.problem
              << (r.line ? " (`pgconflint check` says more); the file is left as it is\n" : "\n");
    tally_.Fail(kExitUsage);
    return false;
  }

  const FormatCliOptions& o_;
  Workspace* ws_;
  Tally tally_;
  std::set<std::string> done_;  // absolute paths formatted (a file named twice, or by its directory too)
};

int RunFormat(const FormatCliOptions& o) {
  Workspace ws(MakeWorkspaceOptions(o.common, nullptr, &HostFor(o.common)));
  Formatter f(o, &ws);
  for (const std::string& p : o.paths) f.Path(p);
  return f.Finish();
}

}  // namespace

Command AddFormat(CLI::App* app, bool full) {
  auto o = std::make_shared<FormatCliOptions>();
  CLI::App* format = app->add_subcommand(
      "format", "Write postgresql.conf-format files in one layout (name = 'value'), keeping every value and comment");
  if (!full) return {format, {}};
  format->add_option("PATH", o->paths, "Files or data directories; - reads standard input and writes standard output")
      ->required();
  format->add_flag("--check", o->check, "Write nothing; list the files that would change (exit 1 if any)");
  format->add_flag("--diff", o->diff, "Write nothing; print the changes as a unified diff (exit 1 if any)")
      ->excludes("--check");
  format->add_flag("--align", o->align, "Line up the '=' of consecutive settings ([format] align in .pgconflint.toml)");
  format->add_flag("--no-align", o->no_align, "Do not line up the '=' signs, whatever .pgconflint.toml says")
      ->excludes("--align");
  format->add_flag("--force-exclude", o->force_exclude,
                   "Skip paths that .pgconflint.toml's exclude names, and other files silently (pre-commit)");
  format->add_flag("--verbose", o->verbose, "Say what each skipped file is");
  format->add_option("--config", o->common.config, "Use this .pgconflint.toml instead of searching upwards");
  format->add_flag("--no-config", o->common.no_config, "Ignore .pgconflint.toml files");
  return {format, [o] { return RunFormat(*o); }};
}

}  // namespace pgconflint::cli
