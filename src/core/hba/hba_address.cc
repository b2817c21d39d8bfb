// Numeric addresses as glibc's getaddrinfo(AI_NUMERICHOST) and getnameinfo
// read and print them for pg_hba.conf (the test servers link the system's
// glibc). tests/integration/test_hba_differential.py holds the forms to the
// server's pg_hba_file_rules.
#include "core/hba/hba_address.h"

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>

#include "core/base/strings.h"

namespace pgconflint {
namespace {

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// glibc's inet_aton_exact: one to four parts, each read by strtoul in base 0
// (decimal, octal after a leading 0, hex after 0x); the last part fills the
// remaining bytes; nothing may follow.
bool InetAtonExact(std::string_view s, uint32_t* out) {
  uint32_t parts[3];
  int nparts = 0;
  size_t i = 0;
  auto at = [&](size_t k) { return k < s.size() ? s[k] : '\0'; };
  char c = at(i);
  uint64_t val = 0;
  bool digit = false;
  for (;;) {
    if (!IsAsciiDigit(c)) return false;
    val = 0;
    int base = 10;
    if (c == '0') {
      c = at(++i);
      if (c == 'x' || c == 'X') {
        // strtoul(base 0) reads "0x" without a hex digit as 0 followed by "x",
        // which then trails the number.
        if (HexValue(at(i + 1)) < 0) return false;
        base = 16;
        c = at(++i);
      } else {
        base = 8;
      }
      digit = true;
    }
    for (;;) {
      if (IsAsciiDigit(c)) {
        if (base == 8 && (c == '8' || c == '9')) return false;
        val = val * base + static_cast<uint64_t>(c - '0');
      } else if (base == 16 && HexValue(c) >= 0) {
        val = (val << 4) | static_cast<uint64_t>(HexValue(c));
      } else {
        break;
      }
      if (val > 0xffffffffu) return false;
      c = at(++i);
      digit = true;
    }
    if (c != '.') break;
    if (nparts > 2 || val > 0xff) return false;
    parts[nparts++] = static_cast<uint32_t>(val);
    c = at(++i);
  }
  if (i != s.size() || !digit) return false;  // exact: nothing after the number
  static constexpr uint64_t kLimit[] = {0xffffffffu, 0xffffffu, 0xffffu, 0xffu};
  if (val > kLimit[nparts]) return false;
  uint32_t v = static_cast<uint32_t>(val);
  for (int p = 0; p < nparts; ++p) v |= parts[p] << (24 - 8 * p);
  *out = v;
  return true;
}

// glibc's inet_pton4: exactly four decimal parts, no leading zeros.
bool InetPton4(std::string_view s, uint8_t* out) {
  uint8_t tmp[4] = {0, 0, 0, 0};
  int octets = 0, cur = 0;
  bool saw_digit = false;
  for (char ch : s) {
    if (IsAsciiDigit(ch)) {
      unsigned v = tmp[cur] * 10u + static_cast<unsigned>(ch - '0');
      if (saw_digit && tmp[cur] == 0) return false;
      if (v > 255) return false;
      tmp[cur] = static_cast<uint8_t>(v);
      if (!saw_digit) {
        if (++octets > 4) return false;
        saw_digit = true;
      }
    } else if (ch == '.' && saw_digit) {
      if (octets == 4) return false;
      ++cur;
      saw_digit = false;
    } else {
      return false;
    }
  }
  if (octets < 4) return false;
  for (int k = 0; k < 4; ++k) out[k] = tmp[k];
  return true;
}

// glibc's inet_pton6.
bool InetPton6(std::string_view s, uint8_t* out) {
  uint8_t tmp[16] = {};
  size_t tp = 0, colonp = SIZE_MAX, i = 0;
  if (s.empty()) return false;
  if (s[0] == ':') {
    ++i;
    if (i == s.size() || s[i] != ':') return false;
  }
  size_t curtok = i, xdigits = 0;
  unsigned val = 0;
  while (i < s.size()) {
    char ch = s[i++];
    int d = HexValue(ch);
    if (d >= 0) {
      if (xdigits == 4) return false;
      val = (val << 4) | static_cast<unsigned>(d);
      ++xdigits;
      continue;
    }
    if (ch == ':') {
      curtok = i;
      if (xdigits == 0) {
        if (colonp != SIZE_MAX) return false;
        colonp = tp;
        continue;
      }
      if (i == s.size()) return false;
      if (tp + 2 > 16) return false;
      tmp[tp++] = static_cast<uint8_t>(val >> 8);
      tmp[tp++] = static_cast<uint8_t>(val);
      xdigits = 0;
      val = 0;
      continue;
    }
    if (ch == '.' && tp + 4 <= 16 && InetPton4(s.substr(curtok), tmp + tp)) {
      tp += 4;
      xdigits = 0;
      break;
    }
    return false;
  }
  if (xdigits > 0) {
    if (tp + 2 > 16) return false;
    tmp[tp++] = static_cast<uint8_t>(val >> 8);
    tmp[tp++] = static_cast<uint8_t>(val);
  }
  if (colonp != SIZE_MAX) {
    if (tp == 16) return false;
    size_t n = tp - colonp;
    for (size_t k = 0; k < n; ++k) tmp[15 - k] = tmp[colonp + n - 1 - k];
    for (size_t k = colonp; k < 16 - n; ++k) tmp[k] = 0;
    tp = 16;
  }
  if (tp != 16) return false;
  for (int k = 0; k < 16; ++k) out[k] = tmp[k];
  return true;
}

}  // namespace

NumericHost ParseNumericHost(std::string_view text, IpAddress* out) {
  uint32_t v4;
  if (InetAtonExact(text, &v4)) {
    *out = IpAddress{};
    out->family = 4;
    for (int k = 0; k < 4; ++k) out->bytes[k] = static_cast<uint8_t>(v4 >> (24 - 8 * k));
    return NumericHost::kAddress;
  }
  std::string_view addr = text;
  std::string_view scope;
  if (size_t pct = text.find('%'); pct != std::string_view::npos) {
    addr = text.substr(0, pct);
    scope = text.substr(pct + 1);
  }
  IpAddress a;
  a.family = 6;
  if (!InetPton6(addr, a.bytes.data())) return NumericHost::kNotNumeric;
  if (text.size() != addr.size()) {
    // A zone: a number, or an interface name only the server's host knows.
    bool numeric = !scope.empty();
    for (char c : scope) numeric = numeric && IsAsciiDigit(c);
    if (!numeric) return NumericHost::kHostDependent;
    if (scope.size() > 10 || strtoull(std::string(scope).c_str(), nullptr, 10) > 0xffffffffull)
      return NumericHost::kNotNumeric;
  }
  *out = a;
  return NumericHost::kAddress;
}

bool CidrMask(std::string_view bits, uint8_t family, IpAddress* mask, int* prefix) {
  std::string s(bits);
  if (s.empty()) return false;
  errno = 0;
  char* end = nullptr;
  long n = strtol(s.c_str(), &end, 10);
  if (*end != '\0') return false;
  long max = family == 4 ? 32 : family == 6 ? 128 : -1;
  if (max < 0 || n < 0 || n > max) return false;
  *mask = IpAddress{};
  mask->family = family;
  for (long b = 0; b < n; ++b) mask->bytes[b / 8] |= static_cast<uint8_t>(0x80 >> (b % 8));
  *prefix = static_cast<int>(n);
  return true;
}

int PrefixLength(const IpAddress& mask) {
  int n = 0, total = mask.bit_count();
  while (n < total && (mask.bytes[n / 8] & (0x80 >> (n % 8)))) ++n;
  for (int b = n; b < total; ++b)
    if (mask.bytes[b / 8] & (0x80 >> (b % 8))) return -1;
  return n;
}

std::string FormatAddress(const IpAddress& a) {
  char buf[64];
  if (a.family == 4) {
    snprintf(buf, sizeof buf, "%u.%u.%u.%u", a.bytes[0], a.bytes[1], a.bytes[2], a.bytes[3]);
    return buf;
  }
  if (a.family != 6) return "";
  unsigned words[8];
  for (int i = 0; i < 8; ++i) words[i] = (a.bytes[2 * i] << 8) | a.bytes[2 * i + 1];
  // The longest run of zero words (the first of equal runs), if at least two.
  int best = -1, best_len = 0, cur = -1, cur_len = 0;
  for (int i = 0; i <= 8; ++i) {
    if (i < 8 && words[i] == 0) {
      if (cur < 0) cur = i, cur_len = 0;
      ++cur_len;
    } else if (cur >= 0) {
      if (best < 0 || cur_len > best_len) best = cur, best_len = cur_len;
      cur = -1;
    }
  }
  if (best_len < 2) best = -1;
  std::string out;
  for (int i = 0; i < 8; ++i) {
    if (best >= 0 && i >= best && i < best + best_len) {
      if (i == best) out += ':';
      continue;
    }
    if (i != 0) out += ':';
    if (i == 6 && best == 0 && (best_len == 6 || (best_len == 5 && words[5] == 0xffff))) {
      snprintf(buf, sizeof buf, "%u.%u.%u.%u", a.bytes[12], a.bytes[13], a.bytes[14], a.bytes[15]);
      out += buf;
      return out;
    }
    snprintf(buf, sizeof buf, "%x", words[i]);
    out += buf;
  }
  if (best >= 0 && best + best_len == 8) out += ':';
  return out;
}

bool NetworkContains(const IpAddress& outer, const IpAddress& outer_mask, const IpAddress& inner,
                     const IpAddress& inner_mask) {
  if (outer.family != inner.family || outer.family == 0) return false;
  for (int i = 0; i < outer.bit_count() / 8; ++i) {
    uint8_t om = outer_mask.bytes[i], im = inner_mask.bytes[i];
    if (om & ~im) return false;  // outer fixes a bit inner leaves free
    if ((outer.bytes[i] ^ inner.bytes[i]) & om) return false;
  }
  return true;
}

bool NetworksOverlap(const IpAddress& a, const IpAddress& a_mask, const IpAddress& b, const IpAddress& b_mask) {
  if (a.family != b.family || a.family == 0) return false;
  for (int i = 0; i < a.bit_count() / 8; ++i)
    if ((a.bytes[i] ^ b.bytes[i]) & a_mask.bytes[i] & b_mask.bytes[i]) return false;
  return true;
}

}  // namespace pgconflint
