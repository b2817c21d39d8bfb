// Rounds of safe fixes over an in-memory overlay.
#include "cli/fix.h"

#include <iostream>
#include <map>
#include <set>

#include "cli/common.h"
#include "core/base/atomic_write.h"
#include "core/model/secrets.h"
#include "report/text.h"
#include "report/unified_diff.h"

namespace pgconflint::cli {
namespace {

// A fix that makes another possible (a quoted value, then its unit) needs a
// new round; real configurations settle in two.
constexpr int kMaxRounds = 10;

struct FileState {
  std::string display;   // as the report shows it
  std::string original;  // the bytes before any fix
  std::vector<std::string> applied;  // "line: title" of each fix, in order
};

// One round: the safe fixes of each file, taken from the first analysis that
// read it (two roots may include one fragment). Returns the fixes applied.
int Round(const std::vector<Analysis>& analyses, OverlayFileSystem* overlay, std::map<std::string, FileState>* files) {
  int applied_total = 0;
  std::map<std::string, bool> done;
  for (const Analysis& a : analyses) {
    for (size_t f = 0; f < a.files.size(); ++f) {
      const LoadedFile& file = a.files[f];
      if (done[file.abs_path]) continue;
      std::vector<const Fix*> fixes;
      std::vector<const Diagnostic*> owners;
      for (const Diagnostic& d : a.diagnostics)
        for (const Fix* fix : SafeFixes(d))
          if (!fix->edits.empty() && fix->edits[0].where.file == static_cast<int>(f)) {
            fixes.push_back(fix);
            owners.push_back(&d);
          }
      if (fixes.empty()) continue;
      done[file.abs_path] = true;
      const std::string& text = file.source.text();
      // A fix that overlaps one taken before waits for the next round; the
      // list of what changed names exactly the fixes taken.
      EditSet taken(text.size(), static_cast<int>(f));
      std::vector<std::string> titles;
      for (size_t k = 0; k < fixes.size(); ++k)
        if (taken.Add(*fixes[k]))
          titles.push_back(std::to_string(file.source.LineOf(owners[k]->range.begin)) + ": " + fixes[k]->title);
      const int applied = taken.fixes();
      std::string fixed = taken.Apply(text);
      if (!applied || fixed == text) continue;
      FileState& st = (*files)[file.abs_path];
      if (st.display.empty()) st = {file.source.path(), text, {}};
      st.applied.insert(st.applied.end(), titles.begin(), titles.end());
      overlay->Set(file.abs_path, std::move(fixed));
      applied_total += applied;
    }
  }
  return applied_total;
}

// The refusals of each file (by message: a fix moves no line but its own):
// what the server would refuse, before and after the fixes.
std::map<std::string, std::set<std::string>> RefusalsByFile(const std::vector<Analysis>& analyses) {
  std::map<std::string, std::set<std::string>> out;
  for (const Analysis& a : analyses)
    for (const Diagnostic& d : a.diagnostics)
      if (IsRefusal(d.outcome) && d.file >= 0) out[a.files[d.file].abs_path].insert(std::string(d.rule->code) + " " + d.message);
  return out;
}

}  // namespace

FixOutcome ApplySafeFixes(FixMode mode, OverlayFileSystem* overlay, const std::string& stdin_file,
                          const std::function<bool()>& relint, std::vector<Analysis>* analyses) {
  FixOutcome outcome;
  std::map<std::string, FileState> files;
  const std::map<std::string, std::set<std::string>> before = RefusalsByFile(*analyses);
  for (int round = 0; round < kMaxRounds; ++round) {
    int n = Round(*analyses, overlay, &files);
    if (!n) break;
    outcome.fixes += n;
    if (!relint()) {
      outcome.exit_code = kExitUsage;
      return outcome;
    }
  }
  // A fix never writes what the server would refuse (a rename to a name the
  // checked major lacks, a value another major reads differently): a file
  // that gained a refusal keeps its bytes.
  bool reverted = false;
  const std::map<std::string, std::set<std::string>> after = RefusalsByFile(*analyses);
  for (auto& [abs, st] : files) {
    auto now = after.find(abs);
    if (now == after.end()) continue;
    auto was = before.find(abs);
    for (const std::string& r : now->second)
      if (was == before.end() || !was->second.count(r)) {
        std::cerr << "pgconflint: warning: the fixes of " << EscapeControls(st.display)
                  << " were not applied: PostgreSQL would refuse the result (" << EscapeControls(r) << ")\n";
        overlay->Set(abs, st.original);
        st.applied.clear();
        reverted = true;
        break;
      }
  }
  if (reverted && !relint()) {
    outcome.exit_code = kExitUsage;
    return outcome;
  }
  for (const auto& [abs, st] : files) {
    std::string now;
    std::string error;
    overlay->Read(abs, &now, &error);
    if (now == st.original) continue;
    ++outcome.files;
    if (mode == FixMode::kDiff) {
      // Printed into logs: a password in a changed or context line is masked
      // (--fix writes the file itself).
      std::cout << MaskSecrets(UnifiedDiff(EscapeControls(st.display), st.original, now));
      continue;
    }
    if (abs == stdin_file) {
      std::cout << now;
    } else if (!WriteFileAtomically(abs, now, &error)) {
      PrintError("cannot write the fixed file: " + error);
      outcome.exit_code = kExitInternal;
      continue;
    }
    for (const std::string& a : st.applied) std::cerr << "fixed " << EscapeControls(st.display) << ":" << a << "\n";
  }
  if (!std::cout.flush()) outcome.exit_code = kExitInternal;
  return outcome;
}

}  // namespace pgconflint::cli
