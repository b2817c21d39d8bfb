// Reading .pgconflint.toml. toml++ exceptions stop here.
#include "core/workspace/project_config.h"


#include <fnmatch.h>

#include <charconv>
#include <utility>

#include "core/knowledge/catalog.h"
#include "core/hba/hba_source.h"
#include "core/base/toml_read.h"

namespace pgconflint {
namespace {

// A [profile] value as the text a flag would give: numbers in their shortest
// exact spelling ("0.1", "1e+300", "nan"), so that SetProfileFact judges them
// as it judges flags. Each node type is read as itself (no numeric conversion).
bool ProfileFactText(const toml::node& v, std::string* out) {
  if (const auto* s = v.as_string()) {
    *out = s->get();
  } else if (const auto* i = v.as_integer()) {
    *out = std::to_string(i->get());
  } else if (const auto* d = v.as_floating_point()) {
    char buf[64];
    auto r = std::to_chars(buf, buf + sizeof buf, d->get());
    *out = std::string(buf, r.ptr);
  } else if (const auto* b = v.as_boolean()) {
    *out = b->get() ? "yes" : "no";
  } else {
    return false;
  }
  return true;
}

}  // namespace

std::string FindProjectConfig(const FileSystem& fs, const std::string& start) {
  std::string abs = AbsolutePath(fs, start.empty() ? "." : start);
  std::string dir = fs.Stat(abs).type == FileInfo::Type::kDirectory ? abs : ParentDirectory(abs);
  for (;;) {
    std::string candidate = (dir == "/" ? "" : dir) + "/.pgconflint.toml";
    if (fs.Stat(candidate).type == FileInfo::Type::kRegular) return candidate;
    if (dir == "/" || dir.empty() || dir == ".") return "";
    dir = ParentDirectory(dir);
  }
}

bool MatchesGlobs(const ProjectConfig& config, const std::vector<std::string>& globs, const std::string& abs) {
  std::string rel = abs;
  if (!config.path.empty()) {
    std::string base = ParentDirectory(config.path);
    base += base == "/" ? "" : "/";
    if (rel.compare(0, base.size(), base) == 0) rel = rel.substr(base.size());
  }
  std::string name = rel.substr(rel.rfind('/') + 1);
  for (const std::string& g : globs) {
    // A glob without '/' may name the file alone ("*.sample"); '*' crosses
    // directories, as in per-file-ignores.
    if (fnmatch(g.c_str(), rel.c_str(), 0) == 0) return true;
    if (g.find('/') == std::string::npos && fnmatch(g.c_str(), name.c_str(), 0) == 0) return true;
    // "legacy" or "legacy/" excludes everything below that directory.
    std::string dir = g.back() == '/' ? g : g + "/";
    if (rel.compare(0, dir.size(), dir) == 0) return true;
  }
  return false;
}

bool SelectorMatches(const std::string& selector, const RuleInfo& rule) {
  std::string s = AsciiLower(selector);
  if (s == "all") return true;
  std::string code = AsciiLower(rule.code);
  return s == code || s == rule.name || (s.size() >= 3 && code.compare(0, s.size(), s) == 0);
}

namespace {

// Reads one parsed .pgconflint.toml into a ProjectConfig; every error names
// the file and the line of the offending key.
class ConfigReader {
 public:
  ConfigReader(const std::string& path, const toml::table& t, ProjectConfig* out, std::string* error)
      : path_(path), t_(t), out_(out), error_(error) {}

  bool Read() {
    return KnownKeys() && Scalars() && Strings("select", &out_->select) && Strings("ignore", &out_->ignore) &&
           Strings("include", &out_->include) && Strings("exclude", &out_->exclude) && ExtraRules() &&
           ExtensionCatalogs() && Severities() && PerFileIgnores() && ProfileFacts() && Format();
  }

 private:
  bool Fail(const toml::node* n, const std::string& m) {
    *error_ = path_ + ":" + std::to_string(n ? n->source().begin.line : 1) + ": " + m;
    return false;
  }

  bool KnownKeys() {
    static const char* const kKeys[] = {"pg-version", "fail-on", "select", "ignore", "extra-rules", "severity",
                                        "per-file-ignores", "profile", "recommendation-hints", "include",
                                        "exclude", "allow-outside-includes", "extension-catalog", "cluster",
                                        "format"};
    for (const auto& [k, v] : t_) {
      bool ok = false;
      for (const char* known : kKeys) ok |= k.str() == known;
      if (!ok) return Fail(&v, "unknown key \"" + std::string(k.str()) + "\"");
    }
    return true;
  }

  bool Scalars() {
    if (const toml::node* n = t_.get("pg-version")) {
      // Only an integer node: toml++'s integer read of a float converts out of range.
      const toml::value<int64_t>* v = n->as_integer();
      if (!v || !std::in_range<int>(v->get()) || !Catalog::ForMajor(static_cast<int>(v->get())))
        return Fail(n, "pg-version must be one of " + SupportedMajorsText());
      out_->pg_version = static_cast<int>(v->get());
    }
    if (const toml::node* n = t_.get("fail-on")) {
      auto v = n->value<std::string>();
      if (!v || (*v != "error" && *v != "warning" && *v != "info" && *v != "never"))
        return Fail(n, "fail-on must be error, warning, info or never");
      out_->fail_on = *v;
    }
    if (const toml::node* n = t_.get("recommendation-hints")) {
      // Only a boolean node: toml++'s value<bool>() also converts integers.
      const toml::value<bool>* v = n->as_boolean();
      if (!v) return Fail(n, "recommendation-hints must be true or false");
      out_->recommendation_hints = v->get();
    }
    if (const toml::node* n = t_.get("cluster")) {
      auto v = n->value<std::string>();
      if (!v || v->empty())
        return Fail(n, "cluster must be a path: the data directory or postgresql.conf SQL scripts run against");
      out_->cluster = (*v)[0] == '/' ? *v : CanonicalizePath(ParentDirectory(path_) + "/" + *v);
    }
    if (const toml::node* n = t_.get("allow-outside-includes")) {
      auto v = n->value<bool>();
      if (!v) return Fail(n, "allow-outside-includes must be true or false");
      out_->allow_outside_includes = *v;
    }
    return true;
  }

  bool Strings(const char* key, std::vector<std::string>* dst) {
    const toml::node* n = t_.get(key);
    if (!n) return true;
    const toml::array* arr = n->as_array();
    if (!arr) return Fail(n, std::string(key) + " must be an array of strings");
    for (const auto& x : *arr) {
      auto s = x.value<std::string>();
      if (!s || s->empty()) return Fail(&x, std::string(key) + " must be an array of non-empty strings");
      dst->push_back(*s);
    }
    return true;
  }

  bool ExtraRules() {
    std::vector<std::string> extra;
    if (!Strings("extra-rules", &extra)) return false;
    for (const std::string& e : extra)
      out_->extra_rules.push_back(e[0] == '/' ? e : CanonicalizePath(ParentDirectory(path_) + "/" + e));
    return true;
  }

  bool ExtensionCatalogs() {
    std::vector<std::string> files;
    if (!Strings("extension-catalog", &files)) return false;
    for (const std::string& f : files)
      out_->extension_catalogs.push_back(f[0] == '/' ? f : CanonicalizePath(ParentDirectory(path_) + "/" + f));
    return true;
  }

  bool Severities() {
    const toml::node* n = t_.get("severity");
    if (!n) return true;
    const toml::table* sev = n->as_table();
    if (!sev) return Fail(n, "[severity] must be a table");
    for (const auto& [k, v] : *sev) {
      auto s = v.value<std::string>();
      Severity severity;
      if (!s || !ParseSeverity(*s, &severity)) return Fail(&v, "severity must be error, warning or info");
      out_->severity[std::string(k.str())] = severity;
    }
    return true;
  }

  bool PerFileIgnores() {
    const toml::node* n = t_.get("per-file-ignores");
    if (!n) return true;
    const toml::table* pfi = n->as_table();
    if (!pfi) return Fail(n, "[per-file-ignores] must be a table");
    for (const auto& [k, v] : *pfi) {
      std::vector<std::string> sel;
      const toml::array* arr = v.as_array();
      if (!arr) return Fail(&v, "per-file-ignores values must be arrays of codes");
      for (const auto& x : *arr) {
        const toml::value<std::string>* s = x.as_string();
        if (!s || s->get().empty()) return Fail(&x, "per-file-ignores values must be arrays of codes");
        sel.push_back(s->get());
      }
      out_->per_file_ignores.emplace_back(std::string(k.str()), std::move(sel));
    }
    return true;
  }

  bool Format() {
    const toml::node* n = t_.get("format");
    if (!n) return true;
    const toml::table* f = n->as_table();
    if (!f) return Fail(n, "[format] must be a table");
    for (const auto& [k, v] : *f) {
      if (k.str() != "align") return Fail(&v, "unknown key \"format." + std::string(k.str()) + "\"");
      // Only a boolean node: toml++'s value<bool>() also converts integers.
      const toml::value<bool>* b = v.as_boolean();
      if (!b) return Fail(&v, "format.align must be true or false");
      out_->format_align = b->get();
    }
    return true;
  }

  bool Tablespaces(const toml::node& v) {
    const toml::table* ts = v.as_table();
    if (!ts) return Fail(&v, "[profile.tablespaces] must be a table of name = \"storage\"");
    for (const auto& [name, storage] : *ts) {
      auto s = storage.value<std::string>();
      std::string e;
      if (!s || !SetProfileFact(&out_->profile, "tablespace", std::string(name.str()) + "=" + *s, &e))
        return Fail(&storage, s ? e : "tablespace storage must be a string");
    }
    return true;
  }

  bool ProfileFacts() {
    const toml::node* n = t_.get("profile");
    if (!n) return true;
    const toml::table* prof = n->as_table();
    if (!prof) return Fail(n, "[profile] must be a table");
    for (const auto& [k, v] : *prof) {
      std::string key(k.str());
      if (key == "tablespaces") {
        if (!Tablespaces(v)) return false;
        continue;
      }
      std::string value, e;
      if (!ProfileFactText(v, &value)) return Fail(&v, "profile." + key + " must be a string, number or boolean");
      if (!SetProfileFact(&out_->profile, key, value, &e)) return Fail(&v, e);
    }
    return true;
  }

  const std::string& path_;
  const toml::table& t_;
  ProjectConfig* out_;
  std::string* error_;
};

}  // namespace

bool LoadProjectConfig(const FileSystem& fs, const std::string& path, ProjectConfig* out, std::string* error) {
  std::string text, read_error;
  if (ReadDataFile(fs, path, &text, &read_error) != ReadStatus::kOk) {
    *error = path + ": " + read_error;
    return false;
  }
  toml::table t;
  if (!ParseToml(text, path, &t, error)) return false;
  out->path = path;
  return ConfigReader(path, t, out, error).Read();
}

}  // namespace pgconflint
