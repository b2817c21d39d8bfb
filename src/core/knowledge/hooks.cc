// Check hooks, keyed by lower-cased parameter name. See hooks.h.
#include "core/knowledge/hooks.h"

#include "core/knowledge/hooks_internal.h"
#include "core/knowledge/posix_tz.h"
#include "core/base/strings.h"

#include <cmath>
#include <cerrno>
#include <cstring>
#include <strings.h>

#include <algorithm>
#include <functional>
#include <string_view>
#include <unordered_map>

namespace pgconflint {
namespace hooks {

void Refuse(const Parameter& param, const std::string& text, const std::string& detail, ParsedValue* out) {
  out->problem = ValueProblem::kInvalid;
  out->message = "invalid value for parameter \"" + std::string(param.name) + "\": \"" + text + "\"";
  out->hint = detail;
  out->normalized.clear();
}

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

bool EqualsIgnoreCase(std::string_view a, const char* b) {
  return a.size() == strlen(b) && strncasecmp(a.data(), b, a.size()) == 0;
}

}  // namespace hooks

namespace {

using namespace hooks;  // the helpers and the hooks of hooks_replication.cc

// io_max_concurrency: -1 means "automatic"; 0 is refused.
void IoMaxConcurrency(const HookContext&, const Parameter& p, const std::string& t, ParsedValue* out) {
  if (out->number == 0) Refuse(p, t, "Only -1 or values bigger than 0 are valid.", out);
}

// vacuum_buffer_usage_limit: 0 (no ring) or between 128kB and 16GB.
void VacuumBufferUsageLimit(const HookContext&, const Parameter& p, const std::string& t,
                            ParsedValue* out) {
  if (out->number == 0 || (out->number >= 128 && out->number <= p.max)) return;
  Refuse(p, t, "\"vacuum_buffer_usage_limit\" must be 0 or between 128 kB and " + std::string(p.max_val) + " kB.", out);
}

// SLRU buffer counts (17+) come in banks of 16 buffers.
void SlruBuffers(const HookContext&, const Parameter& p, const std::string& t, ParsedValue* out) {
  if (static_cast<long long>(out->number) % 16 == 0) return;
  Refuse(p, t, "\"" + std::string(p.name) + "\" must be a multiple of 16.", out);
}

// wal_buffers: explicit values below 4 are raised to 4; -1 means automatic.
void WalBuffers(const HookContext&, const Parameter&, const std::string&, ParsedValue* out) {
  if (out->number != -1 && out->number < 4) {
    out->adjusted = true;
    out->adjustment = "raised to the minimum of 4 buffers";
    out->number = 4;
    out->normalized = "4";
  }
}

// autovacuum_work_mem: small values are raised to the minimum (64kB since 17,
// 1MB before); -1 means maintenance_work_mem.
void AutovacuumWorkMem(const HookContext& c, const Parameter&, const std::string&, ParsedValue* out) {
  const int minimum = c.major() >= 17 ? 64 : 1024;
  if (out->number != -1 && out->number < minimum) {
    out->adjusted = true;
    out->adjustment = std::string("raised to the minimum of ") + (minimum == 64 ? "64kB" : "1MB");
    out->number = minimum;
    out->normalized = std::to_string(minimum);
  }
}

// One of the keywords the server of this major accepts in the parameter's list
// (harvested: list_keywords), compared without regard to case as the server does.
bool IsListKeyword(const Parameter& p, std::string_view item) {
  for (const char* w : p.list_keywords)
    if (EqualsIgnoreCase(item, w)) return true;
  return false;
}

// PG18 log_connections: a list of aspects, or one of its keywords that are
// boolean words (those of the boolean parameter up to 17), alone.
void LogConnections(const HookContext&, const Parameter& p, const std::string& t, ParsedValue* out) {
  if (p.type != VarType::kString || p.list_keywords.empty()) return;
  std::vector<std::string> items;
  if (!SplitIdentifierList(t, ',', &items)) {
    Refuse(p, t, "List syntax is invalid.", out);
    return;
  }
  auto boolean_word = [&p](const std::string& item) {
    bool b;
    return IsListKeyword(p, item) && ParseBool(item, &b);
  };
  // As the server: only the first item is tried as a boolean word.
  if (!items.empty() && boolean_word(items[0])) {
    if (items.size() == 1) return;
    Refuse(p, t, "Cannot specify log_connections option \"" + items[0] + "\" in a list with other options.", out);
    return;
  }
  for (const std::string& item : items)
    if (!IsListKeyword(p, item) || boolean_word(item)) {
      Refuse(p, t, "Invalid option \"" + item + "\".", out);
      return;
    }
}

// check_datestyle: output style and field order, canonical "ISO, MDY".
void DateStyle(const HookContext&, const Parameter& p, const std::string& t, ParsedValue* out) {
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

// Lists of keywords (log_destination, restrict_nonsystem_relation_kind, ...):
// every item one of the parameter's keywords in this major.
void KeywordList(const HookContext&, const Parameter& p, const std::string& t, ParsedValue* out) {
  if (p.list_keywords.empty()) return;  // no harvested keywords: cannot judge
  std::vector<std::string> items;
  if (!SplitIdentifierList(t, ',', &items)) {
    Refuse(p, t, "List syntax is invalid.", out);
    return;
  }
  for (const std::string& item : items)
    if (!IsListKeyword(p, item)) {
      Refuse(p, t, "Unrecognized key word: \"" + item + "\".", out);
      return;
    }
}

void IdentifierListSyntax(const HookContext&, const Parameter& p, const std::string& t, ParsedValue* out) {
  std::vector<std::string> items;
  if (!SplitIdentifierList(t, ',', &items)) Refuse(p, t, "List syntax is invalid.", out);
}

// wal_consistency_checking: the list syntax; then, where a file is checked
// (14: the harvest found its resource managers), every item one of them.
void ResourceManagerList(const HookContext& c, const Parameter& p, const std::string& t, ParsedValue* out) {
  IdentifierListSyntax(c, p, t, out);
  if (out->ok()) KeywordList(c, p, t, out);
}

// lc_messages, lc_monetary, lc_numeric, lc_time: the server's host must have
// the locale.
void Locale(const HookContext& c, const Parameter& p, const std::string& t, ParsedValue* out) {
  if (t.empty()) return;
  LocaleCategory category = LocaleCategory::kMessages;
  std::string_view n = p.name;
  if (n == "lc_monetary") category = LocaleCategory::kMonetary;
  else if (n == "lc_numeric") category = LocaleCategory::kNumeric;
  else if (n == "lc_time") category = LocaleCategory::kTime;
  std::optional<bool> has = c.host.HasLocale(category, t);
  if (!has || *has) return;
  Refuse(p, t, "", out);
  if (c.host.is_server_host()) {
    out->hint = "This host has no locale \"" + t + "\" (see `locale -a`).";
  } else {
    out->host_dependent = true;
    out->hint = "The machine running pgconflint has no locale \"" + t +
                "\"; whether the server accepts it depends on the locales installed on the server's host "
                "(`locale -a` there).";
  }
}

// `offset_detail`: what the server says about an offset of a week or more
// (TimeZone explains it, log_timezone does not).
void TimeZoneValue(const HookContext& c, const Parameter& p, const std::string& t, const char* offset_detail,
                   ParsedValue* out) {
  char* end = nullptr;
  const double hours = strtod(t.c_str(), &end);
  if (end != t.c_str() && *end == '\0') {  // hours east of UTC
    // Measured on 14-18: an offset of a week or more (|hours x 3600| >= 604800
    // seconds once truncated), an infinity or a NaN is refused.
    if (!(std::fabs(hours * 3600) < 604800)) Refuse(p, t, offset_detail, out);
    return;
  }
  if (strncasecmp(t.c_str(), "interval", 8) == 0) return;
  // "posixrules" and "localtime" are files of the tz database but not zones
  // the server accepts: refused on every host, as are "" and overlong names.
  const bool never = t.empty() || t.size() > 255 || strcasecmp(t.c_str(), "posixrules") == 0 ||
                     strcasecmp(t.c_str(), "localtime") == 0;
  // A file of the time zone database (a leading ':' only says so), else a
  // POSIX TZ string.
  const bool file_only = !t.empty() && t[0] == ':';
  const PosixTz posix = never || file_only ? PosixTz::kInvalid : ReadPosixTz(t);
  if (posix == PosixTz::kAccepted) return;  // `postgres -C` prints it as written (SHOW in upper case)
  if (posix == PosixTz::kLeapSeconds) {
    Refuse(p, t, "PostgreSQL does not support leap seconds.", out);
    out->message = "time zone \"" + t + "\" appears to use leap seconds";
    return;
  }
  std::optional<bool> has = never ? std::optional<bool>(false) : c.host.HasTimeZone(file_only ? t.substr(1) : t);
  if (!has || *has) return;
  Refuse(p, t, "Time zone \"" + t + "\" is not recognized.", out);
  if (!c.host.is_server_host() && !never) {
    out->host_dependent = true;
    out->hint += " (Checked against the time zone database of the machine running pgconflint; the server "
                 "uses its own.)";
  }
}

void TimeZone(const HookContext& c, const Parameter& p, const std::string& t, ParsedValue* out) {
  TimeZoneValue(c, p, t, "UTC timezone offset is out of range.", out);
}

void LogTimeZone(const HookContext& c, const Parameter& p, const std::string& t, ParsedValue* out) {
  TimeZoneValue(c, p, t, "", out);
}

// max_stack_depth must leave 512kB of the stack rlimit free.
void MaxStackDepth(const HookContext& c, const Parameter& p, const std::string& t, ParsedValue* out) {
  std::optional<uint64_t> stack = c.host.StackLimitBytes();
  if (!stack) return;
  long long limit_kb = static_cast<long long>(*stack) / 1024 - 512;
  if (out->number > limit_kb) {
    Refuse(p, t, "\"max_stack_depth\" must not exceed " + std::to_string(limit_kb) + "kB.", out);
    out->hint += " Increase the platform's stack depth limit via \"ulimit -s\" or local equivalent.";
    out->host_dependent = !c.host.is_server_host();
  }
}

// Parameters whose value the server truncates to NAMEDATALEN-1 bytes.
void TruncateName(const HookContext& c, const Parameter&, const std::string& t, ParsedValue* out) {
  size_t max = static_cast<size_t>(c.build().max_identifier_length);
  if (t.size() > max) {
    out->normalized = t.substr(0, max);
    out->adjusted = true;
    out->adjustment = "truncated to " + std::to_string(max) + " bytes";
  }
}

// client_encoding: the name is cleaned (lower-case letters and digits only)
// and looked up in the server's alias table; -C prints the canonical name.
void ClientEncoding(const HookContext& c, const Parameter& p, const std::string& t, ParsedValue* out) {
  std::string clean;
  for (char ch : t)
    if (isalnum(static_cast<unsigned char>(ch))) clean += static_cast<char>(tolower(static_cast<unsigned char>(ch)));
  for (const HiddenEnumValue& e : c.build().encodings)
    if (clean == e.spelling) {
      out->normalized = e.canonical;
      return;
    }
  if (c.build().encodings.empty()) return;  // no harvested table: cannot judge
  Refuse(p, t, "", out);
  out->hint = "not an encoding name the server knows (e.g. UTF8, LATIN1, WIN1252)";
}

void TimezoneAbbreviations(const HookContext& c, const Parameter& p, const std::string& t, ParsedValue* out) {
  if (t.empty()) {
    out->problem = ValueProblem::kInvalid;
    out->message = "could not read time zone file \"\": Is a directory";
    out->hint = "name a file of share/timezonesets, such as Default";
    out->normalized.clear();
    return;
  }
  if (c.build().timezone_sets.empty()) return;
  for (const char* set : c.build().timezone_sets)
    if (t == set) return;
  Refuse(p, t, "the server's timezonesets directory has " + CommaList(c.build().timezone_sets), out);
}

// application_name and cluster_name keep printable ASCII only: other bytes
// become \xNN (16+) or '?' (up to 15).
void CleanAscii(const HookContext& c, const Parameter& p, const std::string& t, ParsedValue* out) {
  std::string in = out->normalized, cleaned;
  for (unsigned char ch : in) {
    if (ch >= 32 && ch <= 126) {
      cleaned += static_cast<char>(ch);
    } else if (c.major() >= 16) {
      char buf[8];
      snprintf(buf, sizeof buf, "\\x%02x", ch);
      cleaned += buf;
    } else {
      cleaned += '?';
    }
  }
  if (cleaned != in) {
    out->normalized = cleaned;
    out->adjusted = true;
    out->adjustment = "changed to \"" + cleaned + "\" (only printable ASCII is kept)";
  }
}

void NameThenClean(const HookContext& c, const Parameter& p, const std::string& t, ParsedValue* out) {
  TruncateName(c, p, t, out);
  CleanAscii(c, p, t, out);
}

void BacktraceFunctions(const HookContext&, const Parameter& p, const std::string& t, ParsedValue* out) {
  static const char kValid[] =
      "0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ, \n\t";
  if (strspn(t.c_str(), kValid) != t.size()) Refuse(p, t, "Invalid character.", out);
}

void NotEmptyName(const HookContext& c, const Parameter& p, const std::string& t, ParsedValue* out) {
  if (t.empty()) {
    Refuse(p, t, "\"" + std::string(p.name) + "\" cannot be empty.", out);
    return;
  }
  TruncateName(c, p, t, out);
}

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
      {"log_destination", KeywordList},
      {"restrict_nonsystem_relation_kind", KeywordList},
      {"createrole_self_grant", KeywordList},
      {"debug_io_direct", KeywordList},
      {"search_path", IdentifierListSyntax},
      {"wal_consistency_checking", ResourceManagerList},
      {"temp_tablespaces", IdentifierListSyntax},
      {"lc_messages", Locale},
      {"lc_monetary", Locale},
      {"lc_numeric", Locale},
      {"lc_time", Locale},
      {"timezone", TimeZone},
      {"log_timezone", LogTimeZone},
      {"max_stack_depth", MaxStackDepth},
      {"primary_slot_name", SlotName},
      {"recovery_target", RecoveryTarget},
      {"application_name", NameThenClean},
      {"cluster_name", NameThenClean},
      {"default_table_access_method", NotEmptyName},
      {"client_encoding", ClientEncoding},
      {"timezone_abbreviations", TimezoneAbbreviations},
      {"backtrace_functions", BacktraceFunctions},
      {"recovery_target_lsn", RecoveryTargetLsn},
      {"recovery_target_name", RecoveryTargetName},
      {"recovery_target_xid", RecoveryTargetXid},
      {"recovery_target_timeline", RecoveryTargetTimeline},
      {"recovery_target_time", RecoveryTargetTime},
      {"synchronized_standby_slots", SynchronizedStandbySlots},
      {"synchronous_standby_names", SynchronousStandbyNames},
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
    if (name.size() > 63) name.resize(63);  // truncated to NAMEDATALEN - 1, as identifiers are
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

void ApplyCheckHook(const Catalog& catalog, const HostFacts& host, const Parameter& param,
                    const std::string& text, ParsedValue* out) {
  const auto& hooks = Hooks();
  std::string_view name = param.name;
  bool lower = std::none_of(name.begin(), name.end(), [](char c) { return c >= 'A' && c <= 'Z'; });
  auto it = lower ? hooks.find(name) : hooks.find(AsciiLower(name));  // most names are lower-case already
  if (it != hooks.end()) it->second(HookContext{catalog, host}, param, text, out);
}

ParsedValue CheckValue(const Catalog& catalog, const HostFacts& host, const Parameter& param,
                       std::string_view value) {
  ParsedValue out = ParseValue(catalog, param, value);
  if (out.ok()) ApplyCheckHook(catalog, host, param, std::string(value), &out);
  if (!out.ok()) return out;
  if (const char* refused = RefusedValueMessage(param, out.normalized)) {
    const bool boot = out.normalized == param.boot_val;
    out.problem = ValueProblem::kInvalid;
    out.message = refused;
    out.hint = boot ? "PostgreSQL takes this value only as its built-in default, when nothing sets the parameter: "
                      "remove the setting to get it"
                    : "PostgreSQL refuses this value for " + DoubleQuoted(param.name) + "; see `pgconflint params " +
                          param.name + "`";
    out.normalized.clear();
  }
  return out;
}

}  // namespace pgconflint
