// The workspace's inputs: what a path is and which roots hold it (the
// classifier's tree index over the workspace's files), the targets of a
// lint, and which findings of a root belong to the files asked about.
#include "core/workspace/workspace.h"

#include <algorithm>

namespace pgconflint {

RootFileType Workspace::FileTypeOf(InputKind kind) {
  switch (kind) {
    case InputKind::kHba:
    case InputKind::kHbaInclude: return RootFileType::kHba;
    case InputKind::kIdent:
    case InputKind::kIdentInclude: return RootFileType::kIdent;
    default: return RootFileType::kConf;
  }
}

std::string Workspace::ConfigPathFor(const std::string& abs) const {
  if (!options_.config_path.empty()) return AbsolutePath(*fs_, options_.config_path);
  return options_.use_config ? FindProjectConfig(*fs_, abs) : "";
}

TreeIndex& Workspace::IndexFor(const std::string& abs) {
  bool descend = true;
  std::string base = options_.tree_base.empty() ? TreeBase(*fs_, abs, ConfigPathFor(abs), &descend)
                                                : AbsolutePath(*fs_, options_.tree_base);
  std::unique_ptr<TreeIndex>& index = indexes_[base + (descend ? "/" : "")];
  if (!index)
    index = std::make_unique<TreeIndex>(&cache_, base, descend, [this](const std::string& root) { return Reach(root); });
  return *index;
}

std::vector<ReachedFile> Workspace::Reach(const std::string& root) {
  Request r{root};
  r.reach_only = true;
  Analysis a;
  std::string error;
  std::vector<ReachedFile> out;
  if (!LintRequest(r, &a, &error)) return out;
  for (const LoadedFile& f : a.files) out.push_back({f.abs_path, f.kind, f.auto_conf, f.included_from.file < 0});
  return out;
}

InputClass Workspace::Classify(const std::string& path) {
  const std::string abs = AbsolutePath(*fs_, path);
  InputClass c = ClassifyInTree(abs);
  // --file-type says how the file is read: a root that reads it so keeps it
  // (a pg_hba.conf in its data directory), else it is read alone that way.
  if (options_.file_type != RootFileType::kAuto && fs_->Stat(abs).type == FileInfo::Type::kRegular &&
      (c.kind == InputKind::kNotPostgres || FileTypeOf(c.kind) != options_.file_type)) {
    InputKind kind = options_.file_type == RootFileType::kHba     ? InputKind::kHba
                     : options_.file_type == RootFileType::kIdent ? InputKind::kIdent
                                                                  : InputKind::kConfRoot;
    return {kind, {abs}, true, "--file-type"};
  }
  return c;
}

InputClass Workspace::ClassifyInTree(const std::string& abs) {
  return IndexFor(abs).Classify(abs, NamedByIncludeGlobs(abs));
}

std::vector<std::string> Workspace::RootsIncluding(const std::string& file) { return Classify(file).roots; }

std::vector<LintTarget> Workspace::TargetsFor(const std::string& path) {
  InputClass c = Classify(path);
  const std::string abs = AbsolutePath(*fs_, path);
  std::vector<LintTarget> out;
  for (const std::string& root : c.roots) {
    LintTarget t{root, {}, c};
    // A root asked about is reported whole; a file of a root (postgresql.conf
    // of its data directory too), with what it includes.
    const bool whole = root == abs || c.kind == InputKind::kDataDirectory || c.kind == InputKind::kSqlScript;
    if (!whole) t.only.insert(abs);
    out.push_back(std::move(t));
  }
  return out;
}

void KeepFindingsOf(const LintTarget& t, Analysis* a, std::set<std::string>* seen) {
  // The files asked about, and those they include (their include chains pass
  // through one of them).
  std::vector<bool> mine(a->files.size(), t.only.empty());
  if (!t.only.empty())
    for (size_t i = 0; i < a->files.size(); ++i) {
      if (t.only.count(a->files[i].abs_path)) {
        mine[i] = true;
        continue;
      }
      for (const IncludeSite& s : a->IncludeChain(static_cast<int>(i)))
        if (s.file >= 0 && t.only.count(a->files[s.file].abs_path)) mine[i] = true;
    }
  auto is_mine = [&](int file) { return file >= 0 && mine[file]; };
  std::vector<Diagnostic> kept;
  for (Diagnostic& d : a->diagnostics) {
    bool keep = d.file < 0 || is_mine(d.file) ||
                std::any_of(d.notes.begin(), d.notes.end(), [&](const Note& n) { return is_mine(n.where.file); });
    if (keep && seen && d.file >= 0) {
      std::string key = a->files[d.file].abs_path + '\0' + std::to_string(d.range.begin) + '\0' +
                        std::to_string(d.range.end) + '\0' + d.rule->code + '\0' + d.message;
      keep = seen->insert(std::move(key)).second;
    }
    if (keep) kept.push_back(std::move(d));
  }
  a->diagnostics = std::move(kept);
}

}  // namespace pgconflint
