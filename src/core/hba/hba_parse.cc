// parse_hba_line: one tokenized pg_hba.conf line into a rule, with the
// server's message for what it refuses (the options are in
// hba_options.cc). The order of the checks is the server's, because the
// first failing check decides the message.
#include "core/hba/hba_internal.h"
#include "core/hba/hba_regex.h"
#include "core/base/strings.h"

namespace pgconflint {
namespace {

struct ConnTypeName {
  const char* name;
  HbaConnType type;
};
constexpr ConnTypeName kConnTypes[] = {
    {"local", HbaConnType::kLocal},          {"host", HbaConnType::kHost},
    {"hostssl", HbaConnType::kHostSsl},      {"hostnossl", HbaConnType::kHostNoSsl},
    {"hostgssenc", HbaConnType::kHostGssEnc}, {"hostnogssenc", HbaConnType::kHostNoGssEnc},
};

// Authentication methods by their pg_hba.conf spelling; `since` is the first
// major that knows the name.
struct MethodName {
  const char* name;
  int since;
};
constexpr MethodName kMethods[] = {
    {"trust", 14}, {"ident", 14}, {"peer", 14},  {"password", 14}, {"gss", 14},    {"sspi", 14},
    {"reject", 14}, {"md5", 14},  {"scram-sha-256", 14}, {"pam", 14}, {"bsd", 14}, {"ldap", 14},
    {"cert", 14},  {"radius", 14}, {"oauth", 18},
};

}  // namespace

const char* HbaConnTypeName(HbaConnType type) {
  for (const ConnTypeName& c : kConnTypes)
    if (c.type == type) return c.name;
  return "";
}

bool HbaParser::Refuse(std::string message, Range where) {
  r_->outcome.parsed = false;
  r_->outcome.error = message;
  r_->outcome.message = std::move(message);
  r_->outcome.where = where;
  return false;
}

bool HbaParser::RefuseLogOnly(std::string message, Range where) {
  // The view shows the row without an error (or with an earlier one).
  r_->outcome.parsed = false;
  r_->outcome.message = std::move(message);
  r_->outcome.where = where;
  return false;
}

bool HbaParser::Regexes(const std::vector<AuthToken>& tokens) {
  if (o_.major < 16) return true;
  for (const AuthToken& t : tokens) {
    std::string reason;
    if (t.IsRegex() && !CheckAdvancedRegex(std::string_view(t.text).substr(1), &reason))
      return Refuse("invalid regular expression " + DoubleQuoted(t.text.substr(1)) + ": " + reason, t.range);
  }
  return true;
}

bool HbaParser::ConnType() {
  const AuthField& f = line_.fields[0];
  if (f.tokens.size() > 1) return Refuse("multiple values specified for connection type", f.range);
  const AuthToken& t = f.tokens[0];
  for (const ConnTypeName& c : kConnTypes) {
    if (t.text != c.name) continue;
    r_->type = c.type;
    if (c.type == HbaConnType::kHostSsl && o_.ssl == false) {
      r_->outcome.error = r_->outcome.message = "hostssl record cannot match because SSL is disabled";
      r_->outcome.where = t.range;
    }
    if (c.type == HbaConnType::kHostGssEnc && o_.gssapi == false) {
      r_->outcome.error = r_->outcome.message =
          "hostgssenc record cannot match because GSSAPI is not supported by this build";
      r_->outcome.where = t.range;
    }
    return true;
  }
  return Refuse("invalid connection type " + DoubleQuoted(t.text), t.range);
}

bool HbaParser::Address(size_t* field) {
  if (*field >= line_.fields.size()) return Refuse("end-of-line before IP address specification", line_.range);
  const AuthField& f = line_.fields[*field];
  r_->address_range = f.range;
  if (f.tokens.size() > 1) return Refuse("multiple values specified for host address", f.range);
  const AuthToken& t = f.tokens[0];
  if (t.IsKeyword("all")) r_->address_kind = HbaAddressKind::kAll;
  else if (t.IsKeyword("samehost")) r_->address_kind = HbaAddressKind::kSameHost;
  else if (t.IsKeyword("samenet")) r_->address_kind = HbaAddressKind::kSameNet;
  if (r_->address_kind != HbaAddressKind::kNone) return true;
  size_t slash = t.text.find('/');
  std::string str = t.text.substr(0, slash);
  NumericHost kind = ParseNumericHost(str, &r_->addr);
  r_->address_kind = kind == NumericHost::kAddress ? HbaAddressKind::kIp : HbaAddressKind::kHostName;
  if (kind == NumericHost::kHostDependent) r_->outcome.host_dependent = true;
  if (kind != NumericHost::kAddress) r_->hostname = str;
  if (slash != std::string::npos) {
    if (kind != NumericHost::kAddress)
      return Refuse("specifying both host name and CIDR mask is invalid: " + DoubleQuoted(t.text), t.range);
    if (!CidrMask(std::string_view(t.text).substr(slash + 1), r_->addr.family, &r_->mask, &r_->prefix))
      return Refuse("invalid CIDR mask in address " + DoubleQuoted(t.text), t.range);
    return true;
  }
  if (kind != NumericHost::kAddress) return true;
  // A separate netmask field.
  if (++*field >= line_.fields.size())
    return Refuse("end-of-line before netmask specification", line_.range);
  const AuthField& m = line_.fields[*field];
  r_->address_range.end = m.range.end;
  if (m.tokens.size() > 1) return Refuse("multiple values specified for netmask", m.range);
  NumericHost mk = ParseNumericHost(m.tokens[0].text, &r_->mask);
  if (mk == NumericHost::kHostDependent) r_->outcome.host_dependent = true;
  if (mk != NumericHost::kAddress)
    return Refuse("invalid IP mask " + DoubleQuoted(m.tokens[0].text) + ": Name or service not known", m.range);
  if (r_->mask.family != r_->addr.family) return Refuse("IP address and mask do not match", m.range);
  r_->prefix = PrefixLength(r_->mask);
  return true;
}

bool HbaParser::Method(size_t field) {
  if (field >= line_.fields.size()) return Refuse("end-of-line before authentication method", line_.range);
  const AuthField& f = line_.fields[field];
  if (f.tokens.size() > 1) return Refuse("multiple values specified for authentication type", f.range);
  const AuthToken& t = f.tokens[0];
  r_->method_range = t.range;
  bool known = false;
  for (const MethodName& m : kMethods) known = known || (t.text == m.name && o_.major >= m.since);
  if (!known) return Refuse("invalid authentication method " + DoubleQuoted(t.text), t.range);
  if (!MethodBuilt(t.text))
    return Refuse("invalid authentication method " + DoubleQuoted(t.text) + ": not supported by this build", t.range);
  r_->method = t.text;
  // "For backwards compatibility", ident on local sockets is peer.
  if (r_->type == HbaConnType::kLocal && r_->method == "ident") r_->method = "peer";
  if (r_->type == HbaConnType::kLocal && r_->method == "gss")
    return Refuse("gssapi authentication is not supported on local sockets", t.range);
  if (r_->type != HbaConnType::kLocal && r_->method == "peer")
    return Refuse("peer authentication is only supported on local sockets", t.range);
  if (r_->type != HbaConnType::kHostSsl && r_->method == "cert")
    return Refuse("cert authentication is only supported on hostssl connections", t.range);
  return true;
}

bool HbaParser::MethodBuilt(const std::string& m) const {
  // Optional parts of a build. Unknown facts: assume the build has them
  // (another build of the same major does).
  if (m == "gss") return o_.gssapi != false;
  if (m == "sspi") return !o_.os || *o_.os == "windows";
  if ((m == "ldap" || m == "pam" || m == "bsd") && o_.build_features && !o_.build_features->count(m)) return false;
  if (m == "bsd") return !o_.os || *o_.os == "openbsd";
  return true;
}

bool HbaParser::Run() {
  r_->outcome.parsed = true;
  r_->outcome.where = line_.range;
  if (!ConnType()) return false;
  if (line_.fields.size() < 2) return Refuse("end-of-line before database specification", line_.range);
  r_->databases = line_.fields[1].tokens;
  if (!Regexes(r_->databases)) return false;
  if (line_.fields.size() < 3) return Refuse("end-of-line before role specification", line_.range);
  r_->roles = line_.fields[2].tokens;
  if (!Regexes(r_->roles)) return false;
  size_t field = 3;
  if (r_->type != HbaConnType::kLocal) {
    if (!Address(&field)) return false;
    ++field;
  }
  if (!Method(field)) return false;
  for (size_t i = field + 1; i < line_.fields.size(); ++i)
    for (const AuthToken& t : line_.fields[i].tokens) {
      size_t eq = t.text.find('=');
      if (eq == std::string::npos)
        return Refuse("authentication option not in name=value format: " + t.text, t.range);
      HbaOption opt{t.text.substr(0, eq), t.text.substr(eq + 1), t.range};
      if (!Option(opt)) return false;
      r_->options.push_back(std::move(opt));
    }
  return Mandatory();
}

HbaRule ParseHbaLine(const AuthLine& line, const AuthParseOptions& options) {
  HbaRule r;
  if (!line.error.empty()) {
    r.outcome.error = r.outcome.message = line.error;
    r.outcome.where = line.error_range;
    return r;
  }
  HbaParser(line, options, &r).Run();
  return r;
}

IdentMap ParseIdentLine(const AuthLine& line, const AuthParseOptions& options) {
  IdentMap m;
  AuthOutcome& o = m.outcome;
  o.where = line.range;
  auto refuse = [&](std::string message, Range where) {
    o.parsed = false;
    o.error = o.message = std::move(message);
    o.where = where;
    return m;
  };
  if (!line.error.empty()) return refuse(line.error, line.error_range);
  const AuthToken* fields[3] = {};
  for (size_t i = 0; i < 3; ++i) {
    if (i >= line.fields.size()) return refuse("missing entry at end of line", line.range);
    if (line.fields[i].tokens.size() > 1) return refuse("multiple values in ident field", line.fields[i].range);
    fields[i] = &line.fields[i].tokens[0];
  }
  m.map = *fields[0];
  m.system_user = *fields[1];
  m.pg_user = *fields[2];
  // The system user is a regular expression in every major; the database
  // user too from 16.
  for (const AuthToken* t : {&m.system_user, &m.pg_user}) {
    std::string reason;
    if (t == &m.pg_user && options.major < 16) continue;
    if (t->IsRegex() && !CheckAdvancedRegex(std::string_view(t->text).substr(1), &reason))
      return refuse("invalid regular expression " + DoubleQuoted(t->text.substr(1)) + ": " + reason, t->range);
  }
  o.parsed = true;
  return m;
}

bool AuthConfig::HbaLoads() const {
  if (hba_file < 0) return false;
  bool any = false;
  for (const HbaRule& r : hba) {
    if (!r.outcome.parsed) return false;
    any = true;
  }
  return any;
}

bool AuthConfig::IdentLoads() const {
  for (const IdentMap& m : ident)
    if (!m.outcome.parsed) return false;
  return ident_file >= 0;
}

std::vector<const HbaRule*> AuthConfig::LoadedRules() const {
  std::vector<const HbaRule*> out;
  if (!HbaLoads()) return out;
  for (const HbaRule& r : hba) out.push_back(&r);
  return out;
}

}  // namespace pgconflint
