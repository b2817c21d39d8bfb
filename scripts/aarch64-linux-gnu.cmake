# Cross-compiling for 64-bit Arm Linux with Debian's cross toolchain
# (g++-aarch64-linux-gnu) and the arm64 libraries of Debian's multiarch
# (libtree-sitter-dev:arm64): scripts/release.sh. The table generator runs on
# the build machine, so a cross build names one with -DPGCONFLINT_EMBED, and
# libpq's headers with -DPGCONFLINT_LIBPQ_INCLUDE_DIR (libpq-dev cannot be
# installed for two architectures at once; its headers are the same).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
# pkg-config answers for arm64 only (tree-sitter's .pc of the arm64 package).
set(ENV{PKG_CONFIG_LIBDIR} "/usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig")
set(ENV{PKG_CONFIG_PATH} "")
# Libraries come from the arm64 directories; headers and CMake packages of
# header-only libraries (nlohmann_json, CLI11, toml++) from the usual places.
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
