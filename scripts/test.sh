#!/usr/bin/env bash
# Installs, builds and runs the whole test suite: unit tests, golden outputs,
# the real-world corpus, the catalog check and the differential suite against
# real PostgreSQL 17 and 18 servers; then the same sources built with clang-14,
# ASan+UBSan and libFuzzer instrumentation (build-asan/): the unit tests, a short
# run of every fuzz harness, and the rule fixtures and the real-world corpus
# under every major. Run as root on Debian 12 (the suites start servers as an
# unprivileged user they create).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
scripts/setup.sh --tests

# Sanitizers: any report aborts the run (-fno-sanitize-recover). No leak check:
# `check` deliberately exits without freeing its workspace (start-up/exit time).
export ASAN_OPTIONS=abort_on_error=1:detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# -O1 with line tables only: the reports keep file:line without full debug information.
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPGCONFLINT_WERROR=ON \
      "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only -DNDEBUG" \
      "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only -DNDEBUG" \
      -DPGCONFLINT_BENCHMARKS=OFF -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 \
      -DPGCONFLINT_SANITIZE=address,undefined -DPGCONFLINT_FUZZ=ON >/dev/null
# The sanitizer build runs (at a lower priority) while the release suites
# run: they wait on servers much of the time, and the two cores stay busy.
nice -n 10 cmake --build build-asan >build-asan/build.log 2>&1 &
asan_build=$!
release_status=0
ctest --test-dir build --output-on-failure -j2 || release_status=$?
if ! wait "$asan_build"; then
  tail -n 60 build-asan/build.log
  echo "test.sh: the sanitizer build failed (build-asan/build.log)" >&2
  exit 1
fi
[ "$release_status" -eq 0 ] || exit "$release_status"
ctest --test-dir build-asan --output-on-failure -j2 -E '^integration[.]'
PGCONFLINT=$PWD/build-asan/pgconflint PGCONFLINT_SANITIZED=1 python3 tests/integration/test_hostile.py
