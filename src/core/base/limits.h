// Every resource limit of pgconflint, in one place. pgconflint reads untrusted
// input (pull requests, repositories opened in an editor, rule files and
// .pgconflint.toml from the repository under review), so no input may make it
// run without end, exhaust memory or the stack. Each limit below names what
// happens when it is reached; docs/robustness.md lists them with their exit
// codes. Limits that mirror PostgreSQL say so: those are semantics, not ours.
#ifndef PGCONFLINT_CORE_BASE_LIMITS_H_
#define PGCONFLINT_CORE_BASE_LIMITS_H_

#include <cstddef>
#include <cstdint>

namespace pgconflint {

/// The largest file read (bytes), checked before reading: configuration
/// files, rule files, .pgconflint.toml, --running. A larger root is an error
/// (exit 2); a larger included file ends the root's analysis the same way.
inline constexpr uint64_t kMaxFileSize = 256ull << 20;

/// The largest TOML or JSON file read (rule files, .pgconflint.toml,
/// --running): their parsers build a tree many times the size of the text.
/// Larger: a configuration error (exit 2).
inline constexpr uint64_t kMaxDataFileSize = 8ull << 20;

/// Bytes of distinct files read for one root (a file read once and included
/// ten times counts once). Past it the root is not analysed (exit 2).
inline constexpr uint64_t kMaxBytesPerRoot = 512ull << 20;

/// File loads per root, each include of a file counting once: repeated
/// includes multiply at every level (ten lines including a file that has ten
/// lines including another... is 10^10 loads). Past it: a PGC302 finding, and
/// the includes beyond are not expanded (each file is still read only once).
inline constexpr int kMaxFileLoads = 10000;

/// Setting lines (include directives among them), `pgconflint:` comments and
/// syntax errors per root, counted once per load: what the analysis holds in
/// memory grows with them. Past it the root is not analysed (exit 2).
inline constexpr size_t kMaxEntriesPerRoot = 1000000;

/// The most of one text any output echoes: a message, a value, a source
/// line. Longer ones are shown abridged (their start and end, and how many
/// bytes are left out): a 64 MiB value is 1 KiB in every report.
inline constexpr size_t kMaxEchoBytes = 1024;

/// The per-root limits above as one value, so that a reader takes them from
/// its caller (tests lower them; everything else uses these defaults).
struct RootLimits {
  uint64_t max_bytes = kMaxBytesPerRoot;
  size_t max_entries = kMaxEntriesPerRoot;
  int max_file_loads = kMaxFileLoads;
};

/// As PostgreSQL's CONF_FILE_MAX_DEPTH: postgresql.conf is depth 0, each
/// include adds one; deeper is PGC302 (the server fails the same way).
inline constexpr int kMaxIncludeDepth = 10;

/// As ParseConfigFp: at most 100 syntax errors are reported per file, then
/// "too many syntax errors found, abandoning file". Only the first
/// kMaxSyntaxErrors + 1 are kept in memory; the rest are counted.
inline constexpr size_t kMaxSyntaxErrors = 100;

/// Nesting of a rule condition or template expression: each parenthesis,
/// function call, `in [...]` list, `not` and unary minus is one level. Deeper:
/// the rule file is refused (exit 2). Chains (`a or b or ...`) have no limit.
inline constexpr int kMaxExprDepth = 256;

/// Nesting of a JSON document from outside (an LSP message, a snapshot, a
/// server's rows, --running; test_robustness's hover whose params nest 60
/// levels passes). Deeper: refused while parsing (ParseJson,
/// core/base/json_read.h), before copying or writing it could recurse once
/// per level.
inline constexpr int kMaxJsonDepth = 64;

/// Dotted parts of one TOML key or table header (.pgconflint.toml, rule files,
/// extension catalogs): toml++ builds each part by recursion. More: refused
/// (exit 2) before toml++ sees it. Real files have two or three.
inline constexpr size_t kMaxTomlKeyParts = 64;

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_BASE_LIMITS_H_
