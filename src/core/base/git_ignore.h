// The ignore rules of a work tree's .gitignore files, as git reads them
// (gitignore(5)): the walk that looks for configuration roots skips what
// the tree says is not part of it (build trees, generated files). Only the
// files committed in the tree count, never .git/info/exclude or a user's
// global excludes: the verdict must not depend on the machine.
#ifndef PGCONFLINT_CORE_BASE_GIT_IGNORE_H_
#define PGCONFLINT_CORE_BASE_GIT_IGNORE_H_

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace pgconflint {

class GitIgnore {
 public:
  /// Adds the patterns of the .gitignore `text` of directory `dir`
  /// (absolute, canonical). Add parents before their subdirectories.
  void Add(const std::string& dir, std::string_view text);

  /// Whether `abs` (absolute, canonical; `is_dir`: a directory) is ignored
  /// by the patterns of the directories above it: the last pattern that
  /// matches decides, a deeper .gitignore after a shallower one, and `!`
  /// re-includes. Its parent directories are not looked at (a walk does not
  /// enter an ignored directory).
  bool Ignored(const std::string& abs, bool is_dir) const;

 private:
  struct Pattern {
    std::vector<std::string> segments;  // split at '/'; "**" matches any number of directories
    bool anchored = false;              // holds a '/': matched from the .gitignore's directory
    bool dir_only = false;              // ended with '/'
    bool negated = false;               // began with '!'
  };
  std::map<std::string, std::vector<Pattern>> by_dir_;
};

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_BASE_GIT_IGNORE_H_
