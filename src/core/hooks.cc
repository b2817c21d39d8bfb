// Check hooks, keyed by lower-cased parameter name. See hooks.h.
#include "core/hooks.h"

#include <clocale>
#include <cstring>
#include <dirent.h>
#include <locale.h>
#include <strings.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include <algorithm>
#include <functional>
#include <string_view>
#include <unordered_map>

namespace pgconflint {
namespace {

using Hook = void (*)(const Catalog&, const Parameter&, const std::string&, ParsedValue*);

void Refuse(const Parameter& param, const std::string& text, const std::string& detail,
            ParsedValue* out) {
  out->problem = ValueProblem::kInvalid;
  out->message = "invalid value for parameter \"" + std::string(param.name) + "\": \"" + text + "\"";
  out->hint = detail;
  out->normalized.clear();
}

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

bool EqualsIgnoreCase(std::string_view a, const char* b) {
  return a.size() == strlen(b) && strncasecmp(a.data(), b, a.size()) == 0;
}

// io_max_concurrency: -1 means "automatic"; 0 is refused.
void IoMaxConcurrency(const Catalog&, const Parameter& p, const std::string& t, ParsedValue* out) {
  if (out->number == 0) Refuse(p, t, "Only -1 or values bigger than 0 are valid.", out);
}

// vacuum_buffer_usage_limit: 0 (no ring) or between 128kB and 16GB.
void VacuumBufferUsageLimit(const Catalog&, const Parameter& p, const std::string& t,
                            ParsedValue* out) {
  if (out->number == 0 || (out->number >= 128 && out->number <= p.max)) return;
  Refuse(p, t, "\"vacuum_buffer_usage_limit\" must be 0 or between 128 kB and " + std::string(p.max_val) + " kB.", out);
}

// SLRU buffer counts (17+) come in banks of 16 buffers.
void SlruBuffers(const Catalog&, const Parameter& p, const std::string& t, ParsedValue* out) {
  if (static_cast<long long>(out->number) % 16 == 0) return;
  Refuse(p, t, "\"" + std::string(p.name) + "\" must be a multiple of 16.", out);
}

// wal_buffers: explicit values below 4 are raised to 4; -1 means automatic.
void WalBuffers(const Catalog&, const Parameter&, const std::string&, ParsedValue* out) {
  if (out->number != -1 && out->number < 4) {
    out->adjusted = true;
    out->adjustment = "raised to the minimum of 4 buffers";
    out->number = 4;
    out->normalized = "4";
  }
}

// autovacuum_work_mem: 0..63 kB are raised to 64 kB; -1 means maintenance_work_mem.
void AutovacuumWorkMem(const Catalog&, const Parameter&, const std::string&, ParsedValue* out) {
  if (out->number != -1 && out->number < 64) {
    out->adjusted = true;
    out->adjustment = "raised to the minimum of 64kB";
    out->number = 64;
    out->normalized = "64";
  }
}

// PG18 log_connections: a list of aspects, or one complete boolean word.
void LogConnections(const Catalog& c, const Parameter& p, const std::string& t, ParsedValue* out) {
  if (c.major() < 18 || p.type != VarType::kString) return;
  std::vector<std::string> items;
  if (!SplitIdentifierList(t, ',', &items)) {
    Refuse(p, t, "List syntax is invalid.", out);
    return;
  }
  static const char* const kBoolWords[] = {"on", "off", "true", "false", "yes", "no", "1", "0"};
  static const char* const kAspects[] = {"receipt", "authentication", "authorization",
                                         "setup_durations", "all"};
  if (items.size() == 1)
    for (const char* w : kBoolWords)
      if (EqualsIgnoreCase(items[0], w)) return;
  for (const std::string& item : items) {
    bool known = false;
    for (const char* a : kAspects) known |= EqualsIgnoreCase(item, a);
    if (!known) {
      Refuse(p, t, "Invalid option \"" + item + "\".", out);
      return;
    }
  }
}

// check_datestyle: output style and field order, canonical "ISO, MDY".
void DateStyle(const Catalog&, const Parameter& p, const std::string& t, ParsedValue* out) {
  std::vector<std::string> items;
  if (!SplitIdentifierList(t, ',', &items)) {
    Refuse(p, t, "List syntax is invalid.", out);
    return;
  }
  std::string style, order;
  bool style_set = false, order_set = false;
  const std::string boot = p.boot_val;  // "ISO, MDY"
  std::string boot_style = boot.substr(0, boot.find(','));
  std::string boot_order = boot.find(", ") != std::string::npos ? boot.substr(boot.find(", ") + 2) : "MDY";
  for (const std::string& tok : items) {
    std::string new_style, new_order;
    if (EqualsIgnoreCase(tok, "ISO")) new_style = "ISO";
    else if (EqualsIgnoreCase(tok, "SQL")) new_style = "SQL";
    else if (strncasecmp(tok.c_str(), "POSTGRES", 8) == 0) new_style = "Postgres";
    else if (EqualsIgnoreCase(tok, "GERMAN")) {
      new_style = "German";
      if (!order_set) order = "DMY";  // German implies DMY unless an order was given
    } else if (EqualsIgnoreCase(tok, "YMD")) new_order = "YMD";
    else if (EqualsIgnoreCase(tok, "DMY") || strncasecmp(tok.c_str(), "EURO", 4) == 0) new_order = "DMY";
    else if (EqualsIgnoreCase(tok, "MDY") || EqualsIgnoreCase(tok, "US") ||
             strncasecmp(tok.c_str(), "NONEURO", 7) == 0) new_order = "MDY";
    else if (EqualsIgnoreCase(tok, "DEFAULT")) {
      new_style = boot_style;
      new_order = boot_order;
    } else {
      Refuse(p, t, "Unrecognized key word: \"" + tok + "\".", out);
      return;
    }
    if (!new_style.empty()) {
      if (style_set && style != new_style) {
        Refuse(p, t, "Conflicting \"datestyle\" specifications.", out);
        return;
      }
      style = new_style;
      style_set = true;
    }
    if (!new_order.empty()) {
      if (order_set && order != new_order) {
        Refuse(p, t, "Conflicting \"datestyle\" specifications.", out);
        return;
      }
      order = new_order;
      order_set = true;
    }
  }
  if (!style_set) style = boot_style;
  if (order.empty()) order = boot_order;
  out->normalized = style + ", " + order;
}

// Lists of keywords (log_destination, restrict_nonsystem_relation_kind, ...).
template <const char* const* kWords, size_t kCount>
void KeywordList(const Catalog&, const Parameter& p, const std::string& t, ParsedValue* out) {
  std::vector<std::string> items;
  if (!SplitIdentifierList(t, ',', &items)) {
    Refuse(p, t, "List syntax is invalid.", out);
    return;
  }
  for (const std::string& item : items) {
    bool known = false;
    for (size_t i = 0; i < kCount; ++i) known |= EqualsIgnoreCase(item, kWords[i]);
    if (!known) {
      Refuse(p, t, "Unrecognized key word: \"" + item + "\".", out);
      return;
    }
  }
}

void IdentifierListSyntax(const Catalog&, const Parameter& p, const std::string& t, ParsedValue* out) {
  std::vector<std::string> items;
  if (!SplitIdentifierList(t, ',', &items)) Refuse(p, t, "List syntax is invalid.", out);
}

// lc_messages, lc_monetary, lc_numeric, lc_time: the host must have the locale.
void Locale(const Catalog&, const Parameter& p, const std::string& t, ParsedValue* out) {
  out->host_dependent = true;
  if (t.empty()) return;
  int mask = LC_ALL_MASK;
  std::string_view n = p.name;
  if (n == "lc_messages") mask = LC_MESSAGES_MASK;
  else if (n == "lc_monetary") mask = LC_MONETARY_MASK;
  else if (n == "lc_numeric") mask = LC_NUMERIC_MASK;
  else if (n == "lc_time") mask = LC_TIME_MASK;
  locale_t loc = newlocale(mask, t.c_str(), static_cast<locale_t>(0));
  if (loc) {
    freelocale(loc);
    return;
  }
  out->problem = ValueProblem::kInvalid;
  out->message = "invalid value for parameter \"" + std::string(p.name) + "\": \"" + t + "\"";
  out->hint = "This host has no locale \"" + t + "\" (see `locale -a`); the server checks it on its own host.";
  out->normalized.clear();
}

// A time zone name exists in the host's tz database (case-insensitive, as the
// server's lookup), or the value is a numeric offset or a POSIX TZ string.
bool TimeZoneFileExists(const std::string& name) {
  std::string dir = "/usr/share/zoneinfo";
  size_t start = 0;
  while (start <= name.size()) {
    size_t slash = name.find('/', start);
    std::string part = name.substr(start, slash == std::string::npos ? std::string::npos : slash - start);
    if (part.empty() || part == "." || part == "..") return false;
    DIR* d = opendir(dir.c_str());
    if (!d) return false;
    std::string found;
    while (dirent* e = readdir(d))
      if (strcasecmp(e->d_name, part.c_str()) == 0) found = e->d_name;
    closedir(d);
    if (found.empty()) return false;
    dir += "/" + found;
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
  struct stat st;
  return stat(dir.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

bool IsPosixTz(const std::string& s) {
  size_t i = 0;
  auto name = [&]() {
    if (i < s.size() && s[i] == '<') {
      size_t e = s.find('>', i);
      if (e == std::string::npos) return false;
      i = e + 1;
      return true;
    }
    size_t b = i;
    while (i < s.size() && isalpha(static_cast<unsigned char>(s[i]))) ++i;
    return i - b >= 3;
  };
  auto offset = [&]() {
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    size_t b = i;
    while (i < s.size() && (isdigit(static_cast<unsigned char>(s[i])) || s[i] == ':')) ++i;
    return i > b;
  };
  if (!name() || !offset()) return false;
  if (i == s.size()) return true;
  if (!name()) return false;
  if (i < s.size() && s[i] != ',') offset();
  return i == s.size() || s[i] == ',';
}

void TimeZone(const Catalog&, const Parameter& p, const std::string& t, ParsedValue* out) {
  out->host_dependent = true;
  char* end = nullptr;
  strtod(t.c_str(), &end);
  if (end != t.c_str() && *end == '\0') return;  // hours east of UTC
  if (strncasecmp(t.c_str(), "interval", 8) == 0) return;
  if (!t.empty() && t.size() <= 255 && (TimeZoneFileExists(t) || IsPosixTz(t))) return;
  Refuse(p, t, "Time zone \"" + t + "\" is not recognized.", out);
}

// max_stack_depth must leave 512kB of the stack rlimit free.
void MaxStackDepth(const Catalog&, const Parameter& p, const std::string& t, ParsedValue* out) {
  out->host_dependent = true;
  struct rlimit rl;
  if (getrlimit(RLIMIT_STACK, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY) return;
  long long limit_kb = static_cast<long long>(rl.rlim_cur) / 1024 - 512;
  if (out->number > limit_kb) {
    Refuse(p, t, "\"max_stack_depth\" must not exceed " + std::to_string(limit_kb) + "kB.", out);
    out->hint += " Increase the platform's stack depth limit via \"ulimit -s\" or local equivalent.";
  }
}

// Replication slot names: lower-case letters, digits and underscores.
void SlotName(const Catalog& c, const Parameter& p, const std::string& t, ParsedValue* out) {
  if (t.empty()) return;
  if (static_cast<int>(t.size()) > c.build().max_identifier_length) {
    Refuse(p, t, "Replication slot name \"" + t + "\" is too long.", out);
    return;
  }
  for (char ch : t)
    if (!((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_')) {
      Refuse(p, t, "Replication slot name \"" + t + "\" contains invalid character.", out);
      return;
    }
}

void RecoveryTarget(const Catalog&, const Parameter& p, const std::string& t, ParsedValue* out) {
  if (!t.empty() && t != "immediate")
    Refuse(p, t, "The only allowed value is \"immediate\".", out);
}

// Parameters whose value the server truncates to NAMEDATALEN-1 bytes.
void TruncateName(const Catalog& c, const Parameter&, const std::string& t, ParsedValue* out) {
  size_t max = static_cast<size_t>(c.build().max_identifier_length);
  if (t.size() > max) {
    out->normalized = t.substr(0, max);
    out->adjusted = true;
    out->adjustment = "truncated to " + std::to_string(max) + " bytes";
  }
}

const char* const kLogDestinations[] = {"stderr", "csvlog", "jsonlog", "syslog"};
const char* const kRelationKinds[] = {"view", "foreign-table"};
const char* const kSelfGrant[] = {"set", "inherit"};
const char* const kIoDirect[] = {"data", "wal", "wal_init"};

const std::unordered_map<std::string_view, Hook>& Hooks() {
  static const std::unordered_map<std::string_view, Hook> hooks = {
      {"io_max_concurrency", IoMaxConcurrency},
      {"vacuum_buffer_usage_limit", VacuumBufferUsageLimit},
      {"commit_timestamp_buffers", SlruBuffers},
      {"multixact_member_buffers", SlruBuffers},
      {"multixact_offset_buffers", SlruBuffers},
      {"notify_buffers", SlruBuffers},
      {"serializable_buffers", SlruBuffers},
      {"subtransaction_buffers", SlruBuffers},
      {"transaction_buffers", SlruBuffers},
      {"wal_buffers", WalBuffers},
      {"autovacuum_work_mem", AutovacuumWorkMem},
      {"log_connections", LogConnections},
      {"datestyle", DateStyle},
      {"log_destination", KeywordList<kLogDestinations, std::size(kLogDestinations)>},
      {"restrict_nonsystem_relation_kind", KeywordList<kRelationKinds, std::size(kRelationKinds)>},
      {"createrole_self_grant", KeywordList<kSelfGrant, std::size(kSelfGrant)>},
      {"debug_io_direct", KeywordList<kIoDirect, std::size(kIoDirect)>},
      {"search_path", IdentifierListSyntax},
      {"temp_tablespaces", IdentifierListSyntax},
      {"lc_messages", Locale},
      {"lc_monetary", Locale},
      {"lc_numeric", Locale},
      {"lc_time", Locale},
      {"timezone", TimeZone},
      {"log_timezone", TimeZone},
      {"max_stack_depth", MaxStackDepth},
      {"primary_slot_name", SlotName},
      {"recovery_target", RecoveryTarget},
      {"application_name", TruncateName},
      {"cluster_name", TruncateName},
      {"default_table_access_method", TruncateName},
      {"default_tablespace", TruncateName},
  };
  return hooks;
}

}  // namespace

bool SplitIdentifierList(const std::string& text, char separator, std::vector<std::string>* items) {
  items->clear();
  size_t i = 0, n = text.size();
  while (i < n && IsSpace(text[i])) ++i;
  if (i == n) return true;  // an empty list
  for (;;) {
    std::string name;
    if (text[i] == '"') {
      for (++i;; ++i) {
        if (i >= n) return false;  // unterminated quote
        if (text[i] == '"') {
          if (i + 1 < n && text[i + 1] == '"') {
            name += '"';
            ++i;
            continue;
          }
          ++i;
          break;
        }
        name += text[i];
      }
    } else {
      size_t b = i;
      while (i < n && text[i] != separator && !IsSpace(text[i])) ++i;
      if (i == b) return false;  // empty unquoted name
      for (size_t k = b; k < i; ++k) name += static_cast<char>(tolower(static_cast<unsigned char>(text[k])));
    }
    while (i < n && IsSpace(text[i])) ++i;
    items->push_back(std::move(name));
    if (i < n && text[i] == separator) {
      ++i;
      while (i < n && IsSpace(text[i])) ++i;
      if (i >= n) return false;  // separator without a following name
      continue;
    }
    return i == n;
  }
}

void ApplyCheckHook(const Catalog& catalog, const Parameter& param, const std::string& text,
                    ParsedValue* out) {
  const auto& hooks = Hooks();
  auto it = hooks.find(AsciiLower(param.name));
  if (it != hooks.end()) it->second(catalog, param, text, out);
}

}  // namespace pgconflint
