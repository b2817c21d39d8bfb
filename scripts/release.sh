#!/usr/bin/env bash
# Builds the release artifacts into dist/ from a clean checkout (Debian 12, as
# root: it installs what it needs, as scripts/setup.sh does):
#   pgconflint-VERSION-linux-x86_64.tar.gz, pgconflint-VERSION-linux-aarch64.tar.gz
#       a static binary (no shared library at all; live mode opens libpq.so.5),
#       the man page, bash, zsh and fish completions, README.md
#   pgconflint_VERSION_amd64.deb, pgconflint_VERSION_arm64.deb
#       /usr/bin/pgconflint (the same objects linked against the system's C library:
#       dynamic/pgconflint of the build), the man page and completions in Debian's
#       places, the editor files under /usr/share/pgconflint/editors
#   pgconflint-VERSION.vsix
#       the VS Code extension (editors/vscode, packaged with @vscode/vsce from npm)
#       carrying the linux-x64 server, which it uses unless pgconflint.serverPath is set
#   SHA256SUMS over every file
# VERSION is CMake's project(VERSION). aarch64 is cross-compiled with Debian's
# cross toolchain and run under qemu-aarch64-static before it is packaged. The
# builds are reproducible: SOURCE_DATE_EPOCH is the commit's time, paths are
# mapped away from the checkout, archives carry fixed owners, order and times.
#
#   scripts/release.sh                      everything, into dist/
#   scripts/release.sh --arch x86_64        one architecture
#   --binary x86_64=PATH                    package PATH instead of building it, and
#                                           dynamic/pgconflint beside it in the .deb
#                                           (tests/integration/test_release.py)
#   --out DIR                               another output directory
#   --no-setup                              install nothing
#   --no-vsix                               no VS Code package (needs npm)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
out="$root/dist"
arches=()
declare -A given=()
setup=yes
vsix=yes
while [ $# -gt 0 ]; do
  case "$1" in
    --arch) arches+=("$2"); shift 2 ;;
    --binary) given[${2%%=*}]=$(realpath "${2#*=}"); shift 2 ;;
    --out) mkdir -p "$2"; out=$(cd "$2" && pwd); shift 2 ;;
    --no-setup) setup=no; shift ;;
    --no-vsix) vsix=no; shift ;;
    *) echo "release.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
[ ${#arches[@]} -gt 0 ] || arches=(x86_64 aarch64)
for a in "${arches[@]}"; do
  case "$a" in x86_64|aarch64) ;; *) echo "release.sh: unknown architecture $a" >&2; exit 2 ;; esac
done

version=$(sed -n 's/^project(pgconflint VERSION \([0-9][0-9.]*\) .*/\1/p' CMakeLists.txt)
[ -n "$version" ] || { echo "release.sh: no project(VERSION) in CMakeLists.txt" >&2; exit 1; }
if [ -z "${SOURCE_DATE_EPOCH:-}" ]; then
  SOURCE_DATE_EPOCH=$(git log -1 --format=%ct 2>/dev/null || echo 0)
fi
export SOURCE_DATE_EPOCH TZ=UTC LC_ALL=C

needs_build=no
for a in "${arches[@]}"; do [ -n "${given[$a]:-}" ] || needs_build=yes; done
if [ "$setup" = yes ]; then
  scripts/setup.sh --release
fi

# The build for the machine itself comes first: the cross build runs its table
# generator, and the man page and completions are written by it.
build_arch() {
  local arch=$1 dir="$root/build-release/$1"
  local flags=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DPGCONFLINT_WERROR=ON -DPGCONFLINT_STATIC=ON
               -DPGCONFLINT_TESTS=OFF -DPGCONFLINT_BENCHMARKS=OFF
               "-DCMAKE_C_FLAGS=-ffile-prefix-map=$root=. -ffile-prefix-map=$dir=build"
               "-DCMAKE_CXX_FLAGS=-ffile-prefix-map=$root=. -ffile-prefix-map=$dir=build")
  if [ "$arch" = aarch64 ]; then
    flags+=("--toolchain=$root/scripts/aarch64-linux-gnu.cmake"
            "-DPGCONFLINT_EMBED=$root/build-release/x86_64/pgconflint_embed"
            -DPGCONFLINT_LIBPQ_INCLUDE_DIR=/usr/include/postgresql)
  fi
  local targets=(pgconflint pgconflint_dynamic)
  if [ "$arch" = x86_64 ]; then targets+=(pgconflint_embed); fi
  cmake -S "$root" -B "$dir" "${flags[@]}" >/dev/null
  cmake --build "$dir" --target "${targets[@]}"
}
if [ "$needs_build" = yes ]; then
  if [ -z "${given[x86_64]:-}" ]; then
    build_arch x86_64
    given[x86_64]=$root/build-release/x86_64/pgconflint
  elif printf '%s\n' "${arches[@]}" | grep -qx aarch64; then
    build_arch x86_64  # the generator for the cross build
  fi
  for a in "${arches[@]}"; do
    if [ -z "${given[$a]:-}" ]; then build_arch "$a"; given[$a]=$root/build-release/$a/pgconflint; fi
  done
fi
host_tool=${given[x86_64]:-$root/build-release/x86_64/pgconflint}
"$host_tool" --version | head -n 1 | grep -qx "pgconflint $version (commit .*)" ||
  { echo "release.sh: $host_tool --version does not say $version" >&2; exit 1; }

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$out"
# Files under $1 get the commit's time, so that archives do not depend on when they were made.
clamp() { find "$1" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +; }
archive() {  # archive DIR NAME.tar.gz: DIR's base name as the top folder
  tar -C "$(dirname "$1")" --sort=name --mtime="@$SOURCE_DATE_EPOCH" --owner=0 --group=0 --numeric-owner \
      --format=gnu -cf - "$(basename "$1")" | gzip -n -9 >"$2.tmp"
  mv "$2.tmp" "$2"
}
texts() {  # the man page and completions, written by the machine's own binary
  "$host_tool" man | gzip -n -9 >"$1/pgconflint.1.gz"
  "$host_tool" completions bash >"$1/pgconflint.bash"
  "$host_tool" completions zsh >"$1/_pgconflint"
  "$host_tool" completions fish >"$1/pgconflint.fish"
}
mkdir -p "$stage/texts"
texts "$stage/texts"

for arch in "${arches[@]}"; do
  bin=${given[$arch]}
  case "$arch" in
    x86_64) deb_arch=amd64; strip=strip; objdump=objdump; run=(); run_dynamic=() ;;
    aarch64) deb_arch=arm64; strip=aarch64-linux-gnu-strip; objdump=aarch64-linux-gnu-objdump
             run=(qemu-aarch64-static); run_dynamic=(qemu-aarch64-static -L /usr/aarch64-linux-gnu) ;;
  esac
  file -b "$bin" | grep -q "statically linked" ||
    { echo "release.sh: $bin is not statically linked" >&2; exit 1; }
  dyn=$(dirname "$bin")/dynamic/pgconflint
  [ -x "$dyn" ] || { echo "release.sh: $dyn (the .deb's binary) is missing" >&2; exit 1; }
  # The binary as shipped: stripped, then run on its own architecture (under qemu for aarch64).
  mkdir -p "$stage/$arch"
  "$strip" --strip-all -o "$stage/$arch/pgconflint" "$bin"
  mkdir -p "$stage/$arch/dynamic"
  "$strip" --strip-all -o "$stage/$arch/dynamic/pgconflint" "$dyn"
  "${run[@]}" "$stage/$arch/pgconflint" --version | head -n 1 | grep -qx "pgconflint $version (commit .*)" ||
    { echo "release.sh: the $arch binary does not run" >&2; exit 1; }
  "${run_dynamic[@]}" "$stage/$arch/dynamic/pgconflint" --version | head -n 1 | grep -qx "pgconflint $version (commit .*)" ||
    { echo "release.sh: the $arch binary of the .deb does not run" >&2; exit 1; }

  name=pgconflint-$version-linux-$arch
  t="$stage/tar/$name"
  mkdir -p "$t/completions"
  install -m 0755 "$stage/$arch/pgconflint" "$t/pgconflint"
  install -m 0644 "$stage/texts/pgconflint.1.gz" "$t/pgconflint.1.gz"
  install -m 0644 "$stage/texts/pgconflint.bash" "$stage/texts/_pgconflint" "$stage/texts/pgconflint.fish" \
          "$t/completions/"
  install -m 0644 README.md "$t/README.md"
  if [ -f LICENSE ]; then install -m 0644 LICENSE "$t/LICENSE"; fi
  clamp "$t"
  archive "$t" "$out/$name.tar.gz"

  d="$stage/deb/$arch"
  mkdir -p "$d/DEBIAN" "$d/usr/bin" "$d/usr/share/man/man1" "$d/usr/share/bash-completion/completions" \
           "$d/usr/share/zsh/vendor-completions" "$d/usr/share/fish/vendor_completions.d" \
           "$d/usr/share/doc/pgconflint" "$d/usr/share/pgconflint"
  install -m 0755 "$stage/$arch/dynamic/pgconflint" "$d/usr/bin/pgconflint"
  # The newest glibc symbol version it needs (libstdc++ and libgcc are linked in).
  glibc=$("$objdump" -T "$d/usr/bin/pgconflint" | grep -o 'GLIBC_[0-9][0-9.]*' | sed 's/GLIBC_//' | sort -V | tail -n 1)
  install -m 0644 "$stage/texts/pgconflint.1.gz" "$d/usr/share/man/man1/pgconflint.1.gz"
  install -m 0644 "$stage/texts/pgconflint.bash" "$d/usr/share/bash-completion/completions/pgconflint"
  install -m 0644 "$stage/texts/_pgconflint" "$d/usr/share/zsh/vendor-completions/_pgconflint"
  install -m 0644 "$stage/texts/pgconflint.fish" "$d/usr/share/fish/vendor_completions.d/pgconflint.fish"
  git ls-files -z editors | tar --null -T - -cf - | tar -C "$d/usr/share/pgconflint" -xf -
  find "$d/usr/share/pgconflint" -type d -exec chmod 0755 {} + -o -type f -exec chmod 0644 {} +
  cat >"$d/usr/share/doc/pgconflint/copyright" <<EOF
pgconflint $version
Upstream: the pgconflint project.
No licence has been chosen for pgconflint yet: its repository holds no LICENSE file.
EOF
  printf 'pgconflint (%s) unstable; urgency=medium\n\n  * Release %s.\n\n -- pgconflint <pgconflint@users.noreply.github.com>  %s\n' \
    "$version" "$version" "$(date -u -d "@$SOURCE_DATE_EPOCH" -R)" | gzip -n -9 >"$d/usr/share/doc/pgconflint/changelog.gz"
  chmod 0644 "$d/usr/share/doc/pgconflint/"*
  size=$(du -sk --exclude=DEBIAN "$d" | cut -f1)
  cat >"$d/DEBIAN/control" <<EOF
Package: pgconflint
Version: $version
Architecture: $deb_arch
Maintainer: pgconflint <pgconflint@users.noreply.github.com>
Installed-Size: $size
Section: database
Priority: optional
Depends: libc6 (>= $glibc)
Suggests: libpq5
Description: PostgreSQL configuration linter
 pgconflint checks postgresql.conf and its includes, postgresql.auto.conf,
 pg_hba.conf, pg_ident.conf and the configuration statements of SQL scripts
 as PostgreSQL reads them, for PostgreSQL 14 to 18, and recommends settings
 for the machine and its storage. It runs as a command, a pre-commit hook, in
 CI, and as a language server for editors. Live mode (libpq5) reads running
 servers.
EOF
  (cd "$d" && find usr -type f -print0 | sort -z | xargs -0 md5sum >DEBIAN/md5sums)
  chmod 0644 "$d/DEBIAN/control" "$d/DEBIAN/md5sums"
  clamp "$d"
  dpkg-deb --root-owner-group -Zxz --build "$d" "$out/pgconflint_${version}_$deb_arch.deb.tmp" >/dev/null
  mv "$out/pgconflint_${version}_$deb_arch.deb.tmp" "$out/pgconflint_${version}_$deb_arch.deb"
done

# The VS Code extension with the x86_64 server (VS Code's target linux-x64). Its npm
# dependencies are resolved when it is made (the extension has no lock file), so the .vsix
# is the one artifact that two runs may make differently.
if [ "$vsix" = yes ] && [ -d "$stage/x86_64" ]; then
  v="$stage/vscode"
  mkdir -p "$v"
  git ls-files -z editors/vscode | tar --null -T - -cf - | tar -C "$v" --strip-components=2 -xf -
  npm_dir="$root/build-release/npm"
  mkdir -p "$npm_dir"
  [ -x "$npm_dir/node_modules/.bin/vsce" ] ||
    npm install --silent --no-audit --no-fund --prefix "$npm_dir" @vscode/vsce@3 >/dev/null
  (cd "$v" && npm install --silent --no-audit --no-fund >/dev/null && ./node_modules/.bin/tsc -p .)
  mkdir -p "$v/server"
  install -m 0755 "$stage/x86_64/pgconflint" "$v/server/pgconflint"
  clamp "$v"
  (cd "$v" && "$npm_dir/node_modules/.bin/vsce" package --target linux-x64 --skip-license \
     --allow-missing-repository --out "$out/pgconflint-$version.vsix" >/dev/null)
fi

(cd "$out" && find . -maxdepth 1 -type f ! -name SHA256SUMS ! -name '*.tmp' -printf '%f\n' | sort |
   xargs sha256sum >SHA256SUMS.tmp && mv SHA256SUMS.tmp SHA256SUMS)
echo "release.sh: $out" >&2
cat "$out/SHA256SUMS"
