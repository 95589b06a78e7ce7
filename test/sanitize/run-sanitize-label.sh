#!/usr/bin/env bash
# The `sanitize` label in CI (issue 22): configure and build a second tree
# with ASan+UBSan (GCC's, so CI needs no clang), then run its `ctest -L
# sanitize` (unit tests, determinism, fuzz regressions and the front-end /
# object / SASS / driver lit directories; test/CMakeLists.txt). The main
# ctest runs this script as its test `sanitize-label` when configured with
# -DPTXAS_ALT_TEST_SANITIZE_BUILD=ON (the README's test command does), so
# one ctest summary covers both builds.
#
# -O1 without debug info: about the compile time of the normal Release
# build; asserts stay on (no -DNDEBUG) so they can fire under the label.
set -euo pipefail
src=$1 build=$2 shared=$3
jobs=${PTXAS_ALT_SANITIZE_JOBS:-2}
cmake -S "$src" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1" "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O1" \
  -DPTXAS_ALT_SANITIZE=ON -DPTXAS_ALT_BUILD_BENCH=OFF \
  -DPTXAS_ALT_TEST_SANITIZE_BUILD=OFF "-DPTXAS_ALT_SHARED_DIR=$shared"
cmake --build "$build" -j "$jobs" --target sanitize-label-deps
ctest --test-dir "$build" -L sanitize --output-on-failure -j "$jobs"
