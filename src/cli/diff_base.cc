// The change since a revision, and the findings it explains.
#include "cli/diff_base.h"

#include <algorithm>
#include <map>
#include <set>

#include "cli/git.h"
#include "core/model/fingerprint.h"

namespace pgconflint::cli {
namespace {

struct Change {
  std::map<std::string, std::set<uint32_t>> lines;  // absolute path -> changed lines
  const FileSystem* before = nullptr;                // REV's files
};

// Whether `where` lies on a changed line; a file REV did not have is new in
// every line.
bool OnChangedLine(const Analysis& a, const Location& where, const Change& c) {
  if (where.file < 0) return false;
  const LoadedFile& f = a.files[where.file];
  if (c.before->Stat(f.abs_path).type != FileInfo::Type::kRegular) return true;
  auto it = c.lines.find(f.abs_path);
  if (it == c.lines.end()) return false;
  uint32_t first = f.source.LineOf(where.range.begin);
  uint32_t last = f.source.LineOf(where.range.end > where.range.begin ? where.range.end - 1 : where.range.begin);
  for (uint32_t l = first; l <= last; ++l)
    if (it->second.count(l)) return true;
  return false;
}

bool Touched(const Analysis& a, const Change& c) {
  return std::any_of(a.files.begin(), a.files.end(), [&](const LoadedFile& f) {
    return c.lines.count(f.abs_path) || c.before->Stat(f.abs_path).type != FileInfo::Type::kRegular;
  });
}

}  // namespace

bool FilterToChange(const std::string& rev, const WorkspaceOptions& options, std::vector<Analysis>* analyses,
                    std::string* error) {
  RealFileSystem disk;
  const std::string top = GitTopLevel(disk.CurrentDirectory());
  if (top.empty()) {
    *error = "--diff-base: the current directory is not inside a git work tree";
    return false;
  }
  OverlayFileSystem before(nullptr, disk.CurrentDirectory());
  if (!LoadRevision(top, rev, {}, &before, error)) {
    *error = "--diff-base: " + *error;
    return false;
  }
  std::map<std::string, std::set<uint32_t>> rel_lines;
  if (!GitChangedLines(top, rev, &rel_lines, error)) return false;
  Change change;
  change.before = &before;
  for (auto& [rel, lines] : rel_lines) change.lines[top + "/" + rel] = std::move(lines);
  WorkspaceOptions wo = options;
  wo.fs = &before;
  Workspace then(wo);
  for (Analysis& a : *analyses) {
    if (a.failure != Analysis::Failure::kNone) continue;
    std::set<std::string> old_prints;
    Analysis old;
    if (Touched(a, change) && then.Lint(a.root, &old, error) && old.failure == Analysis::Failure::kNone) {
      std::vector<std::string> f = Fingerprints(old, top);
      old_prints.insert(f.begin(), f.end());
    }
    bool touched = Touched(a, change);
    std::vector<std::string> prints = Fingerprints(a, top);
    std::vector<Diagnostic> kept;
    for (size_t i = 0; i < a.diagnostics.size(); ++i) {
      Diagnostic& d = a.diagnostics[i];
      bool keep = OnChangedLine(a, d.where(), change) ||
                  std::any_of(d.notes.begin(), d.notes.end(), [&](const Note& n) { return OnChangedLine(a, n.where, change); }) ||
                  (touched && !old_prints.count(prints[i]));
      if (keep) kept.push_back(std::move(d));
    }
    a.diagnostics = std::move(kept);
  }
  error->clear();
  return true;
}

}  // namespace pgconflint::cli
