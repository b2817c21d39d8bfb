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

# The sanitized tree builds (niced, in its own process group, its output in
# build-asan/build.log) while the Release tree's suites run: those spend much
# of their time waiting on PostgreSQL (initdb, pg_ctl start and stop, reloads),
# time the compiler uses. The editor suites are left out here: they run once,
# on the sanitized binary, below.
setsid nice -n 10 cmake --build build-asan >build-asan/build.log 2>&1 &
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
stage "the sanitized build"

ctest --test-dir build-asan --output-on-failure -j2 -L '^(unit|fuzz)$' || status=1
stage "the sanitized unit tests and fuzz runs"
# The editor suites and the hostile suite on the sanitized binary: two
# single-threaded drivers, side by side.
logs=build-asan/suite-logs
mkdir -p $logs
PGCONFLINT=$PWD/build-asan/pgconflint PGCONFLINT_SANITIZED=1 PYTHONDONTWRITEBYTECODE=1 \
  /usr/bin/python3 -m pytest -q -p no:cacheprovider tests/lsp >$logs/editor.log 2>&1 &
editor=$!
ASAN_OPTIONS=abort_on_error=1:detect_leaks=0 PGCONFLINT=$PWD/build-asan/pgconflint PGCONFLINT_SANITIZED=1 \
  PYTHONDONTWRITEBYTECODE=1 /usr/bin/python3 tests/integration/test_hostile.py >$logs/hostile.log 2>&1 &
hostile=$!
wait $editor || status=1
cat $logs/editor.log
wait $hostile || status=1
cat $logs/hostile.log
stage "the sanitized editor and hostile suites"
exit $status
