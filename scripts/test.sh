#!/usr/bin/env bash
# Installs, builds and runs the whole test suite. First the Release tool
# (build/) through the integration suites, while the sanitized tree builds:
# golden outputs, the real-world corpus, the catalog check, the differential
# suites against real PostgreSQL servers of every supported major, SQL and
# live servers, the CI formats and pre-commit. Then the same sources built with clang-14, ASan+UBSan and
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
start=$SECONDS
stage() { echo "== test.sh: $1 after $((SECONDS - start)) s" >&2; }
scripts/setup.sh --tests
stage "setup and the Release build"

# Sanitizers: any report aborts the test (CMake gives every test of build-asan/
# the ASAN_OPTIONS and UBSAN_OPTIONS it needs, the leak check included).
# -O1 with line tables only: the reports keep file:line without full debug information.
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPGCONFLINT_WERROR=ON \
      "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only -DNDEBUG" \
      "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only -DNDEBUG" \
      -DPGCONFLINT_BENCHMARKS=OFF -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 \
      -DPGCONFLINT_SANITIZE=address,undefined -DPGCONFLINT_FUZZ=ON \
      "-DPGCONFLINT_EMBED=$root/build/pgconflint_embed" >/dev/null

# The sanitized tree builds (niced, in its own process group, its output in
# build-asan/build.log) while the Release tree's suites run: those spend much
# of their time waiting on PostgreSQL (initdb, pg_ctl start and stop, reloads),
# time the compiler uses. The editor suites are left out here: they run once,
# on the sanitized binary, below.
setsid nice -n 10 /usr/bin/time -f "%e s, %U s user + %S s system" -o build-asan/build.time \
  cmake --build build-asan >build-asan/build.log 2>&1 &
asan_build=$!
trap 'kill -- -$asan_build 2>/dev/null || true' EXIT
# A failing stage does not stop the later ones: the run reports every failure,
# and exits 1 at the end.
status=0
ctest --test-dir build --output-on-failure -j2 -LE '^editor$' || status=1
stage "the Release suites (unit tests excepted: below, sanitized)"
if ! wait $asan_build; then
  tail -n 100 build-asan/build.log
  exit 1
fi
trap - EXIT
stage "the sanitized build ($(cat build-asan/build.time))"
# One pool on the sanitized binaries: the unit tests (two shards), a short run of
# every fuzz harness, the editor server's suites and the hostile suite, the
# longest first.
ctest --test-dir build-asan --output-on-failure -j2 \
      -R '^(unit[.]|fuzz[.]|integration[.]lsp[.]|integration[.]hostile$)' || status=1
stage "the sanitized unit tests, fuzz runs, editor and hostile suites"
exit $status
