// The rows fill_hba_line and fill_ident_line would produce for pgconflint's
// reading, and their comparison with a server's. nlohmann exceptions stop
// here.
#include "core/hba/hba_server.h"

#include <cstdint>
#include <cstdlib>

#include <nlohmann/json.hpp>

#include "core/base/json_read.h"
#include "core/base/strings.h"

namespace pgconflint {
namespace {

const std::string* LastOption(const HbaRule& r, const char* name) {
  const std::string* v = nullptr;
  for (const HbaOption& o : r.options)
    if (o.name == name) v = &o.value;
  return v;
}

// get_hba_options: the options as pg_hba_file_rules prints them, in its order.
std::vector<std::string> OptionStrings(const HbaRule& r, const AuthParseOptions& facts) {
  std::vector<std::string> out;
  auto add = [&](const char* name, const char* as = nullptr) {
    if (const std::string* v = LastOption(r, name)) out.push_back(std::string(as ? as : name) + "=" + *v);
  };
  const std::string& m = r.method;
  if (m == "gss" || m == "sspi") {
    const std::string* realm = LastOption(r, "include_realm");
    if (!realm || *realm == "1") out.push_back("include_realm=true");
    add("krb_realm");
  }
  add("map");
  if (!r.clientcert.empty()) out.push_back("clientcert=" + r.clientcert);
  add("pamservice");
  if (m == "ldap") {
    add("ldapserver");
    if (const std::string* v = LastOption(r, "ldapport")) out.push_back("ldapport=" + std::to_string(atoi(v->c_str())));
    add("ldapscheme");
    if (const std::string* v = LastOption(r, "ldaptls"); v && *v == "1") out.push_back("ldaptls=true");
    for (const char* n : {"ldapprefix", "ldapsuffix", "ldapbasedn", "ldapbinddn", "ldapbindpasswd",
                          "ldapsearchattribute", "ldapsearchfilter"})
      add(n);
    if (!r.options.empty()) out.push_back("ldapscope=2");  // LDAP_SCOPE_SUBTREE, set by every option
  }
  if (m == "radius")
    for (const char* n : {"radiusservers", "radiussecrets", "radiusidentifiers", "radiusports"}) add(n);
  if (m == "oauth") {
    add("issuer");
    add("scope");
    std::vector<std::string> libs;
    if (LastOption(r, "validator")) add("validator");
    else if (facts.oauth_validator_libraries && SplitGucList(*facts.oauth_validator_libraries, ',', &libs) &&
             libs.size() == 1)
      out.push_back("validator=" + libs[0]);
    if (const std::string* v = LastOption(r, "delegate_ident_mapping"); v && *v == "1")
      out.push_back("delegate_ident_mapping=true");
  }
  return out;
}

std::vector<std::string> Texts(const std::vector<AuthToken>& tokens) {
  std::vector<std::string> out;
  for (const AuthToken& t : tokens) out.push_back(t.text);
  return out;
}

std::string Show(const std::optional<std::string>& v) { return v ? DoubleQuoted(*v) : "null"; }
std::string Show(const std::optional<std::vector<std::string>>& v) {
  if (!v) return "null";
  std::string s = "{";
  for (size_t i = 0; i < v->size(); ++i) s += (i ? "," : "") + (*v)[i];
  return s + "}";
}

template <typename T>
void Compare(const char* column, const T& server, const T& ours, std::vector<std::string>* out) {
  if (server != ours) out->push_back(std::string(column) + " " + Show(server) + " (pgconflint: " + Show(ours) + ")");
}

// What a row says, without where it stands: the key the drift comparison
// aligns rows by.
std::string Content(const ServerHbaRule& r) {
  return Show(r.type) + " " + Show(r.database) + " " + Show(r.user_name) + " " + Show(r.address) + " " +
         Show(r.netmask) + " " + Show(r.auth_method) + " " + Show(r.options) + " " + Show(r.error);
}
std::string Content(const ServerIdentMapping& m) {
  return Show(m.map_name) + " " + Show(m.sys_name) + " " + Show(m.pg_username) + " " + Show(m.error);
}

// A row in words, with its error when it has one.
std::string Words(const ServerHbaRule& r) {
  return r.error ? "(a line with an error: " + *r.error + ")" : RowText(r);
}
std::string Words(const ServerIdentMapping& m) {
  return m.error ? "(a line with an error: " + *m.error + ")" : RowText(m);
}

// Longest common subsequence of two key lists: for each element of `a` the
// index of its partner in `b`, or -1. Larger inputs than kMaxCells compare
// position by position.
std::vector<int> Align(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  constexpr size_t kMaxCells = 4'000'000;
  std::vector<int> match(a.size(), -1);
  if (a.size() * b.size() > kMaxCells) {
    for (size_t i = 0; i < a.size() && i < b.size(); ++i)
      if (a[i] == b[i]) match[i] = static_cast<int>(i);
    return match;
  }
  const size_t w = b.size() + 1;
  std::vector<uint32_t> len((a.size() + 1) * w, 0);
  for (size_t i = a.size(); i-- > 0;)
    for (size_t j = b.size(); j-- > 0;)
      len[i * w + j] = a[i] == b[j] ? len[(i + 1) * w + j + 1] + 1 : std::max(len[(i + 1) * w + j], len[i * w + j + 1]);
  for (size_t i = 0, j = 0; i < a.size() && j < b.size();) {
    if (a[i] == b[j]) {
      match[i++] = static_cast<int>(j++);
    } else if (len[(i + 1) * w + j] >= len[i * w + j + 1]) {
      ++i;
    } else {
      ++j;
    }
  }
  return match;
}

// One file's drift: our records (the rows `expect` says the server should
// show for them) against the server's rows.
template <typename Item, typename Row>
void InForce(const AuthConfig& auth, const Analysis& an, const std::vector<Item>& items,
             const std::vector<AuthLine>& lines, Row (*expect)(const AuthConfig&, const Analysis&, const Item&),
             std::span<const Row> server, int file, const char* view, const char* noun,
             std::vector<AuthDifference>* out) {
  std::vector<std::string> a, b;
  for (const Item& item : items) a.push_back(Content(expect(auth, an, item)));
  for (const Row& r : server) b.push_back(Content(r));
  std::vector<int> match = Align(a, b);
  std::vector<bool> used(b.size(), false);
  for (size_t i = 0; i < items.size(); ++i) {
    if (match[i] >= 0) {
      used[match[i]] = true;
      continue;
    }
    const AuthLine& l = lines[items[i].line_index];
    out->push_back({{l.file, l.range},
                    std::string("the running server has no ") + noun + " like this line (" + view + ")", false});
  }
  if (file < 0) return;
  for (size_t j = 0; j < server.size(); ++j)
    if (!used[j])
      out->push_back({{file, {0, 0}},
                      std::string("the running server has a ") + noun + " this file lacks: line " +
                          std::to_string(server[j].line_number) +
                          (server[j].file_name.empty() ? "" : " of " + server[j].file_name) + ": " +
                          Words(server[j]) + " (" + view + ")",
                      false});
}

std::string Join(const std::vector<std::string>& parts) {
  std::string s;
  for (size_t i = 0; i < parts.size(); ++i) s += (i ? "; " : "") + parts[i];
  return s;
}

}  // namespace

// A database or role name as pg_hba.conf spells it: in double quotes
// (doubled inside) when a blank, a comma, a quote or '#' would split it or
// end the line.
std::string HbaName(const std::string& name) {
  if (name.find_first_of(" \t,\"#") == std::string::npos) return name;
  std::string out = "\"";
  for (char c : name) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string RowText(const ServerHbaRule& r) {
  std::string out;
  auto word = [&out](const std::string& w) {
    if (!w.empty()) out += (out.empty() ? "" : " ") + w;
  };
  word(r.type.value_or(""));
  for (const auto* list : {&r.database, &r.user_name})
    if (*list) {
      std::string joined;
      for (const std::string& x : **list) joined += (joined.empty() ? "" : ",") + HbaName(x);
      word(joined);
    }
  for (const auto* x : {&r.address, &r.netmask, &r.auth_method}) word(x->value_or(""));
  if (r.options)
    for (const std::string& o : *r.options) word(o);
  return out;
}

std::string RowText(const ServerIdentMapping& m) {
  std::string out;
  for (const auto* x : {&m.map_name, &m.sys_name, &m.pg_username})
    if (*x && !(*x)->empty()) out += (out.empty() ? "" : " ") + **x;
  return out;
}

ServerHbaRule ExpectedHbaRow(const AuthConfig& auth, const Analysis& a, const HbaRule& r) {
  const AuthLine& line = auth.hba_lines[r.line_index];
  ServerHbaRule row;
  row.file_name = a.files[line.file].abs_path;
  row.line_number = static_cast<int>(line.line);
  if (!r.outcome.error.empty()) row.error = r.outcome.error;
  if (!r.outcome.parsed) return row;
  row.type = HbaConnTypeName(r.type);
  row.database = Texts(r.databases);
  row.user_name = Texts(r.roles);
  switch (r.address_kind) {
    case HbaAddressKind::kAll: row.address = "all"; break;
    case HbaAddressKind::kSameHost: row.address = "samehost"; break;
    case HbaAddressKind::kSameNet: row.address = "samenet"; break;
    case HbaAddressKind::kHostName: row.address = r.hostname; break;
    case HbaAddressKind::kIp:
      row.address = FormatAddress(r.addr);
      row.netmask = FormatAddress(r.mask);
      break;
    case HbaAddressKind::kNone: break;
  }
  row.auth_method = r.method;
  std::vector<std::string> options = OptionStrings(r, auth.options);
  if (!options.empty()) row.options = options;
  return row;
}

ServerIdentMapping ExpectedIdentRow(const AuthConfig& auth, const Analysis& a, const IdentMap& m) {
  const AuthLine& line = auth.ident_lines[m.line_index];
  ServerIdentMapping row;
  row.file_name = a.files[line.file].abs_path;
  row.line_number = static_cast<int>(line.line);
  if (!m.outcome.error.empty()) row.error = m.outcome.error;
  if (!m.outcome.parsed) return row;
  row.map_name = m.map.text;
  row.sys_name = m.system_user.text;
  row.pg_username = m.pg_user.text;
  return row;
}

std::vector<AuthDifference> CompareWithServer(const AuthConfig& auth, const Analysis& a,
                                              std::span<const ServerHbaRule> hba,
                                              std::span<const ServerIdentMapping> ident, bool compare_hba,
                                              bool compare_ident) {
  std::vector<AuthDifference> out;
  auto count = [&](int file, size_t server, size_t ours, const char* view) {
    if (server != ours && file >= 0)
      out.push_back({{file, {0, 0}},
                     std::string(view) + " has " + std::to_string(server) + " rows where pgconflint reads " +
                         std::to_string(ours) + " lines: the server reads other files than these",
                     false});
  };
  if (compare_hba) {
    count(auth.hba_file, hba.size(), auth.hba.size(), "pg_hba_file_rules");
    for (size_t i = 0; i < hba.size() && i < auth.hba.size(); ++i) {
      const HbaRule& r = auth.hba[i];
      ServerHbaRule want = ExpectedHbaRow(auth, a, r);
      const ServerHbaRule& got = hba[i];
      std::vector<std::string> d;
      if (got.line_number != want.line_number)
        d.push_back("line_number " + std::to_string(got.line_number) + " (pgconflint: " +
                    std::to_string(want.line_number) + ")");
      Compare("error", got.error, want.error, &d);
      Compare("type", got.type, want.type, &d);
      Compare("database", got.database, want.database, &d);
      Compare("user_name", got.user_name, want.user_name, &d);
      Compare("address", got.address, want.address, &d);
      Compare("netmask", got.netmask, want.netmask, &d);
      Compare("auth_method", got.auth_method, want.auth_method, &d);
      Compare("options", got.options, want.options, &d);
      if (d.empty()) continue;
      bool build = got.error && got.error->find("by this build") != std::string::npos;
      const AuthLine& l = auth.hba_lines[r.line_index];
      out.push_back({{l.file, l.range}, "the server reads this line differently: " + Join(d), build});
    }
  }
  if (compare_ident) {
    count(auth.ident_file, ident.size(), auth.ident.size(), "pg_ident_file_mappings");
    for (size_t i = 0; i < ident.size() && i < auth.ident.size(); ++i) {
      ServerIdentMapping want = ExpectedIdentRow(auth, a, auth.ident[i]);
      const ServerIdentMapping& got = ident[i];
      std::vector<std::string> d;
      if (got.line_number != want.line_number)
        d.push_back("line_number " + std::to_string(got.line_number) + " (pgconflint: " +
                    std::to_string(want.line_number) + ")");
      Compare("error", got.error, want.error, &d);
      Compare("map_name", got.map_name, want.map_name, &d);
      Compare("sys_name", got.sys_name, want.sys_name, &d);
      Compare("pg_username", got.pg_username, want.pg_username, &d);
      if (d.empty()) continue;
      const AuthLine& l = auth.ident_lines[auth.ident[i].line_index];
      out.push_back({{l.file, l.range}, "the server reads this line differently: " + Join(d), false});
    }
  }
  return out;
}

std::vector<AuthDifference> CompareInForce(const AuthConfig& auth, const Analysis& a,
                                           std::span<const ServerHbaRule> hba,
                                           std::span<const ServerIdentMapping> ident, bool compare_hba,
                                           bool compare_ident) {
  std::vector<AuthDifference> out;
  if (compare_hba)
    InForce(auth, a, auth.hba, auth.hba_lines, &ExpectedHbaRow, hba, auth.hba_file, "pg_hba_file_rules", "rule", &out);
  if (compare_ident)
    InForce(auth, a, auth.ident, auth.ident_lines, &ExpectedIdentRow, ident, auth.ident_file, "pg_ident_file_mappings",
            "mapping", &out);
  return out;
}

namespace {

using nlohmann::json;

std::optional<std::string> OptString(const json& row, const char* key) {
  if (!row.contains(key) || row[key].is_null()) return std::nullopt;
  return row[key].is_string() ? row[key].get<std::string>() : row[key].dump();
}

std::optional<std::vector<std::string>> OptList(const json& row, const char* key) {
  if (!row.contains(key) || !row[key].is_array()) return std::nullopt;
  std::vector<std::string> out;
  for (const json& v : row[key]) out.push_back(v.is_string() ? v.get<std::string>() : v.dump());
  return out;
}

std::optional<int> OptInt(const json& row, const char* key) {
  auto it = row.find(key);
  return it == row.end() ? std::nullopt : JsonInt(*it);
}

template <typename Row, typename Fill>
bool ParseRows(const json& j, std::vector<Row>* out, std::string* error, Fill fill) {
  if (!j.is_array()) {
    *error = "expected a JSON array of rows";
    return false;
  }
  for (const json& row : j) {
    if (!row.is_object()) {
      *error = "expected a JSON array of objects (one per row)";
      return false;
    }
    Row r;
    r.file_name = OptString(row, "file_name").value_or("");
    r.line_number = OptInt(row, "line_number").value_or(0);
    fill(row, &r);
    out->push_back(std::move(r));
  }
  return true;
}

// The text form: parsed once, then read as above.
template <typename Row>
bool ParseText(const std::string& text, std::vector<Row>* out, std::string* error,
               bool (*parse)(const json&, std::vector<Row>*, std::string*)) {
  json j;
  try {
    j = ParseJson(text);
  } catch (const json::exception& e) {
    *error = std::string("not valid JSON: ") + e.what();
    return false;
  }
  return parse(j, out, error);
}

}  // namespace

bool ReadServerHbaRules(const json& rows, std::vector<ServerHbaRule>* out, std::string* error) {
  return ParseRows(rows, out, error, [](const json& row, ServerHbaRule* r) {
    r->rule_number = OptInt(row, "rule_number");
    r->type = OptString(row, "type");
    r->database = OptList(row, "database");
    r->user_name = OptList(row, "user_name");
    r->address = OptString(row, "address");
    r->netmask = OptString(row, "netmask");
    r->auth_method = OptString(row, "auth_method");
    r->options = OptList(row, "options");
    r->error = OptString(row, "error");
  });
}

bool ReadServerIdentMappings(const json& rows, std::vector<ServerIdentMapping>* out, std::string* error) {
  return ParseRows(rows, out, error, [](const json& row, ServerIdentMapping* r) {
    r->map_number = OptInt(row, "map_number");
    r->map_name = OptString(row, "map_name");
    r->sys_name = OptString(row, "sys_name");
    r->pg_username = OptString(row, "pg_username");
    r->error = OptString(row, "error");
  });
}

bool ParseServerHbaRules(const std::string& text, std::vector<ServerHbaRule>* out, std::string* error) {
  return ParseText<ServerHbaRule>(text, out, error, &ReadServerHbaRules);
}

bool ParseServerIdentMappings(const std::string& text, std::vector<ServerIdentMapping>* out, std::string* error) {
  return ParseText<ServerIdentMapping>(text, out, error, &ReadServerIdentMappings);
}

}  // namespace pgconflint
