// Diagnostics with structure: a primary location, related notes with their own
// locations ("set again here", the include chain), and fixes (text edits with
// a safety level). Messages never embed locations: every front end renders
// notes and fixes in its own way (text, JSON, LSP relatedInformation, SARIF
// relatedLocations and fixes).
#ifndef PGCONFLINT_CORE_MODEL_DIAGNOSTIC_H_
#define PGCONFLINT_CORE_MODEL_DIAGNOSTIC_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/rules/rules.h"
#include "core/base/source_file.h"

namespace pgconflint {

/// A byte range in one file of an analysis. `file` indexes Analysis::files;
/// -1 means the root as a whole (no line to point at).
struct Location {
  int file = -1;
  Range range;
};

/// A related location with what it says ("set again here").
struct Note {
  Location where;
  std::string message;
};

/// Safe fixes never change what the server does beyond the finding itself and
/// may be applied without review (`check --fix`); unsafe ones need a reader.
enum class FixSafety : uint8_t { kSafe, kUnsafe };

/// Replaces the bytes of `where.range` in `where.file` with `text` (an empty
/// range inserts).
struct Edit {
  Location where;
  std::string text;
};

struct Fix {
  std::string title;  // imperative: "quote the value", "rename to work_mem"
  FixSafety safety = FixSafety::kUnsafe;
  std::vector<Edit> edits;  // non-overlapping
};

/// Bit flags for editors (LSP DiagnosticTag).
enum DiagnosticTag : uint8_t {
  kTagNone = 0,
  kTagUnnecessary = 1,  // a dead line: overridden, ignored
  kTagDeprecated = 2,   // an old parameter name
};

/// A finding about the same setting that was folded into this one (PGC701
/// into PGC404): reported as data, not only as text.
struct Also {
  const RuleInfo* rule = nullptr;
  std::string message;
};

struct Diagnostic {
  const RuleInfo* rule = nullptr;  // never null once built; built-in or owned by a RuleSet that outlives it
  /// What the server does; severity() and fatal() derive from it.
  Outcome outcome = Outcome::kAdvisory;
  /// The severity of advice and of skipped lines (the rule's, or the
  /// project configuration's override); a refusal is an error whatever it says.
  Severity level = Severity::kWarning;
  int file = -1;       // primary location: index into Analysis::files; -1 when not tied to a file
  Range range;
  std::string parameter;  // empty when not about one parameter
  std::string message;    // what is wrong; never a file:line
  std::string help;       // what to do
  std::vector<Note> notes;
  std::vector<Fix> fixes;
  uint8_t tags = kTagNone;
  std::vector<Also> also;  // folded findings about the same setting

  Location where() const { return {file, range}; }
  /// Every refusal is an error; otherwise the level.
  Severity severity() const { return IsRefusal(outcome) ? Severity::kError : level; }
  /// PostgreSQL refuses to start with this.
  bool fatal() const { return outcome == Outcome::kRefusesStart; }
  /// States what the server does, and the severity of a finding that is not a refusal.
  void Set(Outcome o, Severity advice_level) {
    outcome = o;
    level = advice_level;
  }
};

/// The one way to start a diagnostic: the outcome and the level default to
/// the rule's declaration.
Diagnostic MakeDiagnostic(const RuleInfo& rule, Location where, std::string message, std::string help = "",
                          std::string parameter = "");

/// A fix with one edit.
Fix MakeFix(std::string title, FixSafety safety, Location where, std::string text);

/// The edits of the fixes accepted so far for one file, none overlapping: a
/// fix is taken whole or not at all. Each Add costs O(log n).
class EditSet {
 public:
  /// For `file` (an index into Analysis::files) of `size` bytes.
  EditSet(size_t size, int file) : size_(size), file_(file) {}
  /// Takes `fix` when it has an edit in the file and none of them overlaps
  /// an accepted edit (or inserts where one starts); false otherwise.
  bool Add(const Fix& fix);
  int fixes() const { return fixes_; }
  /// The accepted edits, in text order.
  std::vector<const Edit*> edits() const;
  /// `text` (the file's bytes) with the accepted edits applied.
  std::string Apply(const std::string& text) const;

 private:
  size_t size_;
  int file_;
  int fixes_ = 0;
  std::map<uint32_t, const Edit*> by_begin_;
};

/// Applies the edits of `fixes` that fall in `file` to `text` (the file's
/// bytes). A fix whose edits overlap an earlier fix's is skipped whole;
/// *applied (optional) counts the fixes applied. Bytes outside the edits are
/// unchanged.
std::string ApplyFixes(const std::string& text, int file, const std::vector<const Fix*>& fixes,
                       int* applied = nullptr);

/// The edits ApplyFixes makes to `file` (of `size` bytes), in text order: an
/// editor applies them itself (the LSP server's "fix all").
std::vector<const Edit*> CompatibleEdits(size_t size, int file, const std::vector<const Fix*>& fixes,
                                         int* applied = nullptr);

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_MODEL_DIAGNOSTIC_H_
