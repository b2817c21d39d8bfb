#!/usr/bin/env bash
# The differential fuzzer: K generated cases against a real PostgreSQL N.
#   scripts/fuzz-differential.sh --major N --cases K --seed S [--out DIR] [--show M]
# Needs the build (build/pgconflint, or PGCONFLINT) and the servers of
# scripts/fetch-postgres.sh. Ends with "K cases, D disagreements"; exit 0 only
# when D is 0. See docs/fidelity.md.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
export PYTHONDONTWRITEBYTECODE=1
exec /usr/bin/python3 "$root/tests/integration/fuzz_differential.py" "$@"
