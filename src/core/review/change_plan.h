// The configuration plan of a change: what a change of configuration files
// (two git revisions, or two directories) does to one root. For a reviewer:
// each parameter whose value changes (configured and, where the server uses
// another, effective), what applying it takes, the changed lines that have no
// effect because a later file overrides them, the findings introduced, fixed
// and unchanged (matched by fingerprint, so moved lines are not "new"), the
// rollout (core/advice/rollout.h) and, with a profile's RAM, the memory budget
// before and after.
#ifndef PGCONFLINT_CORE_REVIEW_CHANGE_PLAN_H_
#define PGCONFLINT_CORE_REVIEW_CHANGE_PLAN_H_

#include <optional>
#include <string>
#include <vector>

#include "core/model/analysis.h"
#include "core/rules/profile.h"
#include "core/advice/rollout.h"

namespace pgconflint {

/// A parameter whose value changes.
struct ValueChange {
  const Parameter* param = nullptr;  // the new revision's catalog entry
  std::string before, after;         // in the server's units ("128MB"); the boot value when no line sets it
  bool before_default = false, after_default = false;
  /// What the server really uses, when it differs from the configured value
  /// (io_combine_limit capped, -1 resolved); "" otherwise.
  std::string before_effective, after_effective;
  std::string applies;  // "restart", "reload", "reload (or SET as superuser)", "reload (or per session)", ...
  Location where;       // the deciding line in the new revision; file -1 when none (back to the default)
  /// The value the deciding line writes when the server refuses it ("'2gb'"):
  /// the server keeps what it runs, and `after` is not what it would apply.
  std::string refused;
};

/// A changed line that does not change the server's value: a later line
/// (often postgresql.auto.conf) sets the parameter again.
struct IneffectiveChange {
  std::string parameter;
  std::string written;  // the value as written on the changed line
  Location where;       // the changed line
  Location winner;      // the line that decides instead
};

/// A finding of either revision.
struct FindingRef {
  const Analysis* analysis = nullptr;
  const Diagnostic* diagnostic = nullptr;
};

/// The worst-case memory of a revision, by part (bytes), against RAM.
struct MemoryPicture {
  double shared = 0;       // shared_buffers + wal_buffers
  double work = 0;         // connections x work_mem x nodes x hash_mem_multiplier
  double parallel = 0;     // the memory model's parallel workers x the same
  double maintenance = 0;  // maintenance_work_mem + autovacuum workers x autovacuum_work_mem
  double ram = 0;
  double headroom = 0;     // the profile's share of RAM kept for the OS, in bytes
  double total() const { return shared + work + parallel + maintenance; }
  double free() const { return ram - headroom - total(); }  // negative: over budget
};

/// The plan of one root.
struct RootChange {
  std::string root;
  const Analysis* before = nullptr;  // the analyses compared (null where the root is missing)
  const Analysis* after = nullptr;
  bool added = false, removed = false;  // the root exists in one revision only
  std::vector<ValueChange> values;
  std::vector<IneffectiveChange> ineffective;
  std::vector<FindingRef> introduced, fixed, unchanged;
  /// Findings of both revisions with the same fingerprint whose figures
  /// changed materially (a quantity with a unit, more than 10%): the same
  /// problem at another size. Not in `unchanged`.
  std::vector<std::pair<FindingRef, FindingRef>> changed;  // (before, after)
  Rollout rollout;
  /// The new revision's findings with which PostgreSQL refuses to start. When
  /// there are any, the plan has no rollout (no step may restart into them)
  /// and lists only the parameters whose lines change.
  std::vector<FindingRef> blocking;
  RolloutSource source = RolloutSource::kFiles;  // kScript for a SQL script
  int major = 0;
  std::optional<MemoryPicture> memory_before, memory_after;  // with the profile's RAM only
};

/// Compares one root in two revisions. `before` is null for a root the old
/// revision does not have (`after` null: one the new revision removed);
/// `base_before` and `base_after` are the directories each revision's paths
/// are relative to (for fingerprints). `changed` lists the absolute paths
/// (in `after`) of the files the change touches, to find lines without
/// effect. REQUIRES: the analyses outlive the result; at least one non-null.
RootChange CompareRoot(const Analysis* before, const Analysis* after, const std::string& base_before,
                       const std::string& base_after, const std::vector<std::string>& changed, const Profile& profile);

/// The worst-case memory picture of an analysed root under `profile`.
/// REQUIRES: profile.ram_bytes, a.catalog.
MemoryPicture MemoryPictureOf(const Analysis& a, const Profile& profile);

/// Whether two messages of one finding state materially different figures:
/// their quantities with a unit ("25GB", "1.5s", "40%"), in order, differ in
/// number, in kind, or one of them by more than 10%. Numbers without a unit
/// (line numbers, counts) are not compared.
bool FiguresDiffer(std::string_view before, std::string_view after);

/// How a change of `param` in a configuration file reaches the server.
std::string ApplyingTakes(const Parameter& param);

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_REVIEW_CHANGE_PLAN_H_
