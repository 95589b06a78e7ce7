#!/bin/sh
# fuzz-nightly.sh - the large differential fuzz batch, one command:
#   test/codegen/fuzz-nightly.sh [SEED] [COUNT]
# fresh seed by default (the date), 80 statements per kernel, all six
# targets, -O3 / -O0 / -O3 --maxrregcount 24, failing cases kept
# (minimized) under build/fuzz-nightly/SEED. COUNT cases per target
# (default 150: 2,700 runs, about one CPU-hour on the 2-core machine).
# Runs niced, one job; PTXDIFF_TIMEOUT (seconds per step) as for every
# differential script. Exit 1 on a failure (see docs/fuzzing.md).
set -e
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
seed=${1:-$(date -u +%Y%m%d%H)}
count=${2:-150}
keep="$root/build/fuzz-nightly/$seed"
mkdir -p "$keep"
exec nice -n 10 python3 "$here/fuzz-diff.py" --bin "$root/build/bin" \
  --seed "$seed" --count "$count" --size 80 \
  --archs sm_75,sm_80,sm_86,sm_89,sm_90,sm_90a \
  --opts=-O3 --opts=-O0 '--opts=-O3 --maxrregcount 24' \
  --keep "$keep" -j 1
