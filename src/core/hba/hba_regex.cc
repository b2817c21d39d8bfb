// A recursive-descent reading of ARE syntax that stops at the first error
// the engine would report (its lexer and parser, regc_lex.c and regcomp.c,
// report one error and give up). Only the syntax is checked: what a
// pattern matches is never needed.
#include "core/hba/hba_regex.h"

#include <cstdint>

#include "core/base/source_file.h"
#include "core/base/strings.h"

namespace pgconflint {
namespace {

// regerrs.h
constexpr char kBadPat[] = "invalid regexp (reg version 0.8)";
constexpr char kECollate[] = "invalid collating element";
constexpr char kECType[] = "invalid character class";
constexpr char kEEscape[] = "invalid escape \\ sequence";
constexpr char kESubReg[] = "invalid backreference number";
constexpr char kEBrack[] = "brackets [] not balanced";
constexpr char kEParen[] = "parentheses () not balanced";
constexpr char kEBrace[] = "braces {} not balanced";
constexpr char kBadBr[] = "invalid repetition count(s)";
constexpr char kERange[] = "invalid character range";
constexpr char kBadRpt[] = "quantifier operand invalid";
constexpr char kBadOpt[] = "invalid embedded option";

constexpr int kDupMax = 255;  // the largest bound {m,n}
constexpr int kUnknownChar = -2;  // a bracket element that is a character of untracked value
constexpr int kMaxParenDepth = 200;  // parentheses nesting checked before the stack is at risk

bool IsAlpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool IsAlnum(char c) { return IsAsciiDigit(c) || IsAlpha(c); }
int DigitValue(char c, int base) {
  int v = IsAsciiDigit(c) ? c - '0' : (c >= 'a' && c <= 'f') ? c - 'a' + 10 : (c >= 'A' && c <= 'F') ? c - 'A' + 10 : 99;
  return v < base ? v : -1;
}

// What an escape stands for.
enum class Esc { kChar, kClass, kConstraint, kBackref };

class Checker {
 public:
  explicit Checker(std::string_view p) : p_(p) {}

  bool Run(std::string* reason) {
    if (p_.substr(0, 3) == "***" && p_.size() >= 4) {
      if (p_[3] == '=') return true;  // the rest is a literal string
      if (p_[3] == '?') return Fail(kBadPat, reason);
      if (p_[3] != ':') return Fail(kBadRpt, reason);
      i_ = 4;
    }
    if (!Options()) return Fail(error_, reason);
    if (literal_) return true;
    Regex(0);
    if (!error_ && i_ < p_.size()) error_ = kEParen;  // a ')' with no '(' ended the top level
    return error_ ? Fail(error_, reason) : true;
  }

 private:
  bool Fail(const char* e, std::string* reason) {
    *reason = e;
    return false;
  }
  bool Err(const char* e) {
    if (!error_) error_ = e;
    return false;
  }
  bool Eos() const { return i_ >= p_.size(); }
  char At(size_t k) const { return i_ + k < p_.size() ? p_[i_ + k] : '\0'; }

  // Embedded options "(?letters)" at the very start.
  bool Options() {
    if (!(At(0) == '(' && At(1) == '?' && IsAlpha(At(2)))) return true;
    i_ += 2;
    for (; !Eos() && IsAlpha(p_[i_]); ++i_) {
      switch (p_[i_]) {
        case 'q': literal_ = true; break;
        case 'x': expanded_ = true; break;
        case 't': expanded_ = false; break;
        case 'b': case 'c': case 'e': case 'i': case 'm': case 'n': case 'p': case 's': case 'w': break;
        default: return Err(kBadOpt);
      }
    }
    if (At(0) != ')') return Err(kBadOpt);
    ++i_;
    return true;
  }

  // Expanded syntax (?x): blanks and #-comments between tokens are ignored.
  void Skip() {
    if (!expanded_) return;
    while (!Eos()) {
      char c = p_[i_];
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
        ++i_;
      } else if (c == '#') {
        while (!Eos() && p_[i_] != '\n') ++i_;
      } else {
        break;
      }
    }
  }

  // Branches separated by '|', up to a ')' (left for the caller) or the end.
  void Regex(int depth) {
    for (;;) {
      Branch(depth);
      if (error_) return;
      Skip();
      if (At(0) != '|') return;
      ++i_;
    }
  }

  void Branch(int depth) {
    for (;;) {
      Skip();
      if (Eos() || At(0) == '|' || (At(0) == ')' && depth > 0)) return;
      if (!QAtom(depth)) return;
    }
  }

  bool IsQuantifierStart() const {
    char c = At(0);
    return c == '*' || c == '+' || c == '?' || (c == '{' && IsAsciiDigit(At(1)));
  }

  // An atom or constraint with its quantifier.
  bool QAtom(int depth) {
    bool quantifiable = true;
    char c = p_[i_];
    if (c == '*' || c == '+' || c == '?' || (c == '{' && IsAsciiDigit(At(1)))) return Err(kBadRpt);
    if (c == ')') return Err(kEParen);
    if (c == '^' || c == '$') {
      ++i_;
      quantifiable = false;
    } else if (c == '(') {
      if (!Group(depth, &quantifiable)) return false;
    } else if (c == '[') {
      ++i_;
      if (!Bracket()) return false;
    } else if (c == '\\') {
      ++i_;
      Esc kind;
      int value = 0;
      if (!Escape(false, &kind, &value)) return false;
      if (kind == Esc::kConstraint) quantifiable = false;
      if (kind == Esc::kBackref && (value > closed_ || lookaround_ > 0)) return Err(kESubReg);
    } else {
      ++i_;
    }
    Skip();
    if (!IsQuantifierStart()) return true;
    if (!quantifiable) return Err(kBadRpt);
    if (!Quantifier()) return false;
    Skip();
    if (IsQuantifierStart()) return Err(kBadRpt);
    return true;
  }

  bool Group(int depth, bool* quantifiable) {
    if (depth >= kMaxParenDepth) return Err(kEParen);  // never reached by a real file; keeps the stack bounded
    ++i_;
    bool capture = true, look = false;
    if (At(0) == '?') {
      char k = At(1);
      if (k == ':') {
        capture = false;
        i_ += 2;
      } else if (k == '=' || k == '!') {
        look = true;
        i_ += 2;
      } else if (k == '<' && (At(2) == '=' || At(2) == '!')) {
        look = true;
        i_ += 3;
      } else if (k == '#') {  // a comment, to the next ')'
        while (!Eos() && p_[i_] != ')') ++i_;
        if (!Eos()) ++i_;
        *quantifiable = false;
        return true;
      } else {
        return Err(kBadRpt);
      }
    }
    if (capture && !look) ++opened_;
    if (look) ++lookaround_;
    Regex(depth + 1);
    if (error_) return false;
    if (At(0) != ')') return Err(kEParen);
    ++i_;
    if (look) {
      --lookaround_;
      *quantifiable = false;
    }
    if (capture && !look) ++closed_;
    return true;
  }

  // '*', '+', '?' or "{m}", "{m,}", "{m,n}", each optionally followed by '?'.
  bool Quantifier() {
    if (p_[i_] != '{') {
      ++i_;
      if (At(0) == '?') ++i_;
      return true;
    }
    ++i_;
    int m = 0, n = 0;
    if (!Count(&m)) return false;
    n = m;
    if (At(0) == ',') {
      ++i_;
      n = kDupMax + 1;  // unbounded
      if (IsAsciiDigit(At(0)) && !Count(&n)) return false;
    }
    if (Eos()) return Err(kEBrace);
    if (At(0) != '}') return Err(kBadBr);
    if (m > n) return Err(kBadBr);
    ++i_;
    if (At(0) == '?') ++i_;
    return true;
  }

  bool Count(int* out) {
    long v = 0;
    if (Eos()) return Err(kEBrace);
    if (!IsAsciiDigit(At(0))) return Err(kBadBr);
    while (IsAsciiDigit(At(0))) {
      v = v * 10 + (p_[i_++] - '0');
      if (v > kDupMax) v = kDupMax + 1;
    }
    if (v > kDupMax) return Err(kBadBr);
    *out = static_cast<int>(v);
    return true;
  }

  // After a backslash. Sets *kind and, for a back reference, *value.
  bool Escape(bool in_bracket, Esc* kind, int* value) {
    *kind = Esc::kChar;
    if (Eos()) return Err(kEEscape);
    char c = p_[i_++];
    if (!IsAlnum(c)) return true;
    switch (c) {
      case 'a': case 'b': case 'B': case 'e': case 'f': case 'n': case 'r': case 't': case 'v': return true;
      case 'c':
        if (Eos()) return Err(kEEscape);
        ++i_;
        return true;
      case 'd': case 'D': case 's': case 'S': case 'w': case 'W': *kind = Esc::kClass; return true;
      case 'A': case 'Z': case 'm': case 'M': case 'y': case 'Y':
        *kind = Esc::kConstraint;
        return in_bracket ? Err(kEEscape) : true;
      case 'u': return Digits(16, 4, 4);
      case 'U': return Digits(16, 8, 8);
      case 'x': return Digits(16, 1, 255);
      case '0': --i_; return Digits(8, 1, 3);
      default: break;
    }
    if (IsAsciiDigit(c)) {
      size_t save = i_;
      --i_;
      long v = 0;
      size_t n = 0;
      while (n < 255 && IsAsciiDigit(At(0))) {
        v = v * 10 + (p_[i_++] - '0');
        if (v > 100000) v = 100000;
        ++n;
      }
      if (!in_bracket && (i_ == save || (v > 0 && v <= opened_))) {
        *kind = Esc::kBackref;
        *value = static_cast<int>(v);
        return true;
      }
      i_ = save - 1;  // an octal number after all
      return Digits(8, 1, 3);
    }
    return Err(kEEscape);  // an unknown letter
  }

  bool Digits(int base, size_t min, size_t max) {
    size_t n = 0;
    uint64_t v = 0;
    while (n < max && !Eos() && DigitValue(p_[i_], base) >= 0) {
      v = v * base + DigitValue(p_[i_++], base);
      if (v > 0xffffffffull) v = 0xffffffffull;
      ++n;
    }
    if (n < min) return Err(kEEscape);
    if (v > 0x7ffffffe) return Err(kEEscape);
    return true;
  }

  // After '['. Elements, ranges, [:class:], [.coll.], [=equiv=], up to ']'.
  bool Bracket() {
    if (At(0) == '^') ++i_;
    bool first = true;
    for (;;) {
      if (Eos()) return Err(kEBrack);
      char c = p_[i_];
      if (c == ']' && !first) {
        ++i_;
        return true;
      }
      first = false;
      int lo = -1;  // the element's character, or -1 when it cannot start a range
      if (!BracketElement(&lo)) return false;
      if (At(0) == '-' && At(1) != ']' && At(1) != '\0') {
        ++i_;
        int hi = -1;
        if (!BracketElement(&hi)) return false;
        if (lo == -1 || hi == -1 || (lo >= 0 && hi >= 0 && hi < lo)) return Err(kERange);
      }
    }
  }

  bool BracketElement(int* ch) {
    if (Eos()) return Err(kEBrack);
    char c = p_[i_];
    if (c == '[' && (At(1) == ':' || At(1) == '.' || At(1) == '=')) {
      char kind = At(1);
      size_t start = i_ + 2, end = p_.find(std::string{kind, ']'}, start);
      if (end == std::string_view::npos) return Err(kEBrack);
      std::string_view name = p_.substr(start, end - start);
      i_ = end + 2;
      if (kind == ':') {
        static constexpr const char* kClasses[] = {"alnum", "alpha", "ascii", "blank", "cntrl", "digit", "graph",
                                                   "lower", "print", "punct", "space", "upper", "xdigit", "word"};
        for (const char* k : kClasses)
          if (name == k) return true;
        return Err(kECType);
      }
      if (name.size() != 1) return Err(kECollate);
      *ch = static_cast<unsigned char>(name[0]);
      return true;
    }
    if (c == '\\') {
      ++i_;
      Esc kind;
      int value = 0;
      if (!Escape(true, &kind, &value)) return false;
      if (kind == Esc::kChar) *ch = kUnknownChar;  // a valid range end whose value is not tracked
      return true;
    }
    size_t len = 1;
    *ch = static_cast<int>(DecodeUtf8(p_, i_, &len));  // ranges compare code points
    i_ += len;
    return true;
  }

  std::string_view p_;
  size_t i_ = 0;
  const char* error_ = nullptr;
  bool literal_ = false;
  bool expanded_ = false;
  int opened_ = 0;  // capturing groups opened so far
  int closed_ = 0;  // capturing groups closed so far
  int lookaround_ = 0;
};

}  // namespace

bool CheckAdvancedRegex(std::string_view pattern, std::string* reason) { return Checker(pattern).Run(reason); }

}  // namespace pgconflint
