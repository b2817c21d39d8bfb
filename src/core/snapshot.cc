// Reading a snapshot's JSON. Every field is optional: a missing or null
// field keeps its default, so that snapshots of older and newer formats of a
// section still read.
#include "core/snapshot.h"

#include <nlohmann/json.hpp>

#include "core/catalog.h"
#include "core/json_read.h"

namespace pgconflint {
namespace {

using nlohmann::json;

std::string Str(const json& o, const char* key) {
  auto it = o.find(key);
  if (it == o.end() || it->is_null()) return "";
  return it->is_string() ? it->get<std::string>() : it->dump();
}

int Int(const json& o, const char* key) {
  auto it = o.find(key);
  return it == o.end() ? 0 : JsonInt(*it).value_or(0);
}

bool Bool(const json& o, const char* key) {
  auto it = o.find(key);
  return it != o.end() && it->is_boolean() && it->get<bool>();
}

std::vector<std::string> Strings(const json& o, const char* key) {
  std::vector<std::string> out;
  auto it = o.find(key);
  if (it == o.end() || !it->is_array()) return out;
  for (const json& v : *it) out.push_back(v.is_string() ? v.get<std::string>() : v.dump());
  return out;
}

// The elements of array section `key` (none when null or missing).
const json& Section(const json& doc, const char* key) {
  static const json kEmpty = json::array();
  auto it = doc.find(key);
  return it != doc.end() && it->is_array() ? *it : kEmpty;
}

bool Visible(const json& doc, const char* key) {
  auto it = doc.find(key);
  return it != doc.end() && it->is_array();
}

void ReadSettings(const json& doc, Snapshot* s) {
  for (const json& r : Section(doc, "settings")) {
    SnapshotSetting x{Str(r, "name"), Str(r, "setting"), Str(r, "unit"), Str(r, "vartype"), Str(r, "context"),
                      Str(r, "source"), Str(r, "boot_val"), Str(r, "reset_val"), Str(r, "sourcefile"),
                      Int(r, "sourceline"), Bool(r, "pending_restart")};
    s->settings.push_back(std::move(x));
  }
  if (Visible(doc, "file_settings")) {
    s->file_settings.emplace();
    for (const json& r : Section(doc, "file_settings"))
      s->file_settings->push_back({Str(r, "sourcefile"), Str(r, "name"), Str(r, "setting"), Str(r, "error"),
                                   Int(r, "sourceline"), Int(r, "seqno"), Bool(r, "applied")});
  }
}

// The catalog sections; false with *error when a view's rows are malformed.
bool ReadObjects(const json& doc, Snapshot* s, std::string* error) {
  for (const json& r : Section(doc, "db_role_settings"))
    s->db_role_settings.push_back({Str(r, "database"), Str(r, "role"), Strings(r, "settings")});
  for (const json& r : Section(doc, "tablespaces")) s->tablespaces.push_back({Str(r, "name"), Strings(r, "options")});
  for (const json& r : Section(doc, "databases")) s->databases.push_back({Str(r, "name"), Str(r, "tablespace")});
  if (Visible(doc, "hba_rules") &&
      !ReadServerHbaRules(Section(doc, "hba_rules"), &s->hba_rules.emplace(), error)) {
    *error = "hba_rules: " + *error;
    return false;
  }
  if (Visible(doc, "ident_mappings") &&
      !ReadServerIdentMappings(Section(doc, "ident_mappings"), &s->ident_mappings.emplace(), error)) {
    *error = "ident_mappings: " + *error;
    return false;
  }
  return true;
}

}  // namespace

const SnapshotSetting* Snapshot::Setting(std::string_view name) const {
  const std::string key = AsciiLower(name);
  for (const SnapshotSetting& s : settings)
    if (AsciiLower(s.name) == key) return &s;
  return nullptr;
}

bool Snapshot::Refused(const SnapshotFileSetting& f) const {
  if (f.error.empty()) return false;
  if (f.error != "setting could not be applied") return true;
  const SnapshotSetting* r = f.name.empty() ? nullptr : Setting(f.name);
  return !r || !r->pending_restart;
}

bool ReadSnapshot(std::string_view text, Snapshot* out, std::string* error) {
  try {
    json doc = json::parse(text);
    if (!doc.is_object() || !doc.contains("pgconflint_snapshot")) {
      *error = "not a pgconflint snapshot (no \"pgconflint_snapshot\" key)";
      return false;
    }
    if (Int(doc, "pgconflint_snapshot") != Snapshot::kFormat) {
      *error = "snapshot format " + Str(doc, "pgconflint_snapshot") + " is not supported (expected " +
               std::to_string(Snapshot::kFormat) + ")";
      return false;
    }
    Snapshot s;
    s.server = Str(doc, "server");
    static const json kNoInfo = json::object();
    const json& info = doc.contains("info") && doc["info"].is_object() ? doc["info"] : kNoInfo;
    s.taken_at = Str(info, "taken_at");
    s.server_version_num = Int(info, "server_version_num");
    s.server_version = Str(info, "server_version");
    s.user = Str(info, "user");
    s.database = Str(info, "database");
    s.superuser = Bool(info, "superuser");
    s.pg_read_all_settings = Bool(info, "pg_read_all_settings");
    s.pg_monitor = Bool(info, "pg_monitor");
    if (s.server_version_num <= 0) {
      *error = "the snapshot has no server_version_num";
      return false;
    }
    ReadSettings(doc, &s);
    if (!ReadObjects(doc, &s, error)) return false;
    *out = std::move(s);
  } catch (const std::exception& e) {
    *error = std::string("not valid JSON: ") + e.what();
    return false;
  }
  return true;
}

}  // namespace pgconflint
