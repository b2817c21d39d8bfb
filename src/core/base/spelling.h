// Spelling suggestions ("did you mean ...?") for names a user typed: the
// closest known name by edit distance, counting a swap of two neighbouring
// letters as one typo (is_flase -> is_false).
#ifndef PGCONFLINT_CORE_BASE_SPELLING_H_
#define PGCONFLINT_CORE_BASE_SPELLING_H_

#include <cstddef>
#include <string>
#include <string_view>

namespace pgconflint {

/// Optimal string alignment distance: insertions, deletions, substitutions and
/// transpositions of neighbours each cost 1. ASCII case-insensitive.
size_t TypoDistance(std::string_view a, std::string_view b);

/// Collects the candidate closest to a misspelt name. A candidate qualifies
/// within a typo's distance: a third of the name's length, at least 2. Ties
/// keep the first candidate offered.
class Suggester {
 public:
  explicit Suggester(std::string_view name);
  void Consider(std::string_view candidate);
  /// The best candidate so far; empty when none qualified.
  const std::string& best() const { return best_; }
  /// " (did you mean \"best\"?)", or "" when there is no suggestion.
  std::string Hint() const;

 private:
  std::string name_;
  size_t budget_;
  size_t best_distance_;
  std::string best_;
};

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_BASE_SPELLING_H_
