#!/usr/bin/env bash
# The `pgconflint-build` pre-commit hook (.pre-commit-hooks.yaml): builds
# pgconflint from the hook's checkout into build-pre-commit/ on first use
# (the dependencies of scripts/setup.sh must be installed), then runs it with
# the hook's arguments in the caller's directory.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
bin="$here/build-pre-commit/pgconflint"
if [ ! -x "$bin" ]; then
  echo "pgconflint: building from $here (first run of the hook)" >&2
  cmake -S "$here" -B "$here/build-pre-commit" -G Ninja -DCMAKE_BUILD_TYPE=Release \
        -DPGCONFLINT_TESTS=OFF -DPGCONFLINT_BENCHMARKS=OFF >/dev/null
  cmake --build "$here/build-pre-commit" --target pgconflint >&2
fi
exec "$bin" "$@"
