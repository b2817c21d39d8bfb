// Analyze and AnalyzeText: a ConfTreeSource and the passes.
#include "core/conf/analyze.h"

#include "core/conf/passes.h"
#include "core/model/settings_source.h"

namespace pgconflint {

namespace {

const FileSystem& FileSystemOf(const AnalyzeOptions& o) {
  static const RealFileSystem real;
  return o.fs ? *o.fs : real;
}

const HostFacts& HostOf(const AnalyzeOptions& o) {
  static const LocalHost local(true);
  return o.host ? *o.host : local;
}

Analysis Run(const std::string& root, const SettingsSource& source, const FileSystem& fs,
             const AnalyzeOptions& options) {
  Analysis a;
  a.root = root;
  a.catalog = options.catalog;
  FileCache cache(fs);
  source.Collect({&cache, options.display_base}, &a);
  if (a.failure == Analysis::Failure::kNone) RunPasses(&a, HostOf(options));
  return a;
}

}  // namespace

Analysis Analyze(const std::string& root, const AnalyzeOptions& options) {
  return Run(root, ConfTreeSource(root), FileSystemOf(options), options);
}

Analysis AnalyzeText(const std::string& name, const std::string& text, const AnalyzeOptions& options) {
  // The text stands in for the file `name`; its includes come from options.fs.
  OverlayFileSystem overlay(&FileSystemOf(options));
  overlay.Set(name, text);
  Analysis a = Run(name, ConfTreeSource(name), overlay, options);
  // Shown relative to display_base like every included file (rule examples
  // use "/example/postgresql.conf" and show "postgresql.conf").
  const std::string& base = options.display_base;
  if (!a.files.empty() && !base.empty()) {
    const std::string& abs = a.files[0].abs_path;
    if (abs.size() > base.size() && abs.compare(0, base.size(), base) == 0 && abs[base.size()] == '/')
      a.files[0].source = SourceFile(abs.substr(base.size() + 1), a.files[0].source);
  }
  return a;
}

}  // namespace pgconflint
