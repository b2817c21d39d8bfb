// Findings over the parsed authentication files. The matching model is
// check_hba's: the first rule whose connection type, database, user and
// address match decides.
#include "core/hba/hba_checks.h"

#include <map>
#include <set>
#include <tuple>

#include "core/base/spelling.h"
#include "core/base/strings.h"

namespace pgconflint {
namespace {

// Rules beyond this many are not compared pairwise (quadratic); real files
// hold a few hundred at most. Token lists whose pairs exceed kMaxPairs (an
// @file of thousands of names) are not compared either: no finding.
constexpr size_t kMaxShadowRules = 3000;
constexpr size_t kMaxPairs = 100000;

// The kinds of connection a type matches: plain, SSL, GSSAPI-encrypted.
unsigned ConnSet(HbaConnType t) {
  constexpr unsigned kPlain = 1, kSsl = 2, kGss = 4;
  switch (t) {
    case HbaConnType::kLocal: return 8;
    case HbaConnType::kHost: return kPlain | kSsl | kGss;
    case HbaConnType::kHostSsl: return kSsl;
    case HbaConnType::kHostNoSsl: return kPlain | kGss;
    case HbaConnType::kHostGssEnc: return kGss;
    case HbaConnType::kHostNoGssEnc: return kPlain | kSsl;
  }
  return 0;
}

bool SameToken(const AuthToken& a, const AuthToken& b) { return a.text == b.text && a.quoted == b.quoted; }

bool IsSameRole(const AuthToken& t) { return t.IsKeyword("samerole") || t.IsKeyword("samegroup"); }

// Does database token `a` match every database `b` matches?
bool DatabaseCovers(const AuthToken& a, const AuthToken& b) {
  if (b.IsKeyword("replication")) return a.IsKeyword("replication");  // `all` does not match physical replication
  if (a.IsKeyword("all")) return true;
  if (IsSameRole(a) && IsSameRole(b)) return true;
  return SameToken(a, b);
}

bool RoleCovers(const AuthToken& a, const AuthToken& b) { return a.IsKeyword("all") || SameToken(a, b); }

template <typename Pred>
bool ListCovers(const std::vector<AuthToken>& a, const std::vector<AuthToken>& b, Pred covers) {
  if (a.size() * b.size() > kMaxPairs) return false;
  for (const AuthToken& y : b) {
    bool any = false;
    for (const AuthToken& x : a) any = any || covers(x, y);
    if (!any) return false;
  }
  return true;
}

bool IsLiteral(const AuthToken& t) {
  if (t.IsRegex() || (!t.quoted && !t.text.empty() && t.text[0] == '+')) return false;
  for (const char* k : {"all", "sameuser", "samerole", "samegroup", "replication"})
    if (t.IsKeyword(k)) return false;
  return true;
}

// Some database certainly matches both tokens.
bool DatabasesMeet(const AuthToken& a, const AuthToken& b) {
  if (a.IsKeyword("all")) return !b.IsKeyword("replication");
  if (b.IsKeyword("all")) return !a.IsKeyword("replication");
  return SameToken(a, b);
}

bool RolesMeet(const AuthToken& a, const AuthToken& b) {
  return a.IsKeyword("all") || b.IsKeyword("all") || SameToken(a, b) || (IsLiteral(a) && IsLiteral(b) && a.text == b.text);
}

template <typename Pred>
bool ListsMeet(const std::vector<AuthToken>& a, const std::vector<AuthToken>& b, Pred meet) {
  if (a.size() * b.size() > kMaxPairs) return false;
  for (const AuthToken& x : a)
    for (const AuthToken& y : b)
      if (meet(x, y)) return true;
  return false;
}

bool AddressCovers(const HbaRule& a, const HbaRule& b) {
  if (a.address_kind == HbaAddressKind::kAll) return true;
  if (a.address_kind != b.address_kind) return false;
  switch (a.address_kind) {
    case HbaAddressKind::kIp: return NetworkContains(a.addr, a.mask, b.addr, b.mask);
    case HbaAddressKind::kHostName: return AsciiLower(a.hostname) == AsciiLower(b.hostname);
    default: return true;  // samehost, samenet: the same keyword
  }
}

bool AddressesMeet(const HbaRule& a, const HbaRule& b) {
  if (a.address_kind == HbaAddressKind::kAll || b.address_kind == HbaAddressKind::kAll) return true;
  if (a.address_kind != b.address_kind) return false;
  if (a.address_kind == HbaAddressKind::kIp) return NetworksOverlap(a.addr, a.mask, b.addr, b.mask);
  return AddressCovers(a, b);
}

}  // namespace

bool HbaRuleCovers(const HbaRule& earlier, const HbaRule& later) {
  if ((ConnSet(later.type) & ~ConnSet(earlier.type)) != 0) return false;
  if (!ListCovers(earlier.databases, later.databases, DatabaseCovers)) return false;
  if (!ListCovers(earlier.roles, later.roles, RoleCovers)) return false;
  return later.type == HbaConnType::kLocal || AddressCovers(earlier, later);
}

bool HbaRulesOverlap(const HbaRule& a, const HbaRule& b) {
  if ((ConnSet(a.type) & ConnSet(b.type)) == 0) return false;
  if (!ListsMeet(a.databases, b.databases, DatabasesMeet)) return false;
  if (!ListsMeet(a.roles, b.roles, RolesMeet)) return false;
  return a.type == HbaConnType::kLocal || AddressesMeet(a, b);
}

namespace {

class AuthChecker {
 public:
  AuthChecker(const AuthConfig& c, const AuthFacts& f, Analysis* a) : c_(c), f_(f), a_(a) {}

  void Run() {
    Refusals();
    for (size_t i = 0; i < c_.hba.size(); ++i) {
      const HbaRule& r = c_.hba[i];
      if (!r.outcome.parsed) continue;
      Transport(r);
      Methods(r);
      HostBits(r);
    }
    Shadowing();
    Maps();
  }

 private:
  const AuthLine& LineOf(const HbaRule& r) const { return c_.hba_lines[r.line_index]; }
  Location RuleWhere(const HbaRule& r) const {
    const AuthLine& l = LineOf(r);
    return {l.file, l.range};
  }

  // A file included twice (or an @file's lines expanded twice) is checked
  // twice: one finding per rule, place and message. A repeat goes to a
  // scratch diagnostic the caller may still adjust.
  Diagnostic& Add(RuleId id, Location where, std::string message, std::string help) {
    if (!seen_.insert({static_cast<int>(id), where.file, where.range.begin, where.range.end, message}).second) {
      scratch_ = MakeDiagnostic(Rule(id), where, std::move(message), std::move(help));
      return scratch_;
    }
    return a_->Add(MakeDiagnostic(Rule(id), where, std::move(message), std::move(help)));
  }

  static std::string RefusalHelp(const std::string& m) {
    if (m.find("invalid value for clientcert") != std::string::npos)
      return "clientcert=1 and clientcert=0 were removed in PostgreSQL 14: write clientcert=verify-ca or "
             "clientcert=verify-full, or leave it out";
    if (m.find("invalid IP mask") != std::string::npos)
      return "an address without /bits takes the next field as its netmask: write 10.0.0.1/32 (or add the mask)";
    if (m.find("invalid authentication method") != std::string::npos && m.find("build") == std::string::npos)
      return "methods are trust, reject, scram-sha-256, md5, password, peer, ident, gss, sspi, pam, bsd, ldap, "
             "radius, cert (and oauth in 18), in lower case; a local line has no address field";
    if (m.find("not supported by this build") != std::string::npos)
      return "this build lacks the method; use another one, or a build with it";
    return "PostgreSQL refuses the whole file for this line: at start it does not start, on reload it keeps the "
           "previous rules (SELECT * FROM pg_hba_file_rules WHERE error IS NOT NULL shows the same)";
  }

  // A refusal is placed where the server reports it: the record's first
  // line (pg_hba_file_rules.line_number), even when the record continues
  // (a line ending in \) and the bad token is on a later line; a note then
  // points at the token.
  Diagnostic& AddRefusal(RuleId id, const AuthLine& line, Range token, std::string message, std::string help) {
    std::string_view text = a_->files[line.file].source.text();
    bool later = token.begin > line.range.begin && token.begin <= text.size() &&
                 text.substr(line.range.begin, token.begin - line.range.begin).find('\n') != std::string_view::npos;
    if (!later || line.fields.empty() || line.fields[0].tokens.empty())
      return Add(id, {line.file, token}, std::move(message), std::move(help));
    Diagnostic& d = Add(id, {line.file, line.fields[0].tokens[0].range}, std::move(message), std::move(help));
    d.notes.push_back({{line.file, token}, "the record continues here, where the server finds the problem (it "
                                           "reports the record's first line)"});
    return d;
  }

  void Refusals() {
    bool any_rule = false, any_error = false;
    for (const HbaRule& r : c_.hba) {
      any_rule = true;
      if (r.outcome.parsed) continue;
      any_error = true;
      Diagnostic& d = AddRefusal(RuleId::kHbaLineRefused, LineOf(r), r.outcome.where, r.outcome.message,
                                 RefusalHelp(r.outcome.message));
      if (r.outcome.host_dependent) {
        d.Set(Outcome::kAdvisory, Severity::kWarning);
        d.message += " (if the server's host cannot resolve it)";
      }
    }
    if (c_.hba_file >= 0 && !any_rule && !any_error)
      Add(RuleId::kHbaNoRules, {c_.hba_file, {0, 0}},
          "configuration file " + DoubleQuoted(a_->files[c_.hba_file].source.path()) + " contains no entries",
          "the server refuses a pg_hba.conf without rules; add at least one");
    for (const IdentMap& m : c_.ident) {
      if (m.outcome.parsed) continue;
      AddRefusal(RuleId::kIdentLineRefused, c_.ident_lines[m.line_index], m.outcome.where, m.outcome.message,
          "the server ignores the whole pg_ident.conf for this line: every login through a map= rule fails until "
          "it is fixed (pg_ident_file_mappings shows the error)");
    }
  }

  void Transport(const HbaRule& r) {
    const AuthToken& type = LineOf(r).fields[0].tokens[0];
    Location at{LineOf(r).file, type.range};
    if (r.type == HbaConnType::kHostSsl && f_.ssl == false) {
      Diagnostic& d = Add(RuleId::kHbaHostsslWithoutSsl, at,
                          "hostssl record cannot match because SSL is disabled (ssl = off in postgresql.conf)",
                          "turn ssl on (with a certificate and key), or write host");
      if (f_.ssl_setting) d.notes.push_back({{f_.ssl_setting->file, f_.ssl_setting->value_range}, "ssl is off here"});
    }
    if (r.type == HbaConnType::kHostGssEnc && f_.gssapi == false)
      Add(RuleId::kHbaHostgssencWithoutGssapi, at,
          "hostgssenc record cannot match because GSSAPI is not supported by this build (profile: gssapi = no)",
          "use hostssl, or a build with GSSAPI");
  }

  void Methods(const HbaRule& r) {
    Location at{LineOf(r).file, r.method_range};
    bool network = r.type != HbaConnType::kLocal;
    if (r.method == "trust") {
      bool everyone = HasKeyword(r.databases, "all") && HasKeyword(r.roles, "all");
      std::string range = Broadness(r);
      if (network || everyone)
        Add(RuleId::kHbaTrust, at,
            network ? "trust lets " + range + " in as any role they name, without a password"
                    : "trust on a local line for all databases and all users: every account on this machine can "
                      "connect as any role, the superuser included",
            network ? "use scram-sha-256 (or cert on hostssl)" : "use peer (each account as its own role)");
    }
    if (r.method == "password" && (r.type == HbaConnType::kHost || r.type == HbaConnType::kHostNoSsl))
      Add(RuleId::kHbaCleartextPassword, at,
          "password sends the password in clear text, and this " + std::string(HbaConnTypeName(r.type)) +
              " line accepts connections without SSL",
          "use scram-sha-256, or hostssl");
    if (r.method == "md5") {
      bool deprecated = c_.options.major >= 18;
      bool scram = f_.password_encryption == "scram-sha-256";
      if (!deprecated && !scram) return;
      std::string m = scram ? "md5 while password_encryption is scram-sha-256: roles whose passwords are stored "
                              "as SCRAM authenticate with SCRAM anyway, and the line still accepts old MD5 hashes"
                            : "md5 authentication";
      if (deprecated) m += "; MD5 passwords are deprecated in PostgreSQL 18";
      Diagnostic& d = Add(RuleId::kHbaMd5Method, at, m, "write scram-sha-256");
      d.fixes.push_back(MakeFix("use scram-sha-256", FixSafety::kUnsafe, at, "scram-sha-256"));
    }
  }

  static bool HasKeyword(const std::vector<AuthToken>& tokens, const char* k) {
    for (const AuthToken& t : tokens)
      if (t.IsKeyword(k)) return true;
    return false;
  }

  static std::string Broadness(const HbaRule& r) {
    switch (r.address_kind) {
      case HbaAddressKind::kAll: return "every client address";
      case HbaAddressKind::kSameHost: return "every address of this server";
      case HbaAddressKind::kSameNet: return "every address on this server's subnets";
      case HbaAddressKind::kHostName: return "clients named " + r.hostname;
      case HbaAddressKind::kIp:
        if (r.prefix == 0) return "every " + std::string(r.addr.family == 4 ? "IPv4" : "IPv6") + " address";
        if (r.prefix == r.addr.bit_count()) return "the client " + FormatAddress(r.addr);
        return "the network " + FormatAddress(r.addr) + "/" + std::to_string(r.prefix);
      case HbaAddressKind::kNone: break;
    }
    return "clients";
  }

  void HostBits(const HbaRule& r) {
    if (r.address_kind != HbaAddressKind::kIp || r.prefix < 0) return;
    bool extra = false;
    for (int i = 0; i < r.addr.bit_count() / 8; ++i) extra = extra || (r.addr.bytes[i] & ~r.mask.bytes[i]);
    if (!extra) return;
    IpAddress net = r.addr;
    for (int i = 0; i < 16; ++i) net.bytes[i] &= r.mask.bytes[i];
    Add(RuleId::kHbaAddressHostBits, {LineOf(r).file, r.address_range},
        FormatAddress(r.addr) + " has bits outside its /" + std::to_string(r.prefix) +
            " mask: the rule matches all of " + FormatAddress(net) + "/" + std::to_string(r.prefix),
        "write " + FormatAddress(net) + "/" + std::to_string(r.prefix) + " for the network, or /" +
            std::to_string(r.addr.bit_count()) + " for the one host");
  }

  void Shadowing() {
    std::vector<const HbaRule*> rules;
    for (const HbaRule& r : c_.hba)
      if (r.outcome.parsed) rules.push_back(&r);
    if (rules.size() > kMaxShadowRules) return;
    for (size_t j = 0; j < rules.size(); ++j) {
      const HbaRule& later = *rules[j];
      const HbaRule* cover = nullptr;
      const HbaRule* meet = nullptr;
      for (size_t i = 0; i < j && !cover; ++i) {
        if (HbaRuleCovers(*rules[i], later)) cover = rules[i];
        else if (!meet && rules[i]->method != "reject" && HbaRulesOverlap(*rules[i], later)) meet = rules[i];
      }
      if (cover) {
        Diagnostic& d = Add(RuleId::kHbaRuleShadowed, RuleWhere(later),
                            std::string("this rule can never match: an earlier rule matches every connection it "
                                        "would, first") +
                                (later.method == "reject" ? " (so this reject blocks nothing)" : ""),
                            "move it above that rule, or remove it");
        d.notes.push_back({RuleWhere(*cover), "this rule matches first"});
        d.tags |= kTagUnnecessary;
      } else if (meet && later.method == "reject") {
        Diagnostic& d = Add(RuleId::kHbaRejectAfterAllow, RuleWhere(later),
                            "this reject comes after a rule that already admits some of the connections it should "
                            "block",
                            "move the reject rule above the rules that admit the same connections");
        d.notes.push_back({RuleWhere(*meet), "admits them first (" + meet->method + ")"});
      }
    }
  }

  void Maps() {
    std::set<std::string> used, defined;
    for (const HbaRule& r : c_.hba)
      if (r.outcome.parsed && !r.usermap.empty()) used.insert(r.usermap);
    for (const IdentMap& m : c_.ident)
      if (m.outcome.parsed) defined.insert(m.map.text);
    if (c_.ident_file >= 0) {
      for (const HbaRule& r : c_.hba) {
        if (!r.outcome.parsed || r.usermap.empty() || defined.count(r.usermap)) continue;
        Range at = LineOf(r).range;
        for (const HbaOption& o : r.options)
          if (o.name == "map") at = o.range;
        Suggester s(r.usermap);
        for (const std::string& d : defined) s.Consider(d);
        Add(RuleId::kHbaMapUndefined, {LineOf(r).file, at},
            "map=" + r.usermap + " names no map of " + a_->files[c_.ident_file].source.path() +
                ": every login through this rule fails (no match in usermap)",
            s.best().empty() ? "define the map in pg_ident.conf" : "did you mean map=" + s.best() + "?");
      }
    }
    if (c_.hba_file < 0) return;
    std::set<std::string> reported;
    for (const IdentMap& m : c_.ident) {
      if (!m.outcome.parsed || used.count(m.map.text) || !reported.insert(m.map.text).second) continue;
      Add(RuleId::kIdentMapUnused, {c_.ident_lines[m.line_index].file, m.map.range},
          "map " + DoubleQuoted(m.map.text) + " is used by no rule of " + a_->files[c_.hba_file].source.path(),
          "add map=" + m.map.text + " to the rule that should use it, or remove the map");
    }
  }

  const AuthConfig& c_;
  const AuthFacts& f_;
  Analysis* a_;
  std::set<std::tuple<int, int, uint32_t, uint32_t, std::string>> seen_;
  Diagnostic scratch_;
};

}  // namespace

void CheckAuthConfig(const AuthConfig& auth, const AuthFacts& facts, Analysis* a) { AuthChecker(auth, facts, a).Run(); }

}  // namespace pgconflint
