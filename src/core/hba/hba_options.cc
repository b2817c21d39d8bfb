// parse_hba_auth_opt and the checks of mandatory options at the end of
// parse_hba_line: which option a method takes, the values the server
// refuses, and the combinations it refuses. Some refusals are only logged
// (pg_hba_file_rules then shows the row with no error text): those go
// through RefuseLogOnly.
#include <cstdlib>

#include "core/hba/hba_internal.h"
#include "core/base/strings.h"

namespace pgconflint {
namespace {

bool In(const std::string& s, std::initializer_list<const char*> set) {
  for (const char* x : set)
    if (s == x) return true;
  return false;
}

// C's atoi, as the server reads port numbers.
int Atoi(const std::string& s) {
  long v = strtol(s.c_str(), nullptr, 10);
  return v > 2147483647L ? 2147483647 : v < -2147483647L ? -2147483647 : static_cast<int>(v);
}

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

}  // namespace

bool SplitGucList(const std::string& text, char separator, std::vector<std::string>* items) {
  items->clear();
  size_t i = 0;
  while (i < text.size() && IsSpace(text[i])) ++i;
  if (i == text.size()) return true;  // an empty string is an empty list
  for (;;) {
    std::string item;
    if (text[i] == '"') {
      for (++i;; ++i) {
        if (i >= text.size()) return false;  // no closing quote
        if (text[i] == '"') {
          if (i + 1 < text.size() && text[i + 1] == '"') {
            item += '"';
            ++i;
            continue;
          }
          ++i;
          break;
        }
        item += text[i];
      }
    } else {
      size_t start = i;
      while (i < text.size() && text[i] != separator && !IsSpace(text[i])) ++i;
      if (i == start) return false;  // an empty unquoted item
      item = text.substr(start, i - start);
    }
    while (i < text.size() && IsSpace(text[i])) ++i;
    items->push_back(std::move(item));
    if (i == text.size()) return true;
    if (text[i] != separator) return false;
    ++i;
    while (i < text.size() && IsSpace(text[i])) ++i;
  }
}

bool HbaParser::OnlyFor(const HbaOption& opt, std::initializer_list<const char*> methods, const char* names) {
  if (In(r_->method, methods)) return true;
  return Refuse("authentication option " + DoubleQuoted(opt.name) + " is only valid for authentication methods " + names,
                opt.range);
}

bool HbaParser::Option(const HbaOption& opt) {
  const std::string& n = opt.name;
  const std::string& v = opt.value;
  const bool oauth = o_.major >= 18;
  set_.push_back(n);
  if (n == "map") {
    bool ok = oauth ? OnlyFor(opt, {"ident", "peer", "gss", "sspi", "cert", "oauth"},
                              "ident, peer, gssapi, sspi, cert, and oauth")
                    : OnlyFor(opt, {"ident", "peer", "gss", "sspi", "cert"}, "ident, peer, gssapi, sspi, and cert");
    if (ok) r_->usermap = v;
    return ok;
  }
  if (n == "clientcert" || n == "clientname") {
    if (r_->type != HbaConnType::kHostSsl) return Refuse(n + " can only be configured for \"hostssl\" rows", opt.range);
    if (n == "clientname") return v == "CN" || v == "DN" || RefuseLogOnly("invalid value for clientname: " + DoubleQuoted(v), opt.range);
    if (v == "verify-full") {
      r_->clientcert = v;
    } else if (v == "verify-ca" && r_->method == "cert") {
      Refuse("clientcert can only be set to \"verify-full\" when using \"cert\" authentication", opt.range);
      r_->outcome.message = "clientcert only accepts \"verify-full\" when using \"cert\" authentication";
      return false;
    } else if (v == "verify-ca") {
      r_->clientcert = v;
    } else {
      return RefuseLogOnly("invalid value for clientcert: " + DoubleQuoted(v), opt.range);
    }
    return true;
  }
  if (n == "pamservice" || n == "pam_use_hostname") return OnlyFor(opt, {"pam"}, "pam");
  if (In(n, {"ldapurl", "ldaptls", "ldapscheme", "ldapserver", "ldapport", "ldapbinddn", "ldapbindpasswd",
             "ldapsearchattribute", "ldapsearchfilter", "ldapbasedn", "ldapprefix", "ldapsuffix"})) {
    if (!OnlyFor(opt, {"ldap"}, "ldap")) return false;
    if (n == "ldapport" && Atoi(v) == 0) return Refuse("invalid LDAP port number: " + DoubleQuoted(v), opt.range);
    if (n == "ldapurl") {
      // An OpenLDAP URL ldap://host/basedn?attribute?scope?filter fills the
      // search options it has.
      size_t scheme = v.find("://");
      size_t slash = scheme == std::string::npos ? std::string::npos : v.find('/', scheme + 3);
      if (slash != std::string::npos && slash + 1 < v.size() && v[slash + 1] != '?') set_.push_back("ldapbasedn");
    }
    return true;
  }
  if (n == "krb_realm" || n == "include_realm") return OnlyFor(opt, {"gss", "sspi"}, "gssapi and sspi");
  if (n == "compat_realm" || n == "upn_username") return OnlyFor(opt, {"sspi"}, "sspi");
  if (In(n, {"radiusservers", "radiusports", "radiussecrets", "radiusidentifiers"})) {
    if (!OnlyFor(opt, {"radius"}, "radius")) return false;
    std::vector<std::string> items;
    bool ok = SplitGucList(v, ',', &items);
    if (n == "radiusservers") {
      if (!ok) return RefuseLogOnly("could not parse RADIUS server list " + DoubleQuoted(v), opt.range);
      for (const std::string& server : items) {
        IpAddress ip;
        // A name is looked up in DNS at every reload: only the server's host can tell.
        if (ParseNumericHost(server, &ip) != NumericHost::kAddress && server != "localhost")
          r_->outcome.host_dependent = true;
      }
      radius_servers_ = items;
      radius_servers_set_ = !items.empty();
    } else if (n == "radiusports") {
      if (!ok) {
        Refuse("invalid RADIUS port number: " + DoubleQuoted(v), opt.range);
        r_->outcome.message = "could not parse RADIUS port list " + DoubleQuoted(v);
        return false;
      }
      for (const std::string& port : items)
        if (Atoi(port) == 0) return RefuseLogOnly("invalid RADIUS port number: " + DoubleQuoted(v), opt.range);
      radius_ports_ = items;
    } else if (n == "radiussecrets") {
      if (!ok) return RefuseLogOnly("could not parse RADIUS secret list " + DoubleQuoted(v), opt.range);
      radius_secrets_ = items;
      radius_secrets_set_ = !items.empty();
    } else {
      if (!ok) return RefuseLogOnly("could not parse RADIUS identifiers list " + DoubleQuoted(v), opt.range);
      radius_identifiers_ = items;
    }
    return true;
  }
  if (oauth && In(n, {"issuer", "scope", "validator", "delegate_ident_mapping"})) return OnlyFor(opt, {"oauth"}, "oauth");
  return Refuse("unrecognized authentication option name: " + DoubleQuoted(n), opt.range);
}

bool HbaParser::Mandatory() {
  auto has = [&](const char* name) {
    for (const std::string& s : set_)
      if (s == name) return true;
    return false;
  };
  const std::string& m = r_->method;
  if (m == "ldap") {
    if (has("ldapprefix") || has("ldapsuffix")) {
      if (has("ldapbasedn") || has("ldapbinddn") || has("ldapbindpasswd") || has("ldapsearchattribute") ||
          has("ldapsearchfilter"))
        return Refuse("cannot mix options for simple bind and search+bind modes", line_.range);
    } else if (!has("ldapbasedn")) {
      return Refuse("authentication method \"ldap\" requires argument \"ldapbasedn\", \"ldapprefix\", or "
                    "\"ldapsuffix\" to be set",
                    line_.range);
    }
    if (has("ldapsearchattribute") && has("ldapsearchfilter"))
      return Refuse("cannot use ldapsearchattribute together with ldapsearchfilter", line_.range);
  }
  if (m == "radius" && !Radius()) return false;
  if (m == "cert") r_->clientcert = "verify-full";
  if (m == "oauth" && !OAuth()) return false;
  return true;
}

bool HbaParser::Radius() {
  const char* kRequires = "authentication method \"radius\" requires argument ";
  if (!radius_servers_set_) return Refuse(kRequires + DoubleQuoted("radiusservers") + " to be set", line_.range);
  if (!radius_secrets_set_) return Refuse(kRequires + DoubleQuoted("radiussecrets") + " to be set", line_.range);
  size_t servers = radius_servers_.size();
  auto count = [&](const std::vector<std::string>& list, const char* what, bool allow_zero) {
    if (list.size() == 1 || list.size() == servers || (allow_zero && list.empty())) return true;
    return Refuse(std::string("the number of RADIUS ") + what + " (" + std::to_string(list.size()) +
                      ") must be 1 or the same as the number of RADIUS servers (" + std::to_string(servers) + ")",
                  line_.range);
  };
  return count(radius_secrets_, "secrets", false) && count(radius_ports_, "ports", true) &&
         count(radius_identifiers_, "identifiers", true);
}

bool HbaParser::OAuth() {
  std::string validator;
  bool delegate = false;
  bool scope = false, issuer = false, has_validator = false, map = false;
  for (const HbaOption& opt : r_->options) {
    map = map || opt.name == "map";
    scope = scope || opt.name == "scope";
    issuer = issuer || opt.name == "issuer";
    if (opt.name == "validator") {
      has_validator = true;
      validator = opt.value;
    }
    if (opt.name == "delegate_ident_mapping") delegate = opt.value == "1";
  }
  const char* kRequires = "authentication method \"oauth\" requires argument ";
  if (!scope) return Refuse(kRequires + DoubleQuoted("scope") + " to be set", line_.range);
  if (!issuer) return Refuse(kRequires + DoubleQuoted("issuer") + " to be set", line_.range);
  if (o_.oauth_validator_libraries) {
    std::vector<std::string> libs;
    const std::string& text = *o_.oauth_validator_libraries;
    if (text.empty())
      return Refuse("oauth_validator_libraries must be set for authentication method oauth", line_.range);
    if (!SplitGucList(text, ',', &libs))
      return Refuse("invalid list syntax in parameter \"oauth_validator_libraries\"", line_.range);
    if (!has_validator && libs.size() != 1)
      return Refuse(std::string(kRequires) +
                        "\"validator\" to be set when oauth_validator_libraries contains multiple options",
                    line_.range);
    bool permitted = !has_validator;
    for (const std::string& l : libs) permitted = permitted || l == validator;
    if (!permitted)
      return Refuse("validator " + DoubleQuoted(validator) + " is not permitted by oauth_validator_libraries", line_.range);
  }
  if (delegate && map)
    return Refuse("map cannot be used in combination with delegate_ident_mapping", line_.range);
  return true;
}

}  // namespace pgconflint
