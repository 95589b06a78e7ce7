#!/bin/sh
# cmake --install into a temporary prefix, then build and run, out of tree:
# a C++ program through find_package(ptxas-alt CONFIG) -> ptxas-alt::compiler,
# and a C program written against NVIDIA's PTX Compiler API through
# pkg-config, linked shared and static. Each must write the cubin the
# installed ptxas-alt writes for the same PTX.
# usage: install-test.sh BUILD_DIR SOURCE_DIR PTX
set -eu
BUILD=$1 SRC=$2 PTX=$3
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cmake --install "$BUILD" --prefix "$T/prefix" > "$T/install.log"
P=$T/prefix
test -x "$P/bin/ptxas-alt"
"$P/bin/ptxas-alt" -arch=sm_80 "$PTX" -o "$T/cli.cubin"
# The C program passes --gpu-name=sm_80 --verbose (recorded in the cubin).
"$P/bin/ptxas-alt" --gpu-name=sm_80 --verbose "$PTX" -o "$T/cli-v.cubin" 2> /dev/null

cmake -S "$SRC/test/install/cxx" -B "$T/cxx" -G Ninja \
  -DCMAKE_PREFIX_PATH="$P" -DCMAKE_BUILD_TYPE=Release > "$T/cxx.log"
cmake --build "$T/cxx" > "$T/cxx-build.log"
"$T/cxx/user" "$PTX" sm_80 "$T/cxx.cubin" > "$T/cxx.out"
grep -q "function reduce registers [0-9]* shared 512" "$T/cxx.out"
cmp "$T/cli.cubin" "$T/cxx.cubin"

export PKG_CONFIG_PATH="$P/lib/pkgconfig"
cc -o "$T/c-shared" "$SRC/test/install/c/main.c" \
  $(pkg-config --cflags --libs ptxas-alt) -Wl,-rpath,"$P/lib"
"$T/c-shared" "$PTX" sm_80 "$T/c-shared.cubin" > "$T/c-shared.out"
grep -q "^version 13.0" "$T/c-shared.out"
grep -q "Used [0-9]* registers" "$T/c-shared.out"
grep -q "error log: ptx:4:31: error: undefined identifier" "$T/c-shared.out"
cmp "$T/cli-v.cubin" "$T/c-shared.cubin"
cc -o "$T/c-static" "$SRC/test/install/c/main.c" \
  $(pkg-config --cflags --libs ptxas-alt-static)
"$T/c-static" "$PTX" sm_80 "$T/c-static.cubin" > /dev/null
cmp "$T/cli-v.cubin" "$T/c-static.cubin"
# Only the APIs are exported: no LLVM symbols to clash with a host's own.
if nm -D --defined-only "$P/lib/libptxas-alt.so" | grep -q llvm; then
  echo "libptxas-alt.so exports LLVM symbols" >&2
  exit 1
fi
echo "install test passed"
