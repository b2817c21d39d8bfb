// Choosing the roots `check` lints.
#include "cli/targets.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <iostream>
#include <iterator>
#include <map>

#include "core/conf/classify.h"
#include "core/model/fingerprint.h"
#include "core/workspace/project_config.h"
#include "report/text.h"

namespace pgconflint::cli {
namespace {

// `dir` as the report shows a root: relative to the current directory.
std::string Shown(const std::string& dir, const std::string& cwd) {
  if (dir == cwd) return ".";
  return PathBelow(dir, cwd);
}

void AddTarget(std::vector<Target>* out, const std::string& root, const std::set<std::string>& only) {
  auto it = std::find_if(out->begin(), out->end(), [&](const Target& t) { return t.root == root; });
  if (it == out->end()) {
    out->push_back({root, only});
  } else if (!it->only.empty()) {
    if (only.empty()) it->only.clear();  // the whole root was asked for too
    else it->only.insert(only.begin(), only.end());
  }
}

}  // namespace

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
      const ProjectConfig* config = nullptr;
      if (!ws->ConfigFor(abs, &config, error)) return false;
      if (MatchesGlobs(*config, config->exclude, abs)) continue;
    }
    // The classifier says what the file is and which roots read it.
    InputClass c = ws->Classify(abs);
    if (c.kind == InputKind::kNotPostgres) {
      // Never an error: a tool that passes every *.conf passes other programs' files too.
      if (in.verbose || !in.force_exclude)
        std::cerr << "pgconflint: note: " << EscapeControls(p) << " is not PostgreSQL configuration (" << c.why
                  << "): not checked (--file-type conf checks it anyway)\n";
      continue;
    }
    if (in.verbose)
      std::cerr << "pgconflint: note: " << EscapeControls(p) << ": " << InputKindName(c.kind) << ": " << c.why
                << (c.alone && c.kind != InputKind::kMissing ? ", so it is checked alone" : "") << "\n";
    for (const LintTarget& t : ws->TargetsFor(abs))
      AddTarget(out, t.root == abs ? p : Shown(t.root, cwd), t.only);
  }
  return true;
}

void KeepFindingsIn(const Target& t, Analysis* a, std::set<std::string>* seen) {
  LintTarget lt;
  lt.only = t.only;
  KeepFindingsOf(lt, a, seen);
}

}  // namespace pgconflint::cli
