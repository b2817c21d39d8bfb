// libFuzzer harness: `check --fix` on postgresql.conf text (and an included
// file after a "--8<--" line). Rounds of safe fixes, as the CLI takes them,
// must settle: after at most 10 rounds no safe fix changes the text (a fix
// that does not fix its finding would make --fix loop). Nothing is read from
// the real disk.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "lint_and_render.h"
#include "report/text.h"

namespace {

using namespace pgconflint;

// The safe fixes of file 0 of `a`, applied as one round of --fix applies them.
std::string FixedText(const Analysis& a, int* applied) {
  std::vector<const Fix*> fixes;
  for (const Diagnostic& d : a.diagnostics)
    for (const Fix* fix : SafeFixes(d))
      if (!fix->edits.empty() && fix->edits[0].where.file == 0) fixes.push_back(fix);
  return ApplyFixes(a.files[0].source.text(), 0, fixes, applied);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  size_t cut = input.find("\n--8<--\n");
  OverlayFileSystem fs(nullptr, "/fuzz");
  std::string text(input.substr(0, cut));
  if (cut != std::string_view::npos) fs.Set("/fuzz/included.conf", std::string(input.substr(cut + 8)));
  constexpr int kMaxRounds = 10;  // as the CLI's
  for (int round = 0; round <= kMaxRounds; ++round) {
    fs.Set("/fuzz/postgresql.conf", text);
    Workspace workspace(fuzz::Options(&fs));
    Analysis a;
    std::string error;
    if (!workspace.Lint("/fuzz/postgresql.conf", &a, &error) || a.files.empty()) return 0;
    int applied = 0;
    std::string fixed = FixedText(a, &applied);
    if (!applied || fixed == text) return 0;  // settled
    if (round == kMaxRounds) {
      std::fprintf(stderr, "safe fixes still change the text after %d rounds:\n%s\n", kMaxRounds, fixed.c_str());
      std::abort();
    }
    text = std::move(fixed);
  }
  return 0;
}
