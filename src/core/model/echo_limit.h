// Bounding what an output echoes of the input (core/base/limits.h kMaxEchoBytes):
// a huge value or line is reported by its start and end.
#ifndef PGCONFLINT_CORE_MODEL_ECHO_LIMIT_H_
#define PGCONFLINT_CORE_MODEL_ECHO_LIMIT_H_

#include <string>
#include <string_view>

namespace pgconflint {

struct Analysis;

/// `s` itself when it is at most kMaxEchoBytes long; otherwise its first
/// and last bytes (cut at code point boundaries) around
/// " ... [N bytes not shown] ... ", at most kMaxEchoBytes in all.
std::string Abridged(std::string_view s);

/// Where a window of at most kMaxEchoBytes of a line starts and ends
/// (offsets into the line, code point boundaries), keeping [begin, end) (or
/// as much of it as fits, from begin) in view.
struct EchoWindow {
  size_t begin = 0, end = 0;
};
EchoWindow WindowAround(std::string_view line, size_t begin, size_t end);

/// Abridges what `a` reports: messages, help, notes, fix titles, setting
/// and tablespace values. A fix whose edit text is longer than
/// kMaxEchoBytes is dropped (an edit is applied as it is, never cut).
/// For the reports only: the analysis is not linted again.
void AbridgeEchoes(Analysis* a);

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_MODEL_ECHO_LIMIT_H_
