// Passwords in connection strings, and keeping them out of every output.
// A value is secret by its shape, not by its parameter: the value of a
// password or sslpassword keyword (ASCII case ignored, as a reader would)
// in a key=value connection string, and the password of a postgres:// URI
// (its userinfo, or ?password=). So primary_conninfo, an extension's
// conninfo parameter, a libpq message that echoes a connection string and a
// snapshot's rows are masked alike.
#ifndef PGCONFLINT_CORE_MODEL_SECRETS_H_
#define PGCONFLINT_CORE_MODEL_SECRETS_H_

#include <string>
#include <string_view>
#include <vector>

#include "core/base/source_file.h"

namespace pgconflint {

struct Analysis;

/// What replaces a secret in a message or a value.
inline constexpr std::string_view kSecretMask = "*****";

/// The byte ranges of the secrets in `text` (any text: a value, a line of a
/// file, a message), in order, without overlaps.
std::vector<Range> SecretRanges(std::string_view text);

/// The secrets in `text` as they may be echoed: as written, and as a
/// reader of the string understands them (a URI's percent-decoding, a quoted
/// value's escapes undone). Empty ones are left out.
std::vector<std::string> SecretsIn(std::string_view text);

/// `text` with each secret range replaced by kSecretMask.
std::string MaskSecrets(std::string_view text);

/// `text` with each secret range replaced by kSecretMask and every
/// occurrence of `known` (secrets of 3 or more bytes found elsewhere)
/// replaced as well: for messages that echo a secret without its keyword
/// (libpq: `invalid percent-encoded token: "hunter2%zz"`).
std::string ScrubSecrets(std::string_view text, const std::vector<std::string>& known);

/// Masks every secret in what `a` reports: messages, help, notes, fixes,
/// setting values, and the text of its files (where each secret character
/// becomes one of the same byte length, so that every offset, line and
/// column stays). A secret echoed without its keyword is found for the 64
/// longest distinct secrets (linear time on any input); every secret is
/// masked where its keyword or URI shape shows it. For the reports only: the
/// analysis is not linted again.
void RedactSecrets(Analysis* a);

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_MODEL_SECRETS_H_
