#include "core/knowledge/posix_tz.h"

#include <cstdint>
#include <optional>
#include <string>

namespace pgconflint {
namespace {

constexpr int64_t kDay = 86400;

// A cursor over the upper-cased spec; each reader advances it or fails.
class Reader {
 public:
  explicit Reader(std::string_view s) : s_(s) {}
  bool AtEnd() const { return i_ == s_.size(); }
  char Peek() const { return AtEnd() ? '\0' : s_[i_]; }
  bool Take(char c) {
    if (Peek() != c) return false;
    ++i_;
    return true;
  }

  // A zone name: <quoted> (may be empty) or a run of characters other than
  // digits, ',', '+' and '-'. Returns its length, or nullopt when a quote
  // is not closed.
  std::optional<size_t> Name() {
    if (Take('<')) {
      size_t close = s_.find('>', i_);
      if (close == std::string_view::npos) return std::nullopt;
      size_t n = close - i_;
      i_ = close + 1;
      return n;
    }
    size_t b = i_;
    while (!AtEnd() && !IsDigit(Peek()) && Peek() != ',' && Peek() != '+' && Peek() != '-') ++i_;
    return i_ - b;
  }

  // Digits up to `max`, at least `min` (the value may not pass max while read).
  std::optional<int64_t> Number(int64_t min, int64_t max) {
    if (!IsDigit(Peek())) return std::nullopt;
    int64_t n = 0;
    while (IsDigit(Peek())) {
      n = n * 10 + (s_[i_++] - '0');
      if (n > max) return std::nullopt;
    }
    if (n < min) return std::nullopt;
    return n;
  }

  // [+-]h[:mm[:ss]] in seconds, h up to 167 (a week less an hour).
  std::optional<int64_t> Offset() {
    bool negative = Take('-');
    if (!negative) Take('+');
    std::optional<int64_t> h = Number(0, 167);
    if (!h) return std::nullopt;
    int64_t secs = *h * 3600;
    if (Take(':')) {
      std::optional<int64_t> m = Number(0, 59);
      if (!m) return std::nullopt;
      secs += *m * 60;
      if (Take(':')) {
        std::optional<int64_t> sec = Number(0, 60);  // 60: a leap second
        if (!sec) return std::nullopt;
        secs += *sec;
      }
    }
    return negative ? -secs : secs;
  }

  struct Rule {
    char kind = 0;  // 'J', 'M' or 'D' (day of year from 0)
    int64_t day = 0, month = 0, week = 0;
    int64_t time = 2 * 3600;
  };
  std::optional<Rule> ReadRule() {
    Rule r;
    std::optional<int64_t> n;
    if (Take('J')) {
      r.kind = 'J';
      if (!(n = Number(1, 365))) return std::nullopt;
      r.day = *n;
    } else if (Take('M')) {
      r.kind = 'M';
      std::optional<int64_t> month = Number(1, 12);
      if (!month || !Take('.')) return std::nullopt;
      std::optional<int64_t> week = Number(1, 5);
      if (!week || !Take('.')) return std::nullopt;
      std::optional<int64_t> day = Number(0, 6);
      if (!day) return std::nullopt;
      r.month = *month;
      r.week = *week;
      r.day = *day;
    } else {
      r.kind = 'D';
      if (!(n = Number(0, 365))) return std::nullopt;
      r.day = *n;
    }
    if (Take('/')) {
      std::optional<int64_t> t = Offset();
      if (!t) return std::nullopt;
      r.time = *t;
    }
    return r;
  }

 private:
  static bool IsDigit(char c) { return c >= '0' && c <= '9'; }
  std::string_view s_;
  size_t i_ = 0;
};

// Seconds from 2000-01-01 00:00 (local) at which `r` falls in 2000, a leap
// year that began on a Saturday, before the offset is added.
int64_t RuleTimeIn2000(const Reader::Rule& r) {
  static constexpr int kMonthDays[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  int64_t day = 0;
  if (r.kind == 'J') {
    day = r.day - 1 + (r.day >= 60 ? 1 : 0);  // Jn never counts February 29
  } else if (r.kind == 'D') {
    day = r.day;
  } else {
    int64_t before = 0;
    for (int m = 1; m < r.month; ++m) before += kMonthDays[m - 1];
    const int64_t first_weekday = (6 + before) % 7;
    int64_t d = r.day - first_weekday;
    if (d < 0) d += 7;
    for (int64_t w = 1; w < r.week && d + 7 < kMonthDays[r.month - 1]; ++w) d += 7;
    day = before + d;
  }
  return day * kDay + r.time;
}

}  // namespace

PosixTz ReadPosixTz(std::string_view spec) {
  std::string upper(spec);  // the server reads the spec in upper case
  for (char& c : upper)
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  Reader in(upper);
  if (!in.Name() || in.AtEnd()) return PosixTz::kInvalid;
  std::optional<int64_t> std_offset = in.Offset();
  if (!std_offset) return PosixTz::kInvalid;
  int64_t in_effect = *std_offset;  // on 2000-01-01 00:00 UTC
  if (!in.AtEnd()) {
    std::optional<size_t> dst_name = in.Name();
    if (!dst_name || *dst_name == 0) return PosixTz::kInvalid;
    int64_t dst_offset = *std_offset - 3600;
    if (!in.AtEnd() && in.Peek() != ',') {
      std::optional<int64_t> o = in.Offset();
      if (!o) return PosixTz::kInvalid;
      dst_offset = *o;
    }
    if (in.Take(',')) {
      std::optional<Reader::Rule> start = in.ReadRule();
      if (!start || !in.Take(',')) return PosixTz::kInvalid;
      std::optional<Reader::Rule> end = in.ReadRule();
      if (!end || !in.AtEnd()) return PosixTz::kInvalid;
      // The transitions of 2000 in UTC (local time plus the offset west).
      const int64_t begins = RuleTimeIn2000(*start) + *std_offset;
      const int64_t ends = RuleTimeIn2000(*end) + dst_offset;
      const bool daylight = begins <= ends ? begins <= 0 && 0 < ends : 0 < ends || begins <= 0;
      if (daylight) in_effect = dst_offset;
    } else if (!in.AtEnd()) {
      return PosixTz::kInvalid;
    }
    // Without rules the daylight period is the default rules' (March to
    // November): January keeps standard time.
  }
  return in_effect % 60 == 0 ? PosixTz::kAccepted : PosixTz::kLeapSeconds;
}

}  // namespace pgconflint
