// What `check` lints for the PATHs it was given: a data directory or root
// file as itself; a fragment (conf.d/10-memory.conf) in the context of every
// root that includes it, reporting only what concerns the fragment; standard
// input as if it were a file (--stdin-filename); and, for tools that pass
// file lists (pre-commit), the project configuration's `exclude` and
// `include` applied to explicit paths (--force-exclude).
#ifndef PGCONFLINT_CLI_TARGETS_H_
#define PGCONFLINT_CLI_TARGETS_H_

#include <set>
#include <string>
#include <vector>

#include "core/file_system.h"
#include "core/workspace.h"

namespace pgconflint::cli {

/// What the user asked `check` to look at.
struct CheckInputs {
  std::vector<std::string> paths;
  std::string stdin_filename;  // lint standard input as this file; "" = none
  bool force_exclude = false;
  std::string config;  // --config
  bool no_config = false;
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

/// Keeps the diagnostics of `a` that concern `t.only`: located in one of its
/// files, or with a note there (the line a fragment overrides), or tied to no
/// file. Nothing is removed when `t.only` is empty.
void KeepFindingsIn(const Target& t, Analysis* a);

}  // namespace pgconflint::cli

#endif  // PGCONFLINT_CLI_TARGETS_H_
