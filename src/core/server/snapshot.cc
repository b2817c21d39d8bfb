// Reading a snapshot's JSON. Every field is optional: a missing or null
// field keeps its default, so that snapshots of older and newer formats of a
// section still read. A field or section of another type is refused, with
// where it is: a snapshot of the wrong shape is never a server with nothing
// to check.
#include "core/server/snapshot.h"

#include <nlohmann/json.hpp>

#include "core/knowledge/catalog.h"
#include "core/base/json_read.h"

namespace pgconflint {
namespace {

using nlohmann::json;

const char* TypeName(const json& v) {
  switch (v.type()) {
    case json::value_t::object: return "an object";
    case json::value_t::array: return "an array";
    case json::value_t::string: return "a string";
    case json::value_t::boolean: return "a boolean";
    case json::value_t::number_float: return "a number with a fraction";
    case json::value_t::number_integer:
    case json::value_t::number_unsigned: return "an integer";
    default: return "null";
  }
}

// The fields of one object, each of the type its query gives it. A missing
// or null field keeps its default (a section of an older or newer format
// still reads); a field of another type is an error naming where it is
// ("settings[3].sourceline: expected an integer, got a string"): a snapshot
// of the wrong shape is refused, never read as empty.
class Fields {
 public:
  Fields(const json& o, std::string where, std::string* error) : o_(o), where_(std::move(where)), error_(error) {}

  std::string Str(const char* key) {
    const json* v = Get(key, json::value_t::string, "a string");
    return v ? v->get<std::string>() : "";
  }
  int Int(const char* key) {
    const json* v = Find(key);
    if (!v) return 0;
    std::optional<int> i = JsonInt(*v);
    if (!i) Wrong(key, v->is_number_integer() || v->is_number_unsigned() ? "an integer within 32 bits" : "an integer", *v);
    return i.value_or(0);
  }
  // A number of any size (bigint counters, sizes in bytes).
  double Num(const char* key) {
    const json* v = Find(key);
    if (!v) return 0;
    if (!v->is_number()) Wrong(key, "a number", *v);
    return v->is_number() ? v->get<double>() : 0;
  }
  bool Bool(const char* key) {
    const json* v = Get(key, json::value_t::boolean, "a boolean");
    return v && v->get<bool>();
  }
  std::vector<std::string> Strings(const char* key) {
    std::vector<std::string> out;
    const json* v = Get(key, json::value_t::array, "an array of strings");
    if (!v) return out;
    for (const json& e : *v) {
      if (!e.is_string()) {
        Wrong(key, "an array of strings", e);
        break;
      }
      out.push_back(e.get<std::string>());
    }
    return out;
  }

 private:
  const json* Find(const char* key) const {
    auto it = o_.find(key);
    return it == o_.end() || it->is_null() ? nullptr : &*it;
  }
  const json* Get(const char* key, json::value_t type, const char* expected) {
    const json* v = Find(key);
    if (v && v->type() != type) {
      Wrong(key, expected, *v);
      return nullptr;
    }
    return v;
  }
  void Wrong(const char* key, const char* expected, const json& got) {
    if (error_->empty()) *error_ = where_ + "." + key + ": expected " + expected + ", got " + TypeName(got);
  }

  const json& o_;
  std::string where_;
  std::string* error_;
};

// Section `key`: nullopt when missing or null (not visible to the role),
// else its rows, each an object. *error when it is anything else.
std::optional<std::vector<const json*>> Section(const json& doc, const char* key, std::string* error) {
  auto it = doc.find(key);
  if (it == doc.end() || it->is_null()) return std::nullopt;
  std::vector<const json*> rows;
  if (!it->is_array()) {
    if (error->empty()) *error = std::string(key) + ": expected an array of rows, got " + TypeName(*it);
    return rows;
  }
  for (size_t i = 0; i < it->size(); ++i) {
    const json& r = (*it)[i];
    if (!r.is_object()) {
      if (error->empty())
        *error = std::string(key) + "[" + std::to_string(i) + "]: expected an object (one row), got " + TypeName(r);
      return rows;
    }
    rows.push_back(&r);
  }
  return rows;
}

std::string Row(const char* section, size_t i) { return std::string(section) + "[" + std::to_string(i) + "]"; }

void ReadSettings(const json& doc, Snapshot* s, std::string* error) {
  if (auto rows = Section(doc, "settings", error))
    for (size_t i = 0; i < rows->size(); ++i) {
      Fields f(*(*rows)[i], Row("settings", i), error);
      s->settings.push_back({f.Str("name"), f.Str("setting"), f.Str("unit"), f.Str("vartype"), f.Str("context"),
                             f.Str("source"), f.Str("boot_val"), f.Str("reset_val"), f.Str("sourcefile"),
                             f.Int("sourceline"), f.Bool("pending_restart")});
    }
  if (auto rows = Section(doc, "file_settings", error)) {
    s->file_settings.emplace();
    for (size_t i = 0; i < rows->size(); ++i) {
      Fields f(*(*rows)[i], Row("file_settings", i), error);
      s->file_settings->push_back({f.Str("sourcefile"), f.Str("name"), f.Str("setting"), f.Str("error"),
                                   f.Int("sourceline"), f.Int("seqno"), f.Bool("applied")});
    }
  }
}

// The catalog sections.
void ReadObjects(const json& doc, Snapshot* s, std::string* error) {
  if (auto rows = Section(doc, "db_role_settings", error))
    for (size_t i = 0; i < rows->size(); ++i) {
      Fields f(*(*rows)[i], Row("db_role_settings", i), error);
      s->db_role_settings.push_back({f.Str("database"), f.Str("role"), f.Strings("settings")});
    }
  if (auto rows = Section(doc, "tablespaces", error))
    for (size_t i = 0; i < rows->size(); ++i) {
      Fields f(*(*rows)[i], Row("tablespaces", i), error);
      s->tablespaces.push_back({f.Str("name"), f.Strings("options")});
    }
  if (auto rows = Section(doc, "databases", error))
    for (size_t i = 0; i < rows->size(); ++i) {
      Fields f(*(*rows)[i], Row("databases", i), error);
      s->databases.push_back({f.Str("name"), f.Str("tablespace")});
    }
  if (auto rows = Section(doc, "roles", error))
    for (size_t i = 0; i < rows->size(); ++i) {
      Fields f(*(*rows)[i], Row("roles", i), error);
      s->roles.push_back({f.Str("name"), f.Bool("login")});
    }
  if (auto rows = Section(doc, "tables", error)) {
    s->tables.emplace();
    for (size_t i = 0; i < rows->size(); ++i) {
      Fields f(*(*rows)[i], Row("tables", i), error);
      s->tables->push_back({f.Str("schema"), f.Str("name"), f.Num("bytes"), f.Num("reltuples"), f.Num("live"),
                            f.Num("dead"), f.Num("inserted"), f.Num("updated"), f.Num("deleted"),
                            f.Num("inserted_since_vacuum"), f.Num("modified_since_analyze"), f.Strings("options")});
    }
  }
  if (!error->empty()) return;
  auto it = doc.find("hba_rules");
  if (it != doc.end() && !it->is_null() && !ReadServerHbaRules(*it, &s->hba_rules.emplace(), error)) {
    *error = "hba_rules: " + *error;
    return;
  }
  it = doc.find("ident_mappings");
  if (it != doc.end() && !it->is_null() && !ReadServerIdentMappings(*it, &s->ident_mappings.emplace(), error))
    *error = "ident_mappings: " + *error;
}

}  // namespace

const SnapshotSetting* Snapshot::Setting(std::string_view name) const {
  const std::string key = AsciiLower(name);
  if (indexed_rows && indexed_rows == settings.size()) {
    auto it = setting_index.find(key);
    return it == setting_index.end() ? nullptr : &settings[it->second];
  }
  for (const SnapshotSetting& s : settings)
    if (AsciiLower(s.name) == key) return &s;
  return nullptr;
}

void Snapshot::IndexSettings() {
  setting_index.clear();
  setting_index.reserve(settings.size());
  for (size_t i = 0; i < settings.size(); ++i) setting_index.emplace(AsciiLower(settings[i].name), i);
  indexed_rows = settings.size();
}

bool Snapshot::Refused(const SnapshotFileSetting& f) const {
  if (f.error.empty()) return false;
  if (f.error != "setting could not be applied") return true;
  const SnapshotSetting* r = f.name.empty() ? nullptr : Setting(f.name);
  return !r || !r->pending_restart;
}

bool ReadSnapshot(std::string_view text, Snapshot* out, std::string* error) {
  try {
    json doc = ParseJson(text);
    if (!doc.is_object() || !doc.contains("pgconflint_snapshot")) {
      *error = "not a pgconflint snapshot (no \"pgconflint_snapshot\" key)";
      return false;
    }
    const json& format = doc["pgconflint_snapshot"];
    if (JsonInt(format) != Snapshot::kFormat) {
      *error = "snapshot format " + format.dump(-1, ' ', true, json::error_handler_t::replace) +
               " is not supported (expected " + std::to_string(Snapshot::kFormat) + ")";
      return false;
    }
    Snapshot s;
    std::string problem;
    Fields top(doc, "snapshot", &problem);
    s.server = top.Str("server");
    static const json kNoInfo = json::object();
    auto info_it = doc.find("info");
    if (info_it != doc.end() && !info_it->is_null() && !info_it->is_object())
      problem = std::string("info: expected an object, got ") + TypeName(*info_it);
    Fields info(info_it != doc.end() && info_it->is_object() ? *info_it : kNoInfo, "info", &problem);
    s.taken_at = info.Str("taken_at");
    s.server_version_num = info.Int("server_version_num");
    s.server_version = info.Str("server_version");
    s.user = info.Str("user");
    s.database = info.Str("database");
    s.superuser = info.Bool("superuser");
    s.pg_read_all_settings = info.Bool("pg_read_all_settings");
    s.pg_monitor = info.Bool("pg_monitor");
    if (problem.empty() && s.server_version_num <= 0) problem = "the snapshot has no server_version_num";
    if (problem.empty()) ReadSettings(doc, &s, &problem);
    if (problem.empty()) ReadObjects(doc, &s, &problem);
    if (!problem.empty()) {
      *error = problem;
      return false;
    }
    s.IndexSettings();
    *out = std::move(s);
  } catch (const std::exception& e) {
    *error = std::string("not valid JSON: ") + e.what();
    return false;
  }
  return true;
}

}  // namespace pgconflint
