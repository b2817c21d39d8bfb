// What each term of the main shared memory area costs, per major:
// knowledge/shared_memory.json, measured on real servers by
// scripts/harvest_shared_memory.py and compiled into the binary as tables
// (shared_memory_data.cc). Which terms exist and how many units each counts
// under a configuration is core/model/shared_memory.h; this file only holds
// the measured bytes per unit.
#ifndef PGCONFLINT_CORE_KNOWLEDGE_SHARED_MEMORY_FACTS_H_
#define PGCONFLINT_CORE_KNOWLEDGE_SHARED_MEMORY_FACTS_H_

#include <span>
#include <string_view>

namespace pgconflint {

/// The bytes one unit of a term costs ("buffers": 8332.0 per buffer).
struct ShmemCoefficient {
  const char* term;
  double bytes;
};

/// The measured model of one major.
struct ShmemFacts {
  int major;
  const char* package;       // the release it was measured on ("18.4")
  double max_error;          // bytes: the largest difference from the server over the harvest's points
  std::span<const ShmemCoefficient> coefficients;  // in term order

  /// The bytes per unit of `term`, or nullptr when the harvest has none.
  const double* Find(std::string_view term) const {
    for (const ShmemCoefficient& c : coefficients)
      if (term == c.term) return &c.bytes;
    return nullptr;
  }
};

/// The facts of `major`, or null when none were harvested for it.
const ShmemFacts* ShmemFactsFor(int major);

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_KNOWLEDGE_SHARED_MEMORY_FACTS_H_
