#!/usr/bin/env bash
# The `pgconflint-build` pre-commit hook (.pre-commit-hooks.yaml): builds
# pgconflint from the hook's checkout into build-pre-commit/ on first use
# (the dependencies of scripts/setup.sh must be installed), then runs it with
# the hook's arguments in the caller's directory. Hooks that start at once
# (two hook ids, or two repositories sharing pre-commit's cache) build once:
# the first holds a lock while it builds, the others wait for it and reuse
# its build. A build is used only once it has finished (a stamp file), so an
# interrupted one is resumed by the next run.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
out="$here/build-pre-commit"
bin="$out/pgconflint"
stamp="$out/.pgconflint-built"
built() { [ -f "$stamp" ] && [ -x "$bin" ]; }
if ! built; then
  mkdir -p "$out"
  if command -v flock >/dev/null 2>&1; then
    exec 9>"$out/.build.lock"
    if ! flock -n 9; then
      echo "pgconflint: waiting for the build another hook started in $out" >&2
      flock 9
    fi
  fi
  if ! built; then
    echo "pgconflint: building from $here (first run of the hook)" >&2
    cmake -S "$here" -B "$out" -G Ninja -DCMAKE_BUILD_TYPE=Release \
          -DPGCONFLINT_TESTS=OFF -DPGCONFLINT_BENCHMARKS=OFF >/dev/null
    cmake --build "$out" --target pgconflint >&2
    touch "$stamp"
  fi
  exec 9>&-  # the lock is for the build, not the run
fi
exec "$bin" "$@"
