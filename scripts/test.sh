#!/usr/bin/env bash
# Installs, builds and runs the whole test suite: unit tests, golden outputs,
# the real-world corpus, the catalog check and the differential suite against
# real PostgreSQL 17 and 18 servers. Run as root on Debian 12 (the suites start
# servers as an unprivileged user they create).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
scripts/setup.sh --tests
ctest --test-dir build --output-on-failure -j2
