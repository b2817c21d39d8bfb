// The check hooks of replication and recovery settings: slot names,
// recovery targets, synchronized_standby_slots and synchronous_standby_names
// (the server's syncrep grammar). See hooks.h.
#include <strings.h>

#include <cctype>
#include <string>
#include <vector>

#include "core/knowledge/hooks.h"
#include "core/knowledge/hooks_internal.h"

namespace pgconflint::hooks {

// Replication slot names: lower-case letters, digits and underscores.
void SlotName(const HookContext& c, const Parameter& p, const std::string& t, ParsedValue* out) {
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

void RecoveryTarget(const HookContext&, const Parameter& p, const std::string& t, ParsedValue* out) {
  if (!t.empty() && t != "immediate")
    Refuse(p, t, "The only allowed value is \"immediate\".", out);
}

namespace {

bool IsHex(char ch) { return isxdigit(static_cast<unsigned char>(ch)) != 0; }

}  // namespace

// An LSN: 1-8 hex digits, '/', 1-8 hex digits.
void RecoveryTargetLsn(const HookContext&, const Parameter& p, const std::string& t, ParsedValue* out) {
  if (t.empty()) return;
  size_t slash = t.find('/');
  auto hex_run = [&](size_t b, size_t e) {
    if (e <= b || e - b > 8) return false;
    for (size_t i = b; i < e; ++i)
      if (!IsHex(t[i])) return false;
    return true;
  };
  if (slash == std::string::npos || !hex_run(0, slash) || !hex_run(slash + 1, t.size())) Refuse(p, t, "", out);
}

void RecoveryTargetName(const HookContext&, const Parameter& p, const std::string& t, ParsedValue* out) {
  if (t.size() > 63) Refuse(p, t, "\"recovery_target_name\" is too long (maximum 63 characters).", out);
}

// The server converts with strtou64/strtoul and refuses only what they flag
// (an overflow): text that is no number at all passes at start-up.
void RecoveryTargetXid(const HookContext&, const Parameter& p, const std::string& t, ParsedValue* out) {
  if (t.empty()) return;
  errno = 0;
  strtoull(t.c_str(), nullptr, 0);
  if (errno == ERANGE || errno == EINVAL) Refuse(p, t, "", out);
}

void RecoveryTargetTimeline(const HookContext&, const Parameter& p, const std::string& t, ParsedValue* out) {
  if (t == "current" || t == "latest") return;
  errno = 0;
  strtoul(t.c_str(), nullptr, 0);
  if (errno == ERANGE || errno == EINVAL) Refuse(p, t, "recovery_target_timeline is not a valid number.", out);
}

// recovery_target_time: a timestamp with time zone. The server parses it with
// its full date/time parser; this accepts the ISO forms and the special
// values it allows, which is what configuration files use.
void RecoveryTargetTime(const HookContext&, const Parameter& p, const std::string& t, ParsedValue* out) {
  if (t.empty()) return;
  if (t == "now" || t == "today" || t == "tomorrow" || t == "yesterday" || t == "epoch" || t == "infinity" ||
      t == "-infinity") {
    Refuse(p, t, "", out);
    return;
  }
  size_t i = 0;
  auto digits = [&](size_t min, size_t max) {
    size_t b = i;
    while (i < t.size() && isdigit(static_cast<unsigned char>(t[i])) && i - b < max) ++i;
    return i - b >= min;
  };
  bool ok = digits(4, 4) && i < t.size() && t[i++] == '-' && digits(1, 2) && i < t.size() && t[i++] == '-' &&
            digits(1, 2);
  if (ok) {
    int month = atoi(t.c_str() + 5), day = atoi(t.c_str() + t.find('-', 5) + 1);
    ok = month >= 1 && month <= 12 && day >= 1 && day <= 31;
  }
  if (ok && i < t.size() && (t[i] == ' ' || t[i] == 'T')) {
    ++i;
    ok = digits(1, 2) && i < t.size() && t[i++] == ':' && digits(2, 2);
    if (ok && i < t.size() && t[i] == ':') {
      ++i;
      ok = digits(2, 2);
      if (ok && i < t.size() && t[i] == '.') {
        ++i;
        ok = digits(1, 9);
      }
    }
  }
  if (ok && i < t.size()) {
    if (t[i] == ' ') ++i;
    if (i < t.size() && (t[i] == '+' || t[i] == '-')) {
      ++i;
      ok = digits(1, 2);
      if (ok && i < t.size() && t[i] == ':') ++i;
      if (ok && i < t.size()) ok = digits(2, 2);
    } else {
      while (i < t.size() && (isalpha(static_cast<unsigned char>(t[i])) || t[i] == '/' || t[i] == '_')) ++i;
    }
  }
  if (!ok || i != t.size()) Refuse(p, t, "", out);
}

namespace {

bool ValidSlotName(const std::string& n, int max_len, std::string* detail) {
  if (n.empty()) {
    *detail = "replication slot name \"\" is too short";
    return false;
  }
  if (static_cast<int>(n.size()) > max_len) {
    *detail = "replication slot name \"" + n + "\" is too long";
    return false;
  }
  for (char ch : n)
    if (!((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_')) {
      *detail = "replication slot name \"" + n + "\" contains invalid character";
      return false;
    }
  return true;
}

}  // namespace

void SynchronizedStandbySlots(const HookContext& c, const Parameter& p, const std::string& t, ParsedValue* out) {
  std::vector<std::string> items;
  if (!SplitIdentifierList(t, ',', &items)) {
    Refuse(p, t, "List syntax is invalid.", out);
    return;
  }
  std::string detail;
  for (const std::string& n : items)
    if (!ValidSlotName(n, c.build().max_identifier_length, &detail)) {
      Refuse(p, t, detail, out);
      return;
    }
}

namespace {

// The tokens of syncrep_scanner.l.
enum class SyncRepToken { kName, kNum, kAny, kFirst, kOpen, kClose, kComma, kEnd, kBad, kUnterminated };

// syncrep_scanner.l over one synchronous_standby_names value. Next() returns
// the next token; text() is its text, which the server's syntax errors quote.
// Copyable, to look one token ahead.
class SyncRepLexer {
 public:
  explicit SyncRepLexer(const std::string& t) : t_(&t) {}
  SyncRepToken Next();
  const std::string& text() const { return text_; }

 private:
  SyncRepToken QuotedName();
  SyncRepToken Word(size_t begin);
  const std::string* t_;
  size_t i_ = 0;
  std::string text_;
};

SyncRepToken SyncRepLexer::Next() {
  const std::string& t = *t_;
  while (i_ < t.size() && IsSpace(t[i_])) ++i_;
  if (i_ >= t.size()) return SyncRepToken::kEnd;
  unsigned char ch = static_cast<unsigned char>(t[i_]);
  size_t b = i_;
  text_ = std::string(1, static_cast<char>(ch));
  if (ch == '(') return ++i_, SyncRepToken::kOpen;
  if (ch == ')') return ++i_, SyncRepToken::kClose;
  if (ch == ',') return ++i_, SyncRepToken::kComma;
  if (ch == '*') return ++i_, SyncRepToken::kName;
  if (isdigit(ch)) {
    while (i_ < t.size() && isdigit(static_cast<unsigned char>(t[i_]))) ++i_;
    text_ = t.substr(b, i_ - b);
    return SyncRepToken::kNum;
  }
  if (ch == '"') return QuotedName();
  if (isalpha(ch) || ch == '_' || ch >= 0x80) return Word(b);
  ++i_;
  return SyncRepToken::kBad;
}

// A "quoted" name; "" stands for one quote. An unterminated one is kUnterminated.
SyncRepToken SyncRepLexer::QuotedName() {
  const std::string& t = *t_;
  for (++i_; i_ < t.size(); ++i_)
    if (t[i_] == '"') {
      if (i_ + 1 < t.size() && t[i_ + 1] == '"') {
        ++i_;
        continue;
      }
      ++i_;
      text_ = "\"";  // the server's scanner stops at the closing quote
      return SyncRepToken::kName;
    }
  return SyncRepToken::kUnterminated;
}

// An identifier, or one of the key words ANY and FIRST.
SyncRepToken SyncRepLexer::Word(size_t begin) {
  const std::string& t = *t_;
  while (i_ < t.size() && (isalnum(static_cast<unsigned char>(t[i_])) || t[i_] == '_' || t[i_] == '$' ||
                           static_cast<unsigned char>(t[i_]) >= 0x80))
    ++i_;
  text_ = t.substr(begin, i_ - begin);
  if (strcasecmp(text_.c_str(), "any") == 0) return SyncRepToken::kAny;
  if (strcasecmp(text_.c_str(), "first") == 0) return SyncRepToken::kFirst;
  return SyncRepToken::kName;
}

// The count of a group as the server reads it: atoi, so that digits beyond
// the int range wrap (4294967297 is 1, 2147483648 is negative).
int SyncRepNumber(const std::string& digits) {
  return static_cast<int>(strtol(digits.c_str(), nullptr, 10));
}

// The head of a grouped list, [FIRST|ANY] N '(', when *tok starts one: sets
// *num and *grouped and reads the list's first token into *tok. False at a
// syntax error, *tok being the offending token.
bool SyncRepHead(SyncRepLexer* lex, SyncRepToken* tok, int* num, bool* grouped) {
  if (*tok == SyncRepToken::kAny || *tok == SyncRepToken::kFirst) {
    if ((*tok = lex->Next()) != SyncRepToken::kNum) return false;
    *num = SyncRepNumber(lex->text());
    if ((*tok = lex->Next()) != SyncRepToken::kOpen) return false;
    *grouped = true;
  } else if (*tok == SyncRepToken::kNum) {
    // N '(' starts a group; otherwise the number is the first name of a plain list.
    SyncRepLexer ahead = *lex;
    if (ahead.Next() == SyncRepToken::kOpen) {
      *num = SyncRepNumber(lex->text());
      *lex = ahead;
      *grouped = true;
    }
  }
  if (*grouped) *tok = lex->Next();
  return true;
}

// name [, name ...] from *tok on, then the ')' of a group and the end of the
// value. ANY and FIRST are key words, no names. False at a syntax error, *tok
// being the offending token.
bool SyncRepList(SyncRepLexer* lex, bool grouped, SyncRepToken* tok) {
  for (;;) {
    if (*tok != SyncRepToken::kName && *tok != SyncRepToken::kNum) return false;
    *tok = lex->Next();
    if (*tok != SyncRepToken::kComma) break;
    *tok = lex->Next();
  }
  if (grouped) {
    if (*tok != SyncRepToken::kClose) return false;
    *tok = lex->Next();
  }
  return *tok == SyncRepToken::kEnd;
}

}  // namespace

// synchronous_standby_names: [FIRST|ANY] N (name, ...) or a plain list of
// names; names are identifiers, "quoted" names or *.
void SynchronousStandbyNames(const HookContext&, const Parameter& p, const std::string& t, ParsedValue* out) {
  if (t.empty()) return;  // synchronous replication off; blanks alone are a syntax error
  SyncRepLexer lex(t);
  SyncRepToken tok = lex.Next();
  int num = -1;
  bool grouped = false;
  if (!SyncRepHead(&lex, &tok, &num, &grouped) || !SyncRepList(&lex, grouped, &tok)) {
    Refuse(p, t,
           tok == SyncRepToken::kEnd            ? "syntax error at end of input"
           : tok == SyncRepToken::kUnterminated ? "unterminated quoted identifier at end of input"
                                                : "syntax error at or near \"" + lex.text() + "\"",
           out);
    return;
  }
  if (grouped && num <= 0) {
    // The server's own message, without the "invalid value" line.
    Refuse(p, t, "", out);
    out->message = "number of synchronous standbys (" + std::to_string(num) + ") must be greater than zero";
  }
}

}  // namespace pgconflint::hooks
