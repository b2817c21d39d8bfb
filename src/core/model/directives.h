// The one reader of `# pgconflint:` comment directives. It reads only real
// comments (the parser's CommentLine list), never text inside quoted values:
//
//   shared_buffers = 64kB  # pgconflint: disable=PGC202 # why it is fine
//   # pgconflint: disable=io-workers-ignored because the proxy terminates TLS
//   # pgconflint: disable-file=PGC303
//   # pgconflint: pg-version=17
//   # pgconflint: file-type=hba            (the first line only)
//
// Items are `key=value`; free text after the items is the reason (a second
// '#' is optional). `file-type=conf|hba|ident` on a file's first line is the
// marker the editor integrations pick a language by; the classifier reads a
// file that no root includes as what it says (FirstLineFileType).
#ifndef PGCONFLINT_CORE_MODEL_DIRECTIVES_H_
#define PGCONFLINT_CORE_MODEL_DIRECTIVES_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/source_file.h"
#include "core/model/syntax.h"

namespace pgconflint {

struct Directive {
  enum class Kind : uint8_t {
    kDisableLine,  // a trailing comment: its own line
    kDisableNext,  // a comment on its own line: the next line with a setting or a syntax error
    kDisableFile,  // the whole file
    kPgVersion,
  };
  Kind kind = Kind::kDisableLine;
  Range comment;      // the whole comment
  uint32_t line = 0;  // the line it applies to (0 when a kDisableNext has no following line)
  std::vector<std::string> selectors;  // disable*: codes, names or prefixes, as written
  int pg_version = 0;                  // kPgVersion: the major, or 0 when malformed
  std::string version_text;            // kPgVersion: as written
};

/// A comment that starts with "pgconflint:" but says nothing understood.
struct MalformedDirective {
  Range comment;
  std::string item;  // the offending item ("" for an empty directive)
};

struct FileDirectives {
  std::vector<Directive> directives;
  std::vector<MalformedDirective> malformed;
};

/// The directives of one file (`text` and its parse), in order.
FileDirectives ReadDirectives(std::string_view text, const ParsedFile& parsed);

/// What the first line's `# pgconflint: file-type=conf|hba|ident` says the
/// file is (blanks allowed around '=', as the editors' patterns allow), or
/// kNone when the first line has no such marker.
enum class MarkedFileType : uint8_t { kNone, kConf, kHba, kIdent };
MarkedFileType FirstLineFileType(std::string_view text);

/// The `pg-version=N` of a file's directives (the first one), or 0.
int PgVersionDirective(std::string_view text, const ParsedFile& parsed);

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_MODEL_DIRECTIVES_H_
