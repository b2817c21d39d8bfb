// Abridging long texts for the reports.
#include "core/model/echo_limit.h"

#include <algorithm>

#include "core/model/analysis.h"
#include "core/base/limits.h"

namespace pgconflint {
namespace {

bool IsContinuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

// `at` moved back to the start of the code point it falls in.
size_t Boundary(std::string_view s, size_t at) {
  at = std::min(at, s.size());
  for (int k = 0; k < 3 && at > 0 && at < s.size() && IsContinuation(s[at]); ++k) --at;
  return at;
}

void Abridge(std::string* s) {
  if (s->size() > kMaxEchoBytes) *s = Abridged(*s);
}

}  // namespace

std::string Abridged(std::string_view s) {
  if (s.size() <= kMaxEchoBytes) return std::string(s);
  // The marker takes at most 48 bytes; two thirds of the rest for the start.
  constexpr size_t kKept = kMaxEchoBytes - 48;
  const size_t head = Boundary(s, kKept * 2 / 3);
  const size_t tail = Boundary(s, s.size() - (kKept - kKept * 2 / 3));
  return std::string(s.substr(0, head)) + " ... [" + std::to_string(tail - head) + " bytes not shown] ... " +
         std::string(s.substr(tail));
}

EchoWindow WindowAround(std::string_view line, size_t begin, size_t end) {
  if (line.size() <= kMaxEchoBytes) return {0, line.size()};
  begin = std::min(begin, line.size());
  end = std::clamp(end, begin, line.size());
  // Some context before the range, then as much as fits; at the line's end,
  // a full window.
  constexpr size_t kBefore = kMaxEchoBytes / 4;
  size_t from = begin > kBefore ? begin - kBefore : 0;
  if (line.size() - from < kMaxEchoBytes) from = line.size() - kMaxEchoBytes;
  from = Boundary(line, from);
  const size_t to = Boundary(line, std::min(line.size(), from + kMaxEchoBytes));
  return {from, to};
}

void AbridgeEchoes(Analysis* a) {
  for (Setting& s : a->settings) {
    Abridge(&s.raw);
    Abridge(&s.text);
    if (s.value) Abridge(&*s.value);
  }
  for (TablespaceSetting& t : a->tablespace_settings) Abridge(&t.value);
  for (Diagnostic& d : a->diagnostics) {
    Abridge(&d.message);
    Abridge(&d.help);
    for (Note& n : d.notes) Abridge(&n.message);
    for (Also& x : d.also) Abridge(&x.message);
    // A fix is shown with its edits, which cannot be cut: one whose
    // replacement text is longer is applied by --fix but not reported.
    std::erase_if(d.fixes, [](const Fix& f) {
      return std::any_of(f.edits.begin(), f.edits.end(), [](const Edit& e) { return e.text.size() > kMaxEchoBytes; });
    });
    for (Fix& f : d.fixes) Abridge(&f.title);
  }
}

}  // namespace pgconflint
