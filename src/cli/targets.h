// What `check` lints for the PATHs it was given, as the workspace's
// classifier says (core/conf/classify.h): a data directory or root file as
// itself; any other file (a conf.d fragment, postgresql.auto.conf,
// pg_hba.conf, a file pg_hba.conf includes) in the context of every root
// that reads it, reporting what concerns the file and what it includes;
// other programs' files not at all; standard input as if it were a file
// (--stdin-filename); and, for tools that pass file lists (pre-commit), the
// project configuration's `exclude` applied to explicit paths
// (--force-exclude).
#ifndef PGCONFLINT_CLI_TARGETS_H_
#define PGCONFLINT_CLI_TARGETS_H_

#include <set>
#include <string>
#include <vector>

#include "core/base/file_system.h"
#include "core/workspace/workspace.h"

namespace pgconflint::cli {

/// What the user asked `check` to look at.
struct CheckInputs {
  std::vector<std::string> paths;
  std::string stdin_filename;  // lint standard input as this file; "" = none
  bool force_exclude = false;
  bool verbose = false;  // say what each file is and why (--verbose)
};

/// One root to lint, and which of its files the user asked about.
struct Target {
  std::string root;            // as the report shows it
  std::set<std::string> only;  // absolute paths; empty: report the whole root
};

/// The targets for `in`, in the order of the PATHs (one per root). Standard
/// input, when asked for, is read into `overlay` first. Notes (a fragment no
/// root includes) go to standard error. False with *error on a usage problem
/// (a bad .pgconflint.toml, unreadable standard input).
bool PlanTargets(Workspace* ws, OverlayFileSystem* overlay, const CheckInputs& in, std::vector<Target>* out,
                 std::string* error);

/// Reads standard input whole (at most kMaxFileSize bytes); false with *error.
bool ReadStdin(std::string* text, std::string* error);

/// Keeps the diagnostics of `a` that concern `t.only` (core KeepFindingsOf:
/// its files and what they include), each once across the targets of a run
/// (`seen`, optional).
void KeepFindingsIn(const Target& t, Analysis* a, std::set<std::string>* seen = nullptr);

}  // namespace pgconflint::cli

#endif  // PGCONFLINT_CLI_TARGETS_H_
