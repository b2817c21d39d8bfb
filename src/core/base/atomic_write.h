// Writing a file so that readers see either the old bytes or the new ones,
// never a half-written file: `check --output`, `check --fix` and the rule
// pages (`pgconflint docs`) all write through here.
#ifndef PGCONFLINT_CORE_BASE_ATOMIC_WRITE_H_
#define PGCONFLINT_CORE_BASE_ATOMIC_WRITE_H_

#include <string>

namespace pgconflint {

/// Writes `content` to `path` atomically: a temp file in the same directory,
/// fsync, rename over `path`, fsync of the directory. An existing file keeps
/// its owner, group and permission bits; a new one gets 0666 less the umask.
/// A symbolic link is followed: its target is replaced, the link stays. A
/// file with other hard links, one this process may not write, or one whose
/// owner cannot be kept is not written. False with *error ("PATH: cause") on
/// failure; `path` is then unchanged and no temp file is left.
bool WriteFileAtomically(const std::string& path, const std::string& content, std::string* error);

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_BASE_ATOMIC_WRITE_H_
