// Stable identities for diagnostics, for CI: SARIF partialFingerprints,
// GitLab's fingerprint, and matching findings between two revisions. A
// fingerprint is the rule code, the parameter, the file's path relative to a
// base directory and the occurrence number among the diagnostics that share
// those three: never a line number or a line's text, so inserting or moving
// lines keeps every fingerprint.
#ifndef PGCONFLINT_CORE_MODEL_FINGERPRINT_H_
#define PGCONFLINT_CORE_MODEL_FINGERPRINT_H_

#include <string>
#include <vector>

#include "core/model/analysis.h"

namespace pgconflint {

/// One fingerprint per diagnostic of `a`, in order: 16 hex digits. Files
/// below `base` (absolute) are named relative to it; others by their
/// absolute path. Diagnostics without a file use the root as given.
std::vector<std::string> Fingerprints(const Analysis& a, const std::string& base);

/// The fingerprints of a whole report (one vector per analysis, in order),
/// with occurrences counted across the analyses, so that each fingerprint is
/// unique in the report even when two roots include the same file.
std::vector<std::vector<std::string>> ReportFingerprints(const std::vector<Analysis>& analyses,
                                                         const std::string& base);

/// `abs` relative to the directory `base` (absolute) when it lies below it,
/// else `abs` unchanged. The path fingerprints use, and the one CI formats
/// show relative to the repository.
std::string PathBelow(const std::string& abs, const std::string& base);

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_MODEL_FINGERPRINT_H_
