// Linting text and rule examples through the one pipeline: a workspace
// over the text (and the disk, for LintText; nothing else, for examples).
#include "core/workspace/workspace.h"

namespace pgconflint {
namespace {

// "# file: NAME" lines split an example into the files of a data directory.
std::vector<std::pair<std::string, std::string>> ExampleFiles(const std::string& text) {
  static const char kMarker[] = "# file: ";
  std::vector<std::pair<std::string, std::string>> files{{"postgresql.conf", ""}};
  size_t at = 0;
  bool marked = false;
  while (at < text.size()) {
    size_t nl = text.find('\n', at);
    std::string line = text.substr(at, nl == std::string::npos ? std::string::npos : nl + 1 - at);
    at = nl == std::string::npos ? text.size() : nl + 1;
    if (line.rfind(kMarker, 0) == 0) {
      std::string name = line.substr(sizeof kMarker - 1);
      while (!name.empty() && (name.back() == '\n' || name.back() == '\r' || name.back() == ' ')) name.pop_back();
      files.push_back({name, ""});
      marked = true;
      continue;
    }
    files.back().second += line;
  }
  if (!marked) files.resize(1);
  return files;
}

// A data directory's files from an example's text into `fs` at `dir`; the
// server's rows (pg_hba_file_rules.json...) into *hba / *ident. True when
// the text held several files.
bool PutExampleFiles(const std::string& text, const std::string& dir, OverlayFileSystem* fs,
                     std::vector<ServerHbaRule>* hba, std::vector<ServerIdentMapping>* ident, WorkspaceOptions* o) {
  std::vector<std::pair<std::string, std::string>> files = ExampleFiles(text);
  std::string error;
  for (const auto& [file, content] : files) {
    if (file == "pg_hba_file_rules.json" && ParseServerHbaRules(content, hba, &error)) o->server_hba = hba;
    else if (file == "pg_ident_file_mappings.json" && ParseServerIdentMappings(content, ident, &error))
      o->server_ident = ident;
    else fs->Set(dir + "/" + file, content);
  }
  return files.size() > 1;
}

}  // namespace

Analysis LintText(const std::string& name, const std::string& text, const Catalog& catalog, const RuleSet& rules,
                  const Profile& profile, const std::string& display_base) {
  static const RealFileSystem disk;
  OverlayFileSystem overlay(&disk);
  WorkspaceOptions o;
  o.fs = &overlay;
  o.pg_version = catalog.major();
  o.use_config = false;
  o.rules = &rules;
  o.profile = &profile;
  o.display_base = display_base;
  std::vector<ServerHbaRule> hba;
  std::vector<ServerIdentMapping> ident;
  const std::string abs = AbsolutePath(overlay, name), dir = ParentDirectory(abs);
  // One file: the file as given; several: the data directory of `name`.
  std::string root = name;
  if (PutExampleFiles(text, dir, &overlay, &hba, &ident, &o)) root = dir;
  else overlay.Set(abs, text);
  Workspace ws(o);
  Analysis a;
  std::string error;
  if (!ws.Lint(root, &a, &error)) {
    a.failure = Analysis::Failure::kUsage;
    a.failure_message = error;
  }
  return a;
}

Analysis LintExample(const RuleInfo& rule, const std::string& text, const RuleSet& rules, const std::string& dir,
                     const std::string& display_base) {
  Profile profile;
  std::string error;  // the rules test checks every example profile
  SetProfileFacts(&profile, rule.example_profile, &error);
  OverlayFileSystem fs;
  WorkspaceOptions o;
  o.fs = &fs;
  o.pg_version = rule.example_pg_version ? rule.example_pg_version : Catalog::DefaultMajor();
  o.use_config = false;
  o.rules = &rules;
  o.profile = &profile;
  o.display_base = display_base;
  std::vector<ServerHbaRule> hba;
  std::vector<ServerIdentMapping> ident;
  const std::string kind = rule.example_kind;
  Analysis a;
  Snapshot server;
  if ((kind == "snapshot" || kind == "drift") &&
      !ReadSnapshot(kind == "snapshot" ? text : rule.example_context, &server, &error)) {
    a.failure = Analysis::Failure::kUsage;
    a.failure_message = error;
    return a;
  }
  bool ok = true;
  if (kind == "sql") {
    fs.Set(dir + "/script.sql", text);
    if (rule.example_context[0]) {
      fs.Set(dir + "/postgresql.conf", "");
      fs.Set(dir + "/postgresql.auto.conf", rule.example_context);
      o.sql_cluster = dir;
    }
    Workspace ws(o);
    ok = ws.Lint(dir + "/script.sql", &a, &error);
  } else if (kind == "snapshot") {
    Workspace ws(o);
    ok = ws.LintSnapshot(server, &a, &error);
  } else if (kind == "drift") {
    fs.Set(dir + "/postgresql.conf", text);
    Workspace ws(o);
    ok = ws.LintDrift(dir, server, &a, &error);
  } else {
    PutExampleFiles(text, dir, &fs, &hba, &ident, &o);
    Workspace ws(o);
    ok = ws.Lint(dir, &a, &error);
  }
  if (!ok) {
    a.failure = Analysis::Failure::kUsage;
    a.failure_message = error;
  }
  return a;
}

}  // namespace pgconflint
