// Finding the passwords of connection strings in any text, and masking them.
#include "core/model/secrets.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "core/model/analysis.h"

namespace pgconflint {
namespace {

bool IsWordByte(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

char Lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

bool StartsWithIgnoringCase(std::string_view text, size_t at, std::string_view word) {
  if (at + word.size() > text.size()) return false;
  for (size_t k = 0; k < word.size(); ++k)
    if (Lower(text[at + k]) != word[k]) return false;
  return true;
}

// Where an unquoted value ends: white space, a quote that closes the string
// around it, a URI's next parameter.
bool EndsValue(char c) { return IsSpace(c) || c == '\'' || c == '"' || c == '&' || c == '#'; }

// The value after `password` (or `sslpassword`) at text[key_end...]: `=`,
// then a quoted or bare value; or, as SQL writes it (CREATE ROLE ...
// PASSWORD 'x'), a string literal. Empty when there is neither.
Range KeywordValue(std::string_view text, size_t key_end) {
  size_t i = key_end;
  while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
  if (i < text.size() && text[i] == '\'' && i > key_end) {
    size_t end = i + 1;
    for (; end < text.size(); ++end) {
      if (text[end] != '\'') continue;
      if (end + 1 < text.size() && text[end + 1] == '\'') ++end;
      else break;
    }
    return {static_cast<uint32_t>(i + 1), static_cast<uint32_t>(std::min(end, text.size()))};
  }
  if (i >= text.size() || text[i] != '=') return {};
  ++i;
  while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
  const size_t begin = i;
  if (i + 1 < text.size() && text[i] == '\'' && text[i + 1] == '\'') {
    // Inside a quoted configuration value, the connection string's own
    // quotes are doubled: password=''it''''s'' ends at the next lone ''.
    for (i += 2; i + 1 < text.size(); ++i) {
      if (text[i] == '\'' && text[i + 1] == '\'') {
        if (i + 3 < text.size() && text[i + 2] == '\'' && text[i + 3] == '\'') {
          i += 3;
          continue;
        }
        return {static_cast<uint32_t>(begin + 2), static_cast<uint32_t>(i)};
      }
    }
    return {static_cast<uint32_t>(begin + 2), static_cast<uint32_t>(text.size())};
  }
  if (i < text.size() && text[i] == '\'') {  // libpq's quoting: '...' with \ escapes
    for (++i; i < text.size() && text[i] != '\''; ++i)
      if (text[i] == '\\') ++i;
    return {static_cast<uint32_t>(begin + 1), static_cast<uint32_t>(std::min(i, text.size()))};
  }
  while (i < text.size() && !EndsValue(text[i])) i += text[i] == '\\' && i + 1 < text.size() ? 2 : 1;
  return {static_cast<uint32_t>(begin), static_cast<uint32_t>(i)};
}

// The password of a URI's userinfo after "://" at text[after...]:
// user:PASSWORD@host. Empty when the authority has no password.
Range UserinfoPassword(std::string_view text, size_t after) {
  size_t colon = std::string_view::npos;
  for (size_t i = after; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '@') {
      if (colon == std::string_view::npos) return {};
      return {static_cast<uint32_t>(colon + 1), static_cast<uint32_t>(i)};
    }
    if (c == '/' || c == '?' || c == '#' || IsSpace(c) || c == '\'' || c == '"') return {};
    if (c == ':' && colon == std::string_view::npos) colon = i;
  }
  return {};
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  c = Lower(c);
  return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

std::string PercentDecoded(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    int hi, lo;
    if (s[i] == '%' && i + 2 < s.size() && (hi = HexValue(s[i + 1])) >= 0 && (lo = HexValue(s[i + 2])) >= 0) {
      out += static_cast<char>(hi * 16 + lo);
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

std::string Unescaped(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if ((s[i] == '\\' || (s[i] == '\'' && i + 1 < s.size() && s[i + 1] == '\'')) && i + 1 < s.size()) ++i;
    out += s[i];
  }
  return out;
}

// One character of a secret, replaced by one of the same byte length and
// the same count of code points and UTF-16 units: columns in every unit but
// display stay.
void MaskCharacters(std::string* text, Range r) {
  for (size_t i = r.begin; i < r.end;) {
    size_t n = 1;
    DecodeUtf8(*text, i, &n);
    static const char* const kSame[] = {"", "*", "\xC3\x97", "\xE2\x88\x97", "\xF0\x9F\x9E\xB8"};  // * x ∗ 🞸
    if (i + n > r.end) n = 1;
    if ((*text)[i] == '\n' || (*text)[i] == '\r') {  // the lines stay
      ++i;
      continue;
    }
    if (n == 1) (*text)[i] = '*';
    else text->replace(i, n, kSame[n]);
    i += n;
  }
}

bool HoldsKnown(std::string_view s, const std::vector<std::string>& known) {
  for (const std::string& secret : known)
    if (secret.size() >= 3 && s.find(secret) != std::string_view::npos) return true;
  return false;
}

// In place, and only a text that holds a secret is copied (a 64 MiB value
// without one costs a scan).
void Mask(std::string* s, const std::vector<std::string>& known) {
  if (!SecretRanges(*s).empty() || HoldsKnown(*s, known)) *s = ScrubSecrets(*s, known);
}

constexpr size_t kMaxEchoedSecrets = 64;

}  // namespace

namespace {

// Whether one of the 8 bytes of `w` is `b` (the classic test for a zero byte).
bool HasByte(uint64_t w, uint8_t b) {
  const uint64_t x = w ^ (0x0101010101010101ull * b);
  return ((x - 0x0101010101010101ull) & ~x & 0x8080808080808080ull) != 0;
}

// Whether text[i, i+8) may start a secret: it holds a 'p', a 'P' or a ':'
// (b | 0x20 is 'p' only for 'p' and 'P').
bool MayHoldSecret(std::string_view text, size_t i) {
  uint64_t w;
  std::memcpy(&w, text.data() + i, sizeof w);
  return HasByte(w | 0x2020202020202020ull, 'p') || HasByte(w, ':');
}

}  // namespace

std::vector<Range> SecretRanges(std::string_view text) {
  std::vector<Range> out;
  auto add = [&](Range r) {
    if (r.end > r.begin && (out.empty() || r.begin >= out.back().end)) out.push_back(r);
  };
  for (size_t i = 0; i < text.size(); ++i) {
    if (i + 8 <= text.size() && !MayHoldSecret(text, i)) {  // most text: eight bytes at a time
      i += 7;
      continue;
    }
    const char c = text[i];
    if (c != 'p' && c != 'P' && c != ':') continue;
    if (c != ':' && StartsWithIgnoringCase(text, i, "password")) {
      size_t start = i >= 3 && StartsWithIgnoringCase(text, i - 3, "ssl") ? i - 3 : i;
      if ((start == 0 || !IsWordByte(text[start - 1])) && (i + 8 >= text.size() || !IsWordByte(text[i + 8]))) {
        Range r = KeywordValue(text, i + 8);
        add(r);
        if (r.end > r.begin) i = r.end;
      }
    } else if (c == ':' && i + 2 < text.size() && text[i + 1] == '/' && text[i + 2] == '/') {
      add(UserinfoPassword(text, i + 3));
    }
  }
  return out;
}

namespace {

// The secrets of `text` at `ranges` (its SecretRanges), as SecretsIn says.
std::vector<std::string> SecretsAt(std::string_view text, const std::vector<Range>& ranges) {
  std::vector<std::string> out;
  auto add = [&](std::string s) {
    if (!s.empty() && std::find(out.begin(), out.end(), s) == out.end()) out.push_back(std::move(s));
  };
  for (Range r : ranges) {
    std::string_view s = text.substr(r.begin, r.end - r.begin);
    add(std::string(s));
    add(PercentDecoded(s));
    add(Unescaped(s));
  }
  return out;
}

}  // namespace

std::vector<std::string> SecretsIn(std::string_view text) { return SecretsAt(text, SecretRanges(text)); }

std::string MaskSecrets(std::string_view text) {
  std::vector<Range> ranges = SecretRanges(text);
  if (ranges.empty()) return std::string(text);
  std::string out;
  size_t at = 0;
  for (Range r : ranges) {
    out.append(text.substr(at, r.begin - at)).append(kSecretMask);
    at = r.end;
  }
  return out.append(text.substr(at));
}

std::string ScrubSecrets(std::string_view text, const std::vector<std::string>& known) {
  std::string out = MaskSecrets(text);
  for (const std::string& secret : known) {
    if (secret.size() < 3 || secret == kSecretMask) continue;
    for (size_t p = out.find(secret); p != std::string::npos; p = out.find(secret, p + kSecretMask.size()))
      out.replace(p, secret.size(), kSecretMask);
  }
  return out;
}

void RedactSecrets(Analysis* a) {
  // Every secret of every file, longest first (one that holds another is
  // replaced whole).
  std::vector<std::string> known;
  std::vector<std::vector<Range>> file_ranges;  // each file scanned once
  for (const LoadedFile& f : a->files) {
    file_ranges.push_back(SecretRanges(f.source.text()));
    for (std::string& s : SecretsAt(f.source.text(), file_ranges.back())) known.push_back(std::move(s));
  }
  for (const Setting& s : a->settings)
    for (const std::string* v : {&s.raw, &s.text})
      for (std::string& x : SecretsIn(*v)) known.push_back(std::move(x));
  std::sort(known.begin(), known.end(), [](const std::string& x, const std::string& y) {
    return x.size() != y.size() ? x.size() > y.size() : x < y;
  });
  known.erase(std::unique(known.begin(), known.end()), known.end());
  // Each known secret is one scan of every text: a bounded number keeps the
  // cost linear (a file of 100,000 distinct passwords would otherwise cost
  // their square). Past the bound, secrets are still masked by their shape.
  if (known.size() > kMaxEchoedSecrets) known.resize(kMaxEchoedSecrets);

  for (size_t i = 0; i < a->files.size(); ++i) {
    LoadedFile& f = a->files[i];
    const std::vector<Range>& ranges = file_ranges[i];
    if (ranges.empty() && !HoldsKnown(f.source.text(), known)) continue;
    std::string text = f.source.text();
    for (Range r : ranges) MaskCharacters(&text, r);
    for (const std::string& secret : known) {
      if (secret.size() < 3) continue;
      for (size_t p = text.find(secret); p != std::string::npos; p = text.find(secret, p + secret.size()))
        MaskCharacters(&text, {static_cast<uint32_t>(p), static_cast<uint32_t>(p + secret.size())});
    }
    f.source = f.source.WithText(std::move(text));
  }
  for (Setting& s : a->settings) {
    Mask(&s.raw, known);
    Mask(&s.text, known);
    if (s.value) Mask(&*s.value, known);
  }
  for (TablespaceSetting& t : a->tablespace_settings) Mask(&t.value, known);
  for (Diagnostic& d : a->diagnostics) {
    Mask(&d.message, known);
    Mask(&d.help, known);
    for (Note& n : d.notes) Mask(&n.message, known);
    for (Also& x : d.also) Mask(&x.message, known);
    for (Fix& f : d.fixes) {
      Mask(&f.title, known);
      for (Edit& e : f.edits) Mask(&e.text, known);
    }
  }
}

}  // namespace pgconflint
