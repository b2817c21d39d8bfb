// Reading pg_hba.conf and pg_ident.conf into an analysis: which files a root
// names (a data directory's own, hba_file / ident_file of postgresql.conf, or
// the file given), the tokenizer that reads them with their @files and
// includes through the FileCache, and the lint of both (refusals and the
// rules of rules/hba.toml). Workspace::Lint calls LintAuthFiles; the editor
// server finds the parsed lines in Analysis::auth.
#ifndef PGCONFLINT_CORE_HBA_HBA_SOURCE_H_
#define PGCONFLINT_CORE_HBA_HBA_SOURCE_H_

#include <string>
#include <vector>

#include "core/model/analysis.h"
#include "core/hba/hba.h"
#include "core/rules/profile.h"
#include "core/model/settings_source.h"

namespace pgconflint {

/// What kind of file a PATH given to `check` is.
enum class RootFileType : uint8_t {
  kAuto,   // by name: pg_hba.conf / pg_ident.conf, else a postgresql.conf tree
  kConf,   // a postgresql.conf tree (or a data directory)
  kHba,    // a pg_hba.conf
  kIdent,  // a pg_ident.conf
};
/// "auto", "conf", "hba", "ident"; false when `text` is none of them.
bool ParseRootFileType(const std::string& text, RootFileType* out);

/// An include or @file of pg_hba.conf / pg_ident.conf outside the checked
/// tree: not read.
struct OutsideRead {
  int file = -1;  // the file whose line names it
  Range line;     // that line
  std::string path;
};

struct AuthReadContext {
  FileCache* files = nullptr;   // REQUIRES: non-null
  Analysis* analysis = nullptr; // REQUIRES: non-null; files are appended to it
  std::string display_base;     // as CollectContext::display_base
  int major = Catalog::DefaultMajor();
  /// Files whose real path lies outside these directories are not read
  /// (ReadStatus::kNotReadable, saying why) unless allow_outside: a
  /// repository's hba_file = '/etc/shadow' must not echo a host file.
  std::vector<std::string> trees;
  bool allow_outside = true;
  /// Receives the includes and @files outside `trees` that were not read
  /// (when not allow_outside); may be null.
  std::vector<OutsideRead>* outside = nullptr;
};

/// Tokenizes analysis->files[file] as the server's tokenize_auth_file does at
/// depth 0, reading @files and (16+) included files through ctx.files and
/// appending them to the analysis. Lines are in the server's order.
std::vector<AuthLine> TokenizeAuthFile(const AuthReadContext& ctx, int file);

/// Appends the file at `abs_path` to the analysis (once per path and
/// inclusion site kind) and returns its index, or -1 with *status and *error.
int AddAuthFile(const AuthReadContext& ctx, const std::string& abs_path, IncludeSite from, int depth,
                FileKind kind, ReadStatus* status, std::string* error);

struct ServerHbaRule;
struct ServerIdentMapping;

struct AuthLintOptions {
  RootFileType root_type = RootFileType::kAuto;
  /// Rows of a running server's views to compare with (PGC845); null: none.
  const std::vector<ServerHbaRule>* server_hba = nullptr;
  const std::vector<ServerIdentMapping>* server_ident = nullptr;
  /// The rows are the server's rules in force (drift): compare by content
  /// (CompareInForce), not line by line.
  bool in_force = false;
};

/// Lints the authentication files of a root whose postgresql.conf tree (if
/// any) is already in `a` with its passes run: a data directory's
/// pg_hba.conf and pg_ident.conf (or the files hba_file and ident_file name,
/// core/conf/classify.h's MapServerPath onto the tree), a config file's
/// explicitly named ones, or the root itself when options.root_type says it
/// is a pg_hba.conf / pg_ident.conf on its own (the workspace's classifier
/// decides; kAuto is a postgresql.conf tree). Sets a->auth and adds files
/// and diagnostics. Profile facts used: gssapi, os.
void LintAuthFiles(const CollectContext& context, const std::string& root, const AuthLintOptions& options,
                   const Profile& profile, Analysis* a);

/// A snapshot's analysis (core/server/snapshot_source.h): the advice rules
/// of rules/hba.toml over the pg_hba.conf it rebuilt from pg_hba_file_rules,
/// judged with the server's running settings and the profile.
void LintServerAuthRows(const CollectContext& context, const Profile& profile, Analysis* a);

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_HBA_HBA_SOURCE_H_
