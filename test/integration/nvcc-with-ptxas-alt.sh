#!/bin/sh
# nvcc with ptxas-alt as its assembler. nvcc runs the ptxas beside itself
# (nvcc.profile prepends its own bin to PATH), so a shadow CUDA tree is made:
# a copy of nvcc and nvcc.profile, links to the rest, and bin/ptxas a
# wrapper that logs its argv and runs ptxas-alt. The multi-file program of
# nvcc/ is built whole-program (-cubin) and separately compiled (-rdc,
# nvlink), and as an executable (host code included); the cubins run equal
# to the nvcc+ptxas builds in the emulator. Then clang --ptxas-path.
# usage: nvcc-with-ptxas-alt.sh BIN_DIR   (exit 77 without nvcc/ptxas)
set -eu
BIN=$1
HERE=$(cd "$(dirname "$0")" && pwd)
NVCC=$(command -v nvcc || true)
if [ -z "$NVCC" ] || ! command -v ptxas > /dev/null; then
  echo "SKIPPED: nvcc/ptxas not found -- oracle NOT run"
  exit 77
fi
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# The nvcc on PATH may be a wrapper script (/usr/local/bin/nvcc execs the
# real one), so ask nvcc where its own bin directory is.
echo '__global__ void k() {}' > "$T/probe.cu"
HERE_BIN=$(nvcc -dryrun -cubin "$T/probe.cu" -o "$T/probe.cubin" 2>&1 |
  sed -n 's/^#\$ _HERE_=//p' | head -n 1)
if [ -z "$HERE_BIN" ] || [ ! -x "$HERE_BIN/nvcc" ]; then
  HERE_BIN=$(dirname "$(readlink -f "$NVCC")")
fi
CUDA=$(cd "$HERE_BIN/.." && pwd)
mkdir -p "$T/cuda/bin"
for f in "$CUDA"/bin/*; do
  b=$(basename "$f")
  case $b in
  ptxas) ;;
  nvcc | nvcc.profile) cp "$f" "$T/cuda/bin/$b" ;;
  *) ln -s "$f" "$T/cuda/bin/$b" ;;
  esac
done
for d in "$CUDA"/*; do
  [ "$(basename "$d")" = bin ] || ln -s "$d" "$T/cuda/$(basename "$d")"
done
cat > "$T/cuda/bin/ptxas" <<WRAP
#!/bin/sh
echo "\$@" >> "$T/ptxas-alt.log"
exec "$BIN/ptxas-alt" "\$@"
WRAP
chmod +x "$T/cuda/bin/ptxas"
ALT=$T/cuda/bin/nvcc
cd "$HERE/nvcc"
run() { "$BIN/sass-run" "$1" --spec scale_add.spec --compare "$2"; }

# Whole program.
"$ALT" -arch=sm_80 -cubin whole.cu -o "$T/whole.alt.cubin"
nvcc -arch=sm_80 -cubin whole.cu -o "$T/whole.ref.cubin"
run "$T/whole.alt.cubin" "$T/whole.ref.cubin"
# Separate compilation: relocatable cubins linked by nvlink.
for f in kernels helper; do
  "$ALT" -arch=sm_80 -rdc=true -cubin $f.cu -o "$T/$f.alt.cubin"
  nvcc -arch=sm_80 -rdc=true -cubin $f.cu -o "$T/$f.ref.cubin"
done
nvlink -arch=sm_80 "$T/kernels.alt.cubin" "$T/helper.alt.cubin" -o "$T/rdc.alt.cubin"
nvlink -arch=sm_80 "$T/kernels.ref.cubin" "$T/helper.ref.cubin" -o "$T/rdc.ref.cubin"
run "$T/rdc.alt.cubin" "$T/rdc.ref.cubin"
# Executables, whole-program and -rdc, host code and all.
"$ALT" -arch=sm_80 main.cu whole.cu -o "$T/app"
"$ALT" -arch=sm_80 -rdc=true main.cu kernels.cu helper.cu -o "$T/app-rdc"
test -x "$T/app" && test -x "$T/app-rdc"
# ptxas-alt did the assembling, as nvcc calls ptxas (-arch, -m64, -c for rdc).
if [ ! -s "$T/ptxas-alt.log" ]; then
  echo "FAILED: nvcc did not run ptxas-alt (shadow tree $T/cuda, CUDA=$CUDA)"
  exit 1
fi
grep -c . "$T/ptxas-alt.log"
grep -q -- "-c" "$T/ptxas-alt.log"
# clang --ptxas-path (when a clang with the CUDA target is installed): clang
# calls `ptxas -m64 -O0 --gpu-name sm_80 --output-file X Y.s`.
if command -v clang++ > /dev/null; then
  CL="clang++ -x cuda -nocudainc -nocudalib --cuda-path=$CUDA --cuda-gpu-arch=sm_80 --cuda-device-only -Wno-unknown-cuda-version -c clang-kernel.cu"
  $CL -o "$T/clang.alt.cubin" --ptxas-path="$T/cuda/bin/ptxas"
  $CL -o "$T/clang.ref.cubin" --ptxas-path="$(command -v ptxas)"
  "$BIN/sass-run" "$T/clang.alt.cubin" --spec clang-kernel.spec --compare "$T/clang.ref.cubin"
  grep -q -- "--gpu-name sm_80 --output-file" "$T/ptxas-alt.log"
fi
echo "nvcc with ptxas-alt: passed"
