#!/usr/bin/env bash
# Installs, builds and runs the whole test suite. First the Release tool
# (build/) through the integration suites: golden outputs, the real-world
# corpus, the catalog check, the differential suites against real PostgreSQL
# 14-18 servers, SQL and live servers, the CI formats, pre-commit and the
# editor server. Then the same sources built with clang-14, ASan+UBSan and
# libFuzzer instrumentation (build-asan/): the unit tests and properties (the
# rule fixtures and the real-world corpus under every major among them), a
# short run of every fuzz harness, the editor server's suites, and the
# hostile-input suite. Run as root on
# Debian 12 (the suites start servers as an unprivileged user they create).
#
# scripts/test.sh --quick is the inner loop: a non-sanitized tree of its own
# (build-quick/: Release, the unit tests, no unity batches, so that a one-line
# change recompiles one file) and the tests that need no PostgreSQL server:
# `ctest -L '^(unit|cli|editor)$'` (tests/integration/README.md lists the labels).
# The full command stays the gate.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
if [ "${1:-}" = "--quick" ]; then
  scripts/setup.sh --tests --no-build
  if [ ! -f build-quick/CMakeCache.txt ]; then  # once: the tree reconfigures itself on changes
    cmake -S . -B build-quick -G Ninja -DCMAKE_BUILD_TYPE=Release -DPGCONFLINT_WERROR=ON \
          -DPGCONFLINT_UNIT_TESTS=ON -DPGCONFLINT_BENCHMARKS=OFF -DPGCONFLINT_UNITY=OFF >/dev/null
  fi
  cmake --build build-quick
  exec ctest --test-dir build-quick --output-on-failure -j2 -L '^(unit|cli|editor)$'
fi
scripts/setup.sh --tests

ctest --test-dir build --output-on-failure -j2

# Sanitizers: any report aborts the run (-fno-sanitize-recover). Leaks are
# checked in the unit tests, the fuzz harnesses and the editor server (a
# long-running process: every session of its suites ends with `exit` and its
# report is read); not in the CLI runs of the hostile suite, because `check`
# deliberately exits without freeing its workspace (start-up/exit time).
export ASAN_OPTIONS=abort_on_error=1:detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# -O1 with line tables only: the reports keep file:line without full debug information.
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPGCONFLINT_WERROR=ON \
      "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only -DNDEBUG" \
      "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only -DNDEBUG" \
      -DPGCONFLINT_BENCHMARKS=OFF -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 \
      -DPGCONFLINT_SANITIZE=address,undefined -DPGCONFLINT_FUZZ=ON >/dev/null
cmake --build build-asan
ctest --test-dir build-asan --output-on-failure -j2 -E '^integration[.]'
PGCONFLINT=$PWD/build-asan/pgconflint PGCONFLINT_SANITIZED=1 PYTHONDONTWRITEBYTECODE=1 \
  /usr/bin/python3 -m pytest -q -p no:cacheprovider tests/lsp
ASAN_OPTIONS=abort_on_error=1:detect_leaks=0 PGCONFLINT=$PWD/build-asan/pgconflint PGCONFLINT_SANITIZED=1 \
  python3 tests/integration/test_hostile.py
