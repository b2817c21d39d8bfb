// PGC001 syntax-error diagnostics for one file: the server's message, a hint
// for the common mistakes, and a fix where one is certain.
#ifndef PGCONFLINT_CORE_MODEL_SYNTAX_DIAGNOSTICS_H_
#define PGCONFLINT_CORE_MODEL_SYNTAX_DIAGNOSTICS_H_

#include "core/model/analysis.h"

namespace pgconflint {

/// Adds a diagnostic for each syntax error of `a->files[file]`, at most 100
/// as ParseConfigFp (then one saying the server abandons the file).
void ReportSyntaxErrors(Analysis* a, int file);

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_MODEL_SYNTAX_DIAGNOSTICS_H_
