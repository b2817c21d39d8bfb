// Reading .pgconflint.toml. toml++ exceptions stop here.
#include "core/project_config.h"

#include <toml++/toml.h>

#include <charconv>
#include <utility>

#include "core/catalog.h"

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

bool SelectorMatches(const std::string& selector, const RuleInfo& rule) {
  std::string s = AsciiLower(selector);
  if (s == "all") return true;
  std::string code = AsciiLower(rule.code);
  return s == code || s == rule.name || (s.size() >= 3 && code.compare(0, s.size(), s) == 0);
}

bool LoadProjectConfig(const FileSystem& fs, const std::string& path, ProjectConfig* out, std::string* error) {
  std::string text, read_error;
  if (fs.Read(path, &text, &read_error) != ReadStatus::kOk) {
    *error = path + ": " + read_error;
    return false;
  }
  toml::table t;
  try {
    t = toml::parse(text, path);
  } catch (const toml::parse_error& e) {
    *error = path + ":" + std::to_string(e.source().begin.line) + ": " + std::string(e.description());
    return false;
  }
  out->path = path;
  auto fail = [&](const toml::node* n, const std::string& m) {
    *error = path + ":" + std::to_string(n ? n->source().begin.line : 1) + ": " + m;
    return false;
  };
  auto strings = [&](const char* key, std::vector<std::string>* dst) {
    const toml::node* n = t.get(key);
    if (!n) return true;
    const toml::array* arr = n->as_array();
    if (!arr) return fail(n, std::string(key) + " must be an array of strings");
    for (const auto& x : *arr) {
      auto s = x.value<std::string>();
      if (!s) return fail(&x, std::string(key) + " must be an array of strings");
      dst->push_back(*s);
    }
    return true;
  };
  static const char* const kKeys[] = {"pg-version", "fail-on", "select", "ignore", "extra-rules", "severity",
                                      "per-file-ignores", "profile", "recommendation-hints"};
  for (const auto& [k, v] : t) {
    bool ok = false;
    for (const char* known : kKeys) ok |= k.str() == known;
    if (!ok) return fail(&v, "unknown key \"" + std::string(k.str()) + "\"");
  }
  if (const toml::node* n = t.get("pg-version")) {
    // Only an integer node: toml++'s integer read of a float converts out of range.
    const toml::value<int64_t>* v = n->as_integer();
    if (!v || !std::in_range<int>(v->get()) || !Catalog::ForMajor(static_cast<int>(v->get())))
      return fail(n, "pg-version must be one of 14..18");
    out->pg_version = static_cast<int>(v->get());
  }
  if (const toml::node* n = t.get("fail-on")) {
    auto v = n->value<std::string>();
    if (!v || (*v != "error" && *v != "warning" && *v != "info" && *v != "never"))
      return fail(n, "fail-on must be error, warning, info or never");
    out->fail_on = *v;
  }
  if (const toml::node* n = t.get("recommendation-hints")) {
    auto v = n->value<bool>();
    if (!v) return fail(n, "recommendation-hints must be true or false");
    out->recommendation_hints = *v;
  }
  if (!strings("select", &out->select) || !strings("ignore", &out->ignore)) return false;
  std::vector<std::string> extra;
  if (!strings("extra-rules", &extra)) return false;
  for (const std::string& e : extra)
    out->extra_rules.push_back(e[0] == '/' ? e : CanonicalizePath(ParentDirectory(path) + "/" + e));
  if (const toml::node* n = t.get("severity")) {
    const toml::table* sev = n->as_table();
    if (!sev) return fail(n, "[severity] must be a table");
    for (const auto& [k, v] : *sev) {
      auto s = v.value<std::string>();
      Severity severity;
      if (!s || !ParseSeverity(*s, &severity)) return fail(&v, "severity must be error, warning or info");
      out->severity[std::string(k.str())] = severity;
    }
  }
  if (const toml::node* n = t.get("per-file-ignores")) {
    const toml::table* pfi = n->as_table();
    if (!pfi) return fail(n, "[per-file-ignores] must be a table");
    for (const auto& [k, v] : *pfi) {
      std::vector<std::string> sel;
      const toml::array* arr = v.as_array();
      if (!arr) return fail(&v, "per-file-ignores values must be arrays of codes");
      for (const auto& x : *arr)
        if (auto s = x.value<std::string>()) sel.push_back(*s);
      out->per_file_ignores.emplace_back(std::string(k.str()), std::move(sel));
    }
  }
  if (const toml::node* n = t.get("profile")) {
    const toml::table* prof = n->as_table();
    if (!prof) return fail(n, "[profile] must be a table");
    for (const auto& [k, v] : *prof) {
      std::string key(k.str());
      if (key == "tablespaces") {
        const toml::table* ts = v.as_table();
        if (!ts) return fail(&v, "[profile.tablespaces] must be a table of name = \"storage\"");
        for (const auto& [name, storage] : *ts) {
          auto s = storage.value<std::string>();
          std::string e;
          if (!s || !SetProfileFact(&out->profile, "tablespace", std::string(name.str()) + "=" + *s, &e))
            return fail(&storage, s ? e : "tablespace storage must be a string");
        }
        continue;
      }
      std::string value;
      if (!ProfileFactText(v, &value)) return fail(&v, "profile." + key + " must be a string, number or boolean");
      std::string e;
      if (!SetProfileFact(&out->profile, key, value, &e)) return fail(&v, e);
    }
  }
  return true;
}

}  // namespace pgconflint
