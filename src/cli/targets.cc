// Choosing the roots `check` lints.
#include "cli/targets.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <iostream>
#include <iterator>
#include <map>

#include "core/fingerprint.h"
#include "core/hba_source.h"
#include "core/project_config.h"
#include "core/sql_source.h"
#include "report/text.h"

namespace pgconflint::cli {
namespace {

bool ReadStdin(std::string* text, std::string* error) {
  text->clear();
  char buf[1 << 16];
  for (;;) {
    ssize_t n = read(STDIN_FILENO, buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      *error = std::string("standard input: ") + strerror(errno);
      return false;
    }
    if (n == 0) return true;
    text->append(buf, static_cast<size_t>(n));
    if (text->size() > kMaxFileSize) {
      *error = "standard input is larger than " + std::to_string(kMaxFileSize >> 20) + " MiB";
      return false;
    }
  }
}

// The project configuration that applies to `abs`, as the workspace finds
// it (--config, --no-config, else the nearest .pgconflint.toml).
bool ConfigFor(const FileSystem& fs, const CheckInputs& in, const std::string& abs, ProjectConfig* out,
               std::string* error) {
  std::string path = in.config.empty() ? "" : AbsolutePath(fs, in.config);
  if (path.empty() && !in.no_config) path = FindProjectConfig(fs, abs);
  *out = ProjectConfig();
  return path.empty() || LoadProjectConfig(fs, path, out, error);
}

// Whether --force-exclude drops `abs`: excluded by the configuration, or a
// file that is neither PostgreSQL configuration nor a SQL script (pre-commit
// passes every *.conf, or every *.sql to the SQL hook).
bool ForceExcluded(const FileSystem& fs, const ProjectConfig& config, const std::string& abs) {
  if (MatchesGlobs(config, config.exclude, abs)) return true;
  return fs.Stat(abs).type == FileInfo::Type::kRegular && !IsConfigurationFile(config, abs) && !IsSqlPath(abs);
}

// A fragment whose root should be found: not a root file by name.
bool LooksLikeFragment(const std::string& abs) {
  std::string name = abs.substr(abs.rfind('/') + 1);
  return name != "postgresql.conf" && !IsAuthFileName(abs) && IsConfigurationFile(ProjectConfig(), abs);
}

// `dir` as the report shows a root: relative to the current directory.
std::string Shown(const std::string& dir, const std::string& cwd) {
  if (dir == cwd) return ".";
  return PathBelow(dir, cwd);
}

void AddTarget(std::vector<Target>* out, const std::string& root, const std::string& only) {
  auto it = std::find_if(out->begin(), out->end(), [&](const Target& t) { return t.root == root; });
  if (it == out->end()) {
    out->push_back({root, only.empty() ? std::set<std::string>() : std::set<std::string>{only}});
  } else if (!it->only.empty()) {
    if (only.empty()) it->only.clear();  // the whole root was asked for too
    else it->only.insert(only);
  }
}

}  // namespace

bool PlanTargets(Workspace* ws, OverlayFileSystem* overlay, const CheckInputs& in, std::vector<Target>* out,
                 std::string* error) {
  std::vector<std::string> paths = in.paths;
  if (!in.stdin_filename.empty()) {
    std::string text;
    if (!ReadStdin(&text, error)) return false;
    overlay->Set(in.stdin_filename, std::move(text));
    paths.erase(std::remove(paths.begin(), paths.end(), "-"), paths.end());
    paths.insert(paths.begin(), in.stdin_filename);
  }
  const FileSystem& fs = *overlay;
  const std::string cwd = fs.CurrentDirectory();
  for (const std::string& p : paths) {
    std::string abs = AbsolutePath(fs, p);
    if (in.force_exclude) {
      ProjectConfig config;
      if (!ConfigFor(fs, in, abs, &config, error)) return false;
      if (ForceExcluded(fs, config, abs)) continue;
    }
    if (IsAuthFileName(abs) && fs.Stat(abs).type == FileInfo::Type::kRegular) {
      // In its data directory's context when it has one; only its own findings.
      AddTarget(out, BesidePostgresqlConf(fs, abs) ? Shown(ParentDirectory(abs), cwd) : p, abs);
      continue;
    }
    if (fs.Stat(abs).type != FileInfo::Type::kRegular || !LooksLikeFragment(abs)) {
      AddTarget(out, p, "");
      continue;
    }
    std::vector<std::string> roots = ws->RootsIncluding(abs);
    if (roots.empty()) {
      std::cerr << "pgconflint: note: " << EscapeControls(p)
                << ": no data directory that includes it was found; checked alone\n";
      AddTarget(out, p, "");
      continue;
    }
    for (const std::string& r : roots) AddTarget(out, Shown(r, cwd), abs);
  }
  return true;
}

void KeepFindingsIn(const Target& t, Analysis* a) {
  if (t.only.empty()) return;
  auto mine = [&](int file) { return file >= 0 && t.only.count(a->files[file].abs_path) > 0; };
  std::vector<Diagnostic> kept;
  for (Diagnostic& d : a->diagnostics) {
    bool keep = d.file < 0 || mine(d.file) ||
                std::any_of(d.notes.begin(), d.notes.end(), [&](const Note& n) { return mine(n.where.file); });
    if (keep) kept.push_back(std::move(d));
  }
  a->diagnostics = std::move(kept);
}

}  // namespace pgconflint::cli
