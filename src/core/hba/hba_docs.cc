// The vocabulary of the authentication files, and hover and completion over
// a parsed file. Option/method pairs follow hba_options.cc (the parser is
// what the differential suite holds to the servers).
#include "core/hba/hba_docs.h"

#include <set>

namespace pgconflint {
namespace {

using K = AuthWordKind;

constexpr AuthWord kWords[] = {
    {"local", K::kConnectionType, "Connections over the Unix-domain socket. The line has no address field."},
    {"host", K::kConnectionType, "TCP/IP connections, with or without SSL or GSSAPI encryption."},
    {"hostssl", K::kConnectionType, "TCP/IP connections that use SSL. Needs ssl = on, or the rule never matches."},
    {"hostnossl", K::kConnectionType, "TCP/IP connections that do not use SSL."},
    {"hostgssenc", K::kConnectionType, "TCP/IP connections encrypted with GSSAPI (builds with GSSAPI only)."},
    {"hostnogssenc", K::kConnectionType, "TCP/IP connections not encrypted with GSSAPI."},
    {"all", K::kDatabaseKeyword, "Every database, except that physical replication connections only match "
                                 "`replication`."},
    {"sameuser", K::kDatabaseKeyword, "The database whose name is the requested user's name."},
    {"samerole", K::kDatabaseKeyword, "A database named after a role the user is a member of."},
    {"samegroup", K::kDatabaseKeyword, "Old spelling of samerole."},
    {"replication", K::kDatabaseKeyword, "Physical replication connections (walsender); `all` does not match them."},
    {"all", K::kUserKeyword, "Every role. `+name` matches the members of role name; `/regex` (16+) a pattern."},
    {"all", K::kAddressKeyword, "Every client address."},
    {"samehost", K::kAddressKeyword, "Any of the server's own addresses."},
    {"samenet", K::kAddressKeyword, "Any address on a subnet the server is directly connected to."},
    {"trust", K::kMethod, "Lets the connection in as any role it names, without a password."},
    {"reject", K::kMethod, "Refuses the connection. Only blocks what no earlier rule matched."},
    {"scram-sha-256", K::kMethod, "Password authentication with a SCRAM-SHA-256 exchange: the password never "
                                  "crosses the network."},
    {"md5", K::kMethod, "Password authentication: SCRAM for roles stored as SCRAM, the MD5 challenge otherwise "
                        "(MD5 passwords are deprecated in 18)."},
    {"password", K::kMethod, "The password is sent in clear text: only safe over SSL."},
    {"peer", K::kMethod, "Local connections: the operating-system user name must be the role (or map to it)."},
    {"ident", K::kMethod, "TCP/IP: asks the client's ident server for its user name. On local lines it means peer."},
    {"gss", K::kMethod, "GSSAPI (Kerberos) authentication."},
    {"sspi", K::kMethod, "SSPI authentication (Windows servers only)."},
    {"pam", K::kMethod, "Authentication through PAM (builds with PAM only)."},
    {"bsd", K::kMethod, "BSD Authentication (OpenBSD builds only)."},
    {"ldap", K::kMethod, "Password checked against an LDAP server (simple bind or search+bind)."},
    {"radius", K::kMethod, "Password checked against RADIUS servers."},
    {"cert", K::kMethod, "SSL client certificate whose CN (or DN) is the role; hostssl only."},
    {"oauth", K::kMethod, "OAuth bearer tokens checked by a validator module.", 18},
    {"map", K::kOption, "The user map of pg_ident.conf that turns the authenticated system user into a role.", 14,
     "ident,peer,gss,sspi,cert,oauth"},
    {"clientcert", K::kOption, "verify-ca or verify-full: also require a valid client certificate (hostssl).", 14,
     ""},
    {"clientname", K::kOption, "CN or DN: which part of the certificate names the user (hostssl).", 14, ""},
    {"pamservice", K::kOption, "The PAM service name (default postgresql).", 14, "pam"},
    {"pam_use_hostname", K::kOption, "1: give PAM the client's host name instead of its address.", 14, "pam"},
    {"ldapurl", K::kOption, "All LDAP settings as one RFC 4516 URL.", 14, "ldap"},
    {"ldapserver", K::kOption, "LDAP server names or addresses, blank-separated.", 14, "ldap"},
    {"ldapport", K::kOption, "The LDAP server's port.", 14, "ldap"},
    {"ldapscheme", K::kOption, "ldaps for LDAP over TLS.", 14, "ldap"},
    {"ldaptls", K::kOption, "1: StartTLS before binding.", 14, "ldap"},
    {"ldapprefix", K::kOption, "Simple bind: text before the user name in the DN.", 14, "ldap"},
    {"ldapsuffix", K::kOption, "Simple bind: text after the user name in the DN.", 14, "ldap"},
    {"ldapbasedn", K::kOption, "Search+bind: where to search for the user.", 14, "ldap"},
    {"ldapbinddn", K::kOption, "Search+bind: the DN to bind as for the search.", 14, "ldap"},
    {"ldapbindpasswd", K::kOption, "Search+bind: the password for ldapbinddn.", 14, "ldap"},
    {"ldapsearchattribute", K::kOption, "Search+bind: the attribute holding the user name (default uid).", 14,
     "ldap"},
    {"ldapsearchfilter", K::kOption, "Search+bind: a filter with $username.", 14, "ldap"},
    {"krb_realm", K::kOption, "Only accept users of this Kerberos realm.", 14, "gss,sspi"},
    {"include_realm", K::kOption, "0: strip the realm from the principal before mapping (discouraged).", 14,
     "gss,sspi"},
    {"compat_realm", K::kOption, "SSPI: use the NetBIOS domain as realm.", 14, "sspi"},
    {"upn_username", K::kOption, "SSPI: use the user principal name.", 14, "sspi"},
    {"radiusservers", K::kOption, "RADIUS servers, comma-separated.", 14, "radius"},
    {"radiussecrets", K::kOption, "Shared secrets, one or one per server.", 14, "radius"},
    {"radiusports", K::kOption, "Ports, one or one per server.", 14, "radius"},
    {"radiusidentifiers", K::kOption, "NAS identifiers, one or one per server.", 14, "radius"},
    {"issuer", K::kOption, "The OAuth issuer's URL.", 18, "oauth"},
    {"scope", K::kOption, "The OAuth scopes the client must request.", 18, "oauth"},
    {"validator", K::kOption, "Which of oauth_validator_libraries checks the token.", 18, "oauth"},
    {"delegate_ident_mapping", K::kOption, "1: the validator maps users itself (no map=).", 18, "oauth"},
    {"include", K::kInclude, "include FILE: the lines of FILE in place (16+).", 16},
    {"include_if_exists", K::kInclude, "As include, and a missing file is skipped (16+).", 16},
    {"include_dir", K::kInclude, "The *.conf files of a directory in C order (16+).", 16},
};

const AuthWord* Find(const std::string& word, AuthWordKind kind) {
  for (const AuthWord& w : kWords)
    if (w.kind == kind && word == w.word) return &w;
  return nullptr;
}

bool MethodTakes(const AuthWord& option, const std::string& method) {
  std::string list = option.methods;
  if (list.empty()) return true;
  size_t at = 0;
  while (at <= list.size()) {
    size_t comma = list.find(',', at);
    if (list.substr(at, comma - at) == method) return true;
    if (comma == std::string::npos) break;
    at = comma + 1;
  }
  return false;
}

// The auth line of `file` that holds `offset`, with its rule (hba) if any.
struct Place {
  const AuthLine* line = nullptr;
  const HbaRule* rule = nullptr;
  bool ident = false;
};

Place LineAt(const AuthConfig& c, int file, uint32_t offset) {
  Place p;
  for (size_t i = 0; i < c.hba_lines.size(); ++i) {
    const AuthLine& l = c.hba_lines[i];
    if (l.file == file && offset >= l.range.begin && offset <= l.range.end) return {&l, &c.hba[i], false};
  }
  for (const AuthLine& l : c.ident_lines)
    if (l.file == file && offset >= l.range.begin && offset <= l.range.end) return {&l, nullptr, true};
  return p;
}

// The field index a position is in (or would start).
size_t FieldIndex(const AuthLine& l, uint32_t offset) {
  size_t i = 0;
  while (i < l.fields.size() && l.fields[i].range.end < offset) ++i;
  return i;
}

}  // namespace

std::span<const AuthWord> AuthVocabulary() { return kWords; }

std::string AuthFieldName(AuthFileKind kind, const HbaRule* rule, const AuthLine* line, size_t index) {
  if (kind == AuthFileKind::kIdent) {
    static const char* const kIdent[] = {"map name", "system user name (or /regex)", "database user name"};
    return index < 3 ? kIdent[index] : "extra field (ignored)";
  }
  static const char* const kLocal[] = {"connection type", "database", "user"};
  if (index < 3) return kLocal[index];
  if (!rule || rule->type == HbaConnType::kLocal) return index == 3 ? "authentication method" : "option";
  // A separate netmask is the field after the address, inside the rule's address range.
  bool mask = rule->address_kind == HbaAddressKind::kIp && line && line->fields.size() > 4 &&
              line->fields[4].range.begin < rule->address_range.end;
  size_t method = mask ? 5 : 4;
  if (index == 3) return "client address";
  if (mask && index == 4) return "netmask";
  return index == method ? "authentication method" : "option";
}

std::optional<AuthHover> DescribeAuthPosition(const Analysis& a, int file, uint32_t offset) {
  if (!a.auth) return std::nullopt;
  Place p = LineAt(*a.auth, file, offset);
  if (!p.line) return std::nullopt;
  size_t index = FieldIndex(*p.line, offset);
  if (index >= p.line->fields.size()) return std::nullopt;
  for (const AuthToken& t : p.line->fields[index].tokens) {
    if (offset < t.range.begin || offset >= t.range.end) continue;
    std::string field = AuthFieldName(p.ident ? AuthFileKind::kIdent : AuthFileKind::kHba, p.rule, p.line, index);
    std::string md = "**" + field + "**: `" + t.text + "`";
    const AuthWord* w = nullptr;
    if (!p.ident && !t.quoted) {
      if (field == "connection type") w = Find(t.text, K::kConnectionType);
      else if (field == "database") w = Find(t.text, K::kDatabaseKeyword);
      else if (field == "user") w = Find(t.text, K::kUserKeyword);
      else if (field == "client address") w = Find(t.text, K::kAddressKeyword);
      else if (field == "authentication method") w = Find(t.text, K::kMethod);
      else if (field == "option") w = Find(t.text.substr(0, t.text.find('=')), K::kOption);
    }
    if (w) md += "\n\n" + std::string(w->text);
    else if (t.IsRegex()) md += "\n\nA regular expression (the text after `/`).";
    else if (!t.quoted && !t.text.empty() && t.text[0] == '+') md += "\n\nThe members of role " + t.text.substr(1) + ".";
    if (t.from_file >= 0) md += "\n\nFrom " + a.files[t.from_file].source.path() + ".";
    if (p.rule && !p.rule->outcome.message.empty()) md += "\n\nThe server: " + p.rule->outcome.message;
    return AuthHover{t.range, md};
  }
  return std::nullopt;
}

std::vector<AuthCompletion> CompleteAuthPosition(const Analysis& a, int file, uint32_t offset, const AuthNames* names) {
  std::vector<AuthCompletion> out;
  if (!a.auth) return out;
  const int major = a.auth->options.major;
  auto words = [&](AuthWordKind kind) {
    for (const AuthWord& w : kWords)
      if (w.kind == kind && major >= w.since) out.push_back({w.word, w.text});
  };
  Place p = LineAt(*a.auth, file, offset);
  bool ident_file = file >= 0 && a.files[file].kind == FileKind::kIdent;
  auto roles = [&](bool groups) {
    if (!names) return;
    for (const AuthNames::Role& r : names->roles) {
      if (r.login) out.push_back({r.name, "a role of " + names->server + " that can log in"});
      else if (groups) out.push_back({"+" + r.name, "the members of the group role " + r.name + " on " + names->server});
    }
  };
  if (ident_file) {
    if (p.line && FieldIndex(*p.line, offset) == 2) roles(false);
    if (p.line && FieldIndex(*p.line, offset) > 0) return out;
    std::set<std::string> maps;
    for (const IdentMap& m : a.auth->ident)
      if (m.outcome.parsed && maps.insert(m.map.text).second) out.push_back({m.map.text, "a map of this file"});
    return out;
  }
  if (!p.line || FieldIndex(*p.line, offset) == 0) {
    words(K::kConnectionType);
    words(K::kInclude);
    return out;
  }
  size_t index = FieldIndex(*p.line, offset);
  std::string field = AuthFieldName(AuthFileKind::kHba, p.rule, p.line, index);
  if (field == "database") {
    words(K::kDatabaseKeyword);
    if (names)
      for (const std::string& d : names->databases) out.push_back({d, "a database of " + names->server});
  } else if (field == "user") {
    words(K::kUserKeyword);
    roles(true);
  } else if (field == "client address") {
    words(K::kAddressKeyword);
  } else if (field == "authentication method" || (p.rule && p.rule->method.empty() && index >= 3)) {
    words(K::kMethod);
  }
  if (field != "option" || !p.rule) return out;
  // map=: the maps pg_ident.conf defines.
  const AuthField& f = p.line->fields[std::min(index, p.line->fields.size() - 1)];
  for (const AuthToken& t : f.tokens)
    if (offset >= t.range.begin && offset <= t.range.end && t.text.rfind("map=", 0) == 0) {
      std::set<std::string> maps;
      for (const IdentMap& m : a.auth->ident)
        if (m.outcome.parsed && maps.insert(m.map.text).second)
          out.push_back({"map=" + m.map.text, "a map of pg_ident.conf"});
      return out;
    }
  for (const AuthWord& w : kWords)
    if (w.kind == K::kOption && major >= w.since && MethodTakes(w, p.rule->method))
      out.push_back({std::string(w.word) + "=", w.text});
  return out;
}

}  // namespace pgconflint
