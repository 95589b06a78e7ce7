#!/usr/bin/env bash
# regenerate.sh - rebuild the committed SASS golden data of test/golden/sass.
#
# Why: the SASS tables in lib/SASS are checked bit-exactly against what
# NVIDIA ptxas 13 + nvdisasm 12.4 produce. This script is the only way the
# golden files are made, so anybody can re-derive them from the corpus.
#
# Output: test/golden/sass/<set>/<arch>.tsv.xz for set in O3, O0, probes,
# cudaO3, cudaO0, and O1r24 (-O1 --maxrregcount=24: spill-heavy code, not
# in the default list because it is slow; run `regenerate.sh O1r24`).
# cudaO3/cudaO0: the CUDA sources of probes/cuda/*.cu (CCCL algorithms,
# atomics, math, textures/surfaces, tensor-core and sm_90 async inline PTX;
# issue 3's unseen-code check) compiled per arch with `nvcc -ptx` (math.cu
# also with -use_fast_math, as mathfast), then ptxas -O3 / -O0.
# Each file keeps sass-golden's columns (function emptied), with rows
# deduplicated by (arch, lo, hi) (first occurrence wins; its offset is kept
# because branch targets print as absolute addresses). To keep the data at a
# few MB, at most $PER_SHAPE (8) rows are kept per "shape": the guard + sass
# text with register numbers and numbers abstracted (R12 -> R#, 0x10 -> X).
# Shapes keep every modifier/operand-kind combination that was seen.
# The raw, unreduced TSVs stay in $CACHE (~/.cache/ptxas-alt/golden-raw).
#
# Usage: test/golden/sass/regenerate.sh [set ...]
#        (default: O3 O0 probes cudaO3 cudaO0)
# Needs: ptxas on PATH (and nvcc for the cuda sets), /work/shared/tools (or
# $SHARED_TOOLS), python3, xz.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
SHARED="${SHARED:-$(cd "$HERE/../../../../shared" 2>/dev/null && pwd || echo /work/shared)}"
TOOLS="${SHARED_TOOLS:-$SHARED/tools}"
CORPUS="$SHARED/corpus"
ARCHS="${ARCHS:-sm_75 sm_80 sm_86 sm_89 sm_90 sm_90a}"
JOBS="${JOBS:-2}"
SETS=("$@"); [ ${#SETS[@]} -eq 0 ] && SETS=(O3 O0 probes cudaO3 cudaO0)
export NVDISASM="${NVDISASM:-$("$TOOLS/install-nvidia-tools")/nvdisasm}"
TMP="$(mktemp -d)"; trap 'rm -rf "$TMP"' EXIT
CACHE="${CACHE:-$HOME/.cache/ptxas-alt/golden-raw}"; mkdir -p "$CACHE"
export PER_SHAPE="${PER_SHAPE:-8}"

golden() { "$TOOLS/sass-golden" --allow-failures --jobs "$JOBS" --no-header "$@"; }

for set in "${SETS[@]}"; do
  mkdir -p "$HERE/$set"
  for arch in $ARCHS; do
    raw="$CACHE/$set.$arch.tsv"
    if [ -s "$raw" ] && [ -z "${FORCE:-}" ]; then :; else : > "$raw"
    if [ "$set" = probes ]; then
      golden --arch "$arch" --ptxas-opt=-O3 "$HERE"/probes/*.ptx >> "$raw" || true
    elif [ "$set" = cudaO3 ] || [ "$set" = cudaO0 ]; then
      # A source that does not compile for an arch (sm_90 features) is
      # skipped for it; the PTX keeps the name <source>.<arch>.ptx.
      mkdir -p "$TMP/ptx"; rm -f "$TMP"/ptx/*
      for cu in "$HERE"/probes/cuda/*.cu; do
        b="$(basename "$cu" .cu)"
        nvcc -arch="$arch" -ptx -std=c++17 --extended-lambda "$cu" \
          -o "$TMP/ptx/$b.$arch.ptx" 2>/dev/null || rm -f "$TMP/ptx/$b.$arch.ptx"
        if [ "$b" = math ]; then
          nvcc -arch="$arch" -ptx -std=c++17 -use_fast_math "$cu" \
            -o "$TMP/ptx/mathfast.$arch.ptx" 2>/dev/null ||
            rm -f "$TMP/ptx/mathfast.$arch.ptx"
        fi
      done
      golden --arch "$arch" --ptxas-opt=-"${set#cuda}" "$TMP"/ptx/*.ptx \
        >> "$raw" || true
    else
      # Group the arch's corpus files by their ptxas_flags column.
      awk -F'\t' -v a="$arch" 'NR>1 && $2==a {print $9 "\t" $1}' \
        "$CORPUS/MANIFEST.tsv" > "$TMP/files"
      for flags in $(cut -f1 "$TMP/files" | sort -u); do
        mapfile -t files < <(awk -F'\t' -v f="$flags" -v c="$CORPUS" \
          '$1==f {print c "/" $2}' "$TMP/files")
        extra=(); [ "$flags" != - ] && extra=(--ptxas-opt="$flags")
        opts=(--ptxas-opt=-"$set")
        [ "$set" = O1r24 ] && opts=(--ptxas-opt="-O1 --maxrregcount=24")
        golden --arch "$arch" "${opts[@]}" "${extra[@]}" "${files[@]}" \
          >> "$raw" || true
      done
    fi
    fi
    python3 - "$raw" "$HERE/$set/$arch.tsv" <<'PY'
import collections, os, re, sys
def shape(pred, sass):
    s = pred + " " + sass
    s = re.sub(r"\b(U?R|U?P|B|SR_)\d+", r"\1#", s)
    s = re.sub(r"0x[0-9a-f]+", "X", s)
    return re.sub(r"\b\d+(\.\d+)?(e[+-]\d+)?\b", "N", s)
per_shape = int(os.environ.get("PER_SHAPE", "8"))
shapes = collections.Counter()
src, dst = sys.argv[1], sys.argv[2]
cols = ("arch ptx function offset pred opcode sass lo hi stall_105_108 "
        "yield_109 wbar_110_112 rbar_113_115 wait_116_121 reuse_122_125").split()
seen, out = set(), ["\t".join(cols)]
for line in open(src):
    f = line.rstrip("\n").split("\t")
    if len(f) != len(cols) or f[0] == "arch":
        continue
    key = (f[0], f[7], f[8])
    if key in seen:
        continue
    seen.add(key)
    sh = shape(f[4], f[6])
    if shapes[sh] >= per_shape:
        continue
    shapes[sh] += 1
    f[1] = os.path.basename(f[1])
    f[2] = ""
    out.append("\t".join(f))
open(dst, "w").write("\n".join(out) + "\n")
print(f"{dst}: {len(out) - 1} unique rows", file=sys.stderr)
PY
    xz -9e -f "$HERE/$set/$arch.tsv"
  done
done
