#!/usr/bin/env bash
# Regenerates the tree-sitter parser in src/grammar from src/grammar/grammar.js
# and runs the grammar's corpus tests (src/grammar/test/corpus/*.txt).
#
# The tree-sitter CLI is not packaged in Debian 12, so this script fetches
# Debian 13's tree-sitter-cli (plus the libc6/libgcc-s1 it needs) from the
# Debian mirror with a private apt configuration (the system's apt state is
# not touched), unpacks it under .cache/tree-sitter-cli and runs it through
# the unpacked dynamic loader.  Later runs reuse the cache.
#
# Usage: scripts/regenerate-parser.sh [--no-test] [--test-only]
# Needs: apt-get, dpkg (Debian), node (to evaluate grammar.js), a C compiler
#        (for `tree-sitter test`).
# Env:   TREE_SITTER_CLI_DIR  cache dir (default: <repo>/.cache/tree-sitter-cli)
#        DEBIAN_MIRROR        (default: the URI of the system's Debian source,
#                              else http://deb.debian.org/debian)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
grammar="$root/src/grammar"
cache=${TREE_SITTER_CLI_DIR:-$root/.cache/tree-sitter-cli}
suite=trixie
abi=14   # libtree-sitter 0.20.7 (Debian 12) supports ABI 13..14

run_generate=1
run_test=1
for arg in "$@"; do
  case $arg in
    --no-test) run_test=0 ;;
    --test-only) run_generate=0 ;;
    -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
    *) echo "regenerate-parser.sh: unknown argument: $arg" >&2; exit 2 ;;
  esac
done

die() {
  echo "regenerate-parser.sh: $*" >&2
  exit 1
}

ld_so="$cache/root/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2"
libdir="$cache/root/usr/lib/x86_64-linux-gnu"
cli_bin="$cache/root/usr/bin/tree-sitter"

tree_sitter() {
  "$ld_so" --library-path "$libdir" "$cli_bin" "$@"
}

cli_works() {
  [ -x "$ld_so" ] && [ -x "$cli_bin" ] && tree_sitter --version >/dev/null 2>&1
}

fetch_cli() {
  [ "$(uname -m)" = x86_64 ] || die "only x86_64 is supported (got $(uname -m))"
  if ! command -v apt-get >/dev/null || ! command -v dpkg >/dev/null; then
    die "cannot obtain the tree-sitter CLI: apt-get and dpkg are required (Debian)"
  fi
  local keyring=/usr/share/keyrings/debian-archive-keyring.gpg
  [ -r "$keyring" ] || die "cannot obtain the tree-sitter CLI: $keyring is missing"

  local mirror=${DEBIAN_MIRROR:-}
  if [ -z "$mirror" ] && [ -r /etc/apt/sources.list.d/debian.sources ]; then
    # First URIs: line of the system's own deb822 source.
    mirror=$(awk '/^URIs:/ { print $2; exit }' /etc/apt/sources.list.d/debian.sources)
  fi
  mirror=${mirror:-http://deb.debian.org/debian}

  local tmp
  tmp=$(mktemp -d)
  # shellcheck disable=SC2064
  trap "rm -rf '$tmp'" RETURN
  mkdir -p "$tmp/lists/partial" "$tmp/cache/archives/partial" "$tmp/debs"
  echo "deb [signed-by=$keyring] $mirror $suite main" >"$tmp/sources.list"
  local apt_opts=(
    -o "Dir::Etc::sourcelist=$tmp/sources.list"
    -o "Dir::Etc::sourceparts=-"
    -o "Dir::State::Lists=$tmp/lists"
    -o "Dir::Cache=$tmp/cache"
    -o "APT::Sandbox::User=root"
  )
  echo "regenerate-parser.sh: fetching tree-sitter-cli from $mirror $suite ..." >&2
  if ! apt-get "${apt_opts[@]}" -qq update >"$tmp/apt.log" 2>&1; then
    cat "$tmp/apt.log" >&2
    die "cannot obtain the tree-sitter CLI: 'apt-get update' for $mirror $suite failed"
  fi
  # apt-get update exits 0 when a mirror is unreachable; check for an index.
  if ! compgen -G "$tmp/lists/*_Packages*" >/dev/null; then
    cat "$tmp/apt.log" >&2
    die "cannot obtain the tree-sitter CLI: no package index from $mirror $suite (mirror unreachable?)"
  fi
  if ! (cd "$tmp/debs" && apt-get "${apt_opts[@]}" -qq download tree-sitter-cli libc6 libgcc-s1) \
      >"$tmp/apt.log" 2>&1; then
    cat "$tmp/apt.log" >&2
    die "cannot obtain the tree-sitter CLI: 'apt-get download tree-sitter-cli libc6 libgcc-s1' failed"
  fi
  rm -rf "$cache.tmp"
  mkdir -p "$cache.tmp/root"
  local deb
  for deb in "$tmp"/debs/*.deb; do
    dpkg -x "$deb" "$cache.tmp/root" || die "cannot unpack $(basename "$deb")"
    basename "$deb" >>"$cache.tmp/PACKAGES"
  done
  rm -rf "$cache" && mv "$cache.tmp" "$cache"
  cli_works || die "cannot run the unpacked tree-sitter CLI in $cache"
}

if ! cli_works; then
  fetch_cli
fi
echo "regenerate-parser.sh: using $(tree_sitter --version)" >&2

command -v node >/dev/null || die "node is required to evaluate grammar.js"
export TREE_SITTER_JS_RUNTIME=${TREE_SITTER_JS_RUNTIME:-node}
# Keep the CLI's compiled-parser cache and config out of $HOME.
export TREE_SITTER_LIBDIR="$cache/lib"
export XDG_CACHE_HOME="$cache/xdg-cache"
export XDG_CONFIG_HOME="$cache/xdg-config"
mkdir -p "$TREE_SITTER_LIBDIR" "$XDG_CACHE_HOME" "$XDG_CONFIG_HOME"

cd "$grammar"

if [ "$run_generate" = 1 ]; then
  tree_sitter generate --no-bindings --abi "$abi" grammar.js
  version=$(awk '/^#define LANGUAGE_VERSION / { print $3 }' src/parser.c)
  [ "$version" = "$abi" ] ||
    die "src/parser.c has LANGUAGE_VERSION ${version:-?}, expected $abi"
  echo "regenerate-parser.sh: generated src/parser.c (LANGUAGE_VERSION $version)" >&2
fi

if [ "$run_test" = 1 ]; then
  tree_sitter test
fi
