// PGC305: a file outside the tree being checked.
#include "core/model/outside_tree.h"

#include "core/rules/rules.h"
#include "core/base/strings.h"

namespace pgconflint {

Diagnostic OutsideTreeDiagnostic(const FileSystem& fs, const std::string& abs, const std::string& display, bool dir,
                                 bool strict, const std::vector<std::string>& trees, Location where) {
  const std::string tree = CommaList(trees);
  bool in_tree = false;
  for (const std::string& t : trees) in_tree = in_tree || abs.compare(0, t.size() + 1, t + "/") == 0;
  const std::string real = in_tree ? fs.RealPath(abs) : abs;
  return MakeDiagnostic(
      Rule(RuleId::kIncludeOutsideTree), where,
      std::string(dir ? "configuration directory " : "configuration file ") + DoubleQuoted(display) +
          (real == abs ? "" : " (resolving to " + DoubleQuoted(real) + ")") + " is outside the tree being checked (" +
          tree + "): not read",
      "pgconflint reads no file outside the checked tree unless asked, so that a repository cannot make it print a "
      "host file; PostgreSQL reads it on the server" +
          std::string(strict ? " (and does not start without it)" : "") +
          ". Pass --allow-outside-includes to check this machine's copy");
}

}  // namespace pgconflint
