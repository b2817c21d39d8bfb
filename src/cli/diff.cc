// `pgconflint diff BASE HEAD [PATH...]`: the configuration plan of a change,
// for every root the change touches (core/review/change_plan.h). BASE and HEAD are
// git revisions (read into memory with git, never checked out; the default
// inside a work tree) or two directories (--dirs, the default when both are
// directories outside a work tree). PATHs limit which changed files count.
// Exit codes follow `check`: 1 when the change introduces a finding at or
// above --fail-on.
#include <algorithm>
#include <deque>
#include <iostream>
#include <memory>
#include <set>
#include <sstream>

#include "cli/commands.h"
#include "cli/common.h"
#include "cli/git.h"
#include "core/conf/classify.h"
#include "core/model/fingerprint.h"
#include "core/model/secrets.h"
#include "report/change_report.h"

#ifndef PGCONFLINT_VERSION
#define PGCONFLINT_VERSION "0.0.0"
#endif

namespace pgconflint::cli {
namespace {

struct DiffOptions {
  CommonOptions common;
  std::string base, head;
  std::vector<std::string> paths;
  std::string format = "text";
  std::string fail_on = "warning";
  std::string marker = "pgconflint-plan";
  bool git = false, dirs = false;
  CLI::Option* fail_on_option = nullptr;
};

// One side of the change: its files and a workspace over them.
struct Side {
  std::string dir;  // absolute: the work tree's top (git) or the directory given
  std::unique_ptr<OverlayFileSystem> fs;
  std::unique_ptr<Workspace> ws;
};

void Walk(const FileSystem& fs, const std::string& dir, const std::string& rel, std::vector<std::string>* out) {
  std::vector<DirEntry> entries;
  std::string error;
  if (!fs.List(dir, &entries, &error)) return;
  for (const DirEntry& e : entries) {
    if (e.name == ".git") continue;
    std::string path = dir + "/" + e.name, r = rel.empty() ? e.name : rel + "/" + e.name;
    FileInfo info = fs.Stat(path);
    if (info.type == FileInfo::Type::kDirectory) Walk(fs, path, r, out);
    else if (info.type == FileInfo::Type::kRegular) out->push_back(r);
  }
}

// Files (relative) whose bytes differ between the two directories.
std::vector<std::string> ChangedBetween(const Side& a, const Side& b) {
  std::vector<std::string> files;
  Walk(*a.fs, a.dir, "", &files);
  Walk(*b.fs, b.dir, "", &files);
  std::sort(files.begin(), files.end());
  files.erase(std::unique(files.begin(), files.end()), files.end());
  std::vector<std::string> changed;
  for (const std::string& f : files) {
    std::string x, y, e;
    ReadStatus rx = a.fs->Read(a.dir + "/" + f, &x, &e), ry = b.fs->Read(b.dir + "/" + f, &y, &e);
    if (rx != ry || x != y) changed.push_back(f);
  }
  return changed;
}

// The roots (relative to a side's dir) that a changed file belongs to, as
// the workspace's classifier says for `check` and the editor: a data
// directory for its postgresql.conf, pg_hba.conf or pg_ident.conf, every
// root that reads any other file, a file no root reads as its own, none for
// other programs' files.
void RootsOf(Side* side, const std::string& rel, std::set<std::string>* roots) {
  std::string abs = side->dir + "/" + rel;
  if (side->fs->Stat(abs).type != FileInfo::Type::kRegular) return;
  auto below = [&](const std::string& root) { return root == side->dir ? "." : PathBelow(root, side->dir); };
  for (const std::string& r : side->ws->RootsIncluding(abs)) roots->insert(below(r));
}

bool Selected(const std::string& rel, const std::vector<std::string>& under) {
  if (under.empty()) return true;
  for (const std::string& u : under)
    if (u == "." || rel == u || rel.compare(0, u.size() + 1, u + "/") == 0) return true;
  return false;
}

bool LoadSides(DiffOptions& o, Side* before, Side* after, std::vector<std::string>* changed, std::string* error) {
  RealFileSystem disk;
  const std::string cwd = disk.CurrentDirectory();
  bool both_dirs = disk.Stat(AbsolutePath(disk, o.base)).type == FileInfo::Type::kDirectory &&
                   disk.Stat(AbsolutePath(disk, o.head)).type == FileInfo::Type::kDirectory;
  std::string top = o.dirs ? "" : GitTopLevel(cwd);
  // Two directories are two directories, inside a work tree too, unless
  // --git says they are revisions (or both name revisions as well).
  bool revisions = false;
  if (both_dirs && !o.dirs && !o.git && !top.empty()) {
    std::string out, ignored;
    revisions = RunGit(top, {"rev-parse", "--verify", "--quiet", o.base + "^{commit}"}, "", &out, &ignored) &&
                RunGit(top, {"rev-parse", "--verify", "--quiet", o.head + "^{commit}"}, "", &out, &ignored);
    if (revisions) {
      *error = "diff: " + o.base + " and " + o.head + " are both directories and git revisions: say which with --dirs "
               "or --git";
      return false;
    }
  }
  if (o.dirs || (!o.git && both_dirs)) {
    before->dir = AbsolutePath(disk, o.base);
    after->dir = AbsolutePath(disk, o.head);
    static RealFileSystem real;
    before->fs = std::make_unique<OverlayFileSystem>(&real);
    after->fs = std::make_unique<OverlayFileSystem>(&real);
    *changed = ChangedBetween(*before, *after);
    return true;
  }
  if (top.empty()) {
    *error = "diff: not inside a git work tree (give two directories, or run it in the repository)";
    return false;
  }
  before->dir = after->dir = top;
  before->fs = std::make_unique<OverlayFileSystem>(nullptr, cwd);
  after->fs = std::make_unique<OverlayFileSystem>(nullptr, cwd);
  if (!LoadRevision(top, o.base, {}, before->fs.get(), error) || !LoadRevision(top, o.head, {}, after->fs.get(), error))
    return false;
  return GitChangedFiles(top, o.base, o.head, changed, error);
}

int RunDiff(DiffOptions& o) {
  if (o.common.major && !CatalogOrComplain(o.common.major)) return kExitUsage;
  Side before, after;
  std::vector<std::string> changed;
  std::string error;
  if (!LoadSides(o, &before, &after, &changed, &error)) {
    PrintError(error);
    return kExitUsage;
  }
  RealFileSystem disk;
  std::vector<std::string> under;
  for (const std::string& p : o.paths) under.push_back(PathBelow(AbsolutePath(disk, p), after.dir));
  changed.erase(std::remove_if(changed.begin(), changed.end(), [&](const std::string& c) { return !Selected(c, under); }),
                changed.end());
  for (Side* s : {&before, &after}) {
    WorkspaceOptions wo = MakeWorkspaceOptions(o.common, nullptr, &HostFor(o.common));
    wo.fs = s->fs.get();
    wo.tree_base = s->dir;  // the roots of a side are its own files
    s->ws = std::make_unique<Workspace>(wo);
  }
  std::set<std::string> roots;
  for (const std::string& c : changed) {
    RootsOf(&before, c, &roots);
    RootsOf(&after, c, &roots);
  }
  std::vector<std::string> changed_abs;
  for (const std::string& c : changed) changed_abs.push_back(after.dir + "/" + c);
  std::deque<Analysis> analyses;
  std::vector<RootChange> plan;
  std::string fail_on = o.fail_on;
  for (const std::string& rel : roots) {
    const Analysis* sides[2] = {nullptr, nullptr};
    Profile profile;
    for (int i = 0; i < 2; ++i) {
      Side& s = i ? after : before;
      std::string path = CanonicalizePath(s.dir + "/" + rel);
      if (s.fs->Stat(path).type == FileInfo::Type::kMissing) continue;
      std::string shown = PathBelow(path, disk.CurrentDirectory());
      analyses.emplace_back();
      if (int rc = LintOne(s.ws.get(), shown == disk.CurrentDirectory() ? "." : shown, &analyses.back())) return rc;
      sides[i] = &analyses.back();
      if (i) {
        profile = s.ws->config().profile;
        if (!o.fail_on_option->count() && s.ws->config().fail_on) fail_on = *s.ws->config().fail_on;
      }
    }
    // A new SQL script is planned against what it runs against, as the old
    // revision has it: its plan lists what its statements change.
    const bool new_script = !sides[0] && sides[1] && IsSqlPath(rel) && !sides[1]->cluster.empty();
    if (new_script) {
      const std::string& cluster = sides[1]->cluster;
      const std::string below = PathBelow(cluster, after.dir);
      const std::string path = below == cluster ? cluster : CanonicalizePath(before.dir + "/" + below);
      if (before.fs->Stat(path).type != FileInfo::Type::kMissing) {
        analyses.emplace_back();
        if (int rc = LintOne(before.ws.get(), PathBelow(path, disk.CurrentDirectory()), &analyses.back())) return rc;
        sides[0] = &analyses.back();
      }
    }
    if (sides[0] || sides[1]) plan.push_back(CompareRoot(sides[0], sides[1], before.dir, after.dir, changed_abs, profile));
    if (new_script) plan.back().added = true;
  }
  ChangeReportOptions ro;
  ro.base_label = o.base;
  ro.head_label = o.head;
  ro.base_before = before.dir;
  ro.base_after = after.dir;
  ro.marker = o.marker;
  ro.report.tool_version = PGCONFLINT_VERSION;
  // The plan quotes values of both sides: their passwords are masked.
  std::ostringstream rendered;
  RenderChange(plan, o.format, ro, rendered);
  std::cout << MaskSecrets(rendered.str());
  if (!std::cout.flush()) return kExitInternal;
  if (fail_on == "never") return kExitOk;
  Severity threshold = Severity::kWarning;
  ParseSeverity(fail_on, &threshold);
  for (const RootChange& r : plan)
    for (const FindingRef& f : r.introduced)
      if (static_cast<int>(f.diagnostic->severity()) <= static_cast<int>(threshold)) return kExitFindings;
  return kExitOk;
}

}  // namespace

Command AddDiff(CLI::App* app, bool full) {
  auto o = std::make_shared<DiffOptions>();
  CLI::App* diff = app->add_subcommand("diff", "The configuration plan of a change between two revisions or directories");
  if (!full) return {diff, {}};
  AddCommonOptions(diff, &o->common);
  diff->add_option("BASE", o->base, "The old git revision (or directory)")->required();
  diff->add_option("HEAD", o->head, "The new git revision (or directory)")->required();
  diff->add_option("PATH", o->paths, "Only changes below these paths");
  diff->add_flag("--git", o->git, "BASE and HEAD are git revisions (the default inside a work tree)");
  diff->add_flag("--dirs", o->dirs, "BASE and HEAD are directories")->excludes("--git");
  diff->add_option("--format", o->format, "text, markdown (a pull-request comment) or json")
      ->check(CLI::IsMember(ChangeFormats()))
      ->capture_default_str();
  o->fail_on_option = diff->add_option("--fail-on", o->fail_on, "Lowest severity of an introduced finding that makes the exit code 1")
                          ->check(CLI::IsMember({"error", "warning", "info", "never"}))
                          ->capture_default_str();
  diff->add_option("--marker", o->marker, "markdown: the hidden marker that finds the comment again")->capture_default_str();
  return {diff, [o] { return RunDiff(*o); }};
}

}  // namespace pgconflint::cli
