#!/bin/bash
# fuzz-family-hour.sh - the differential fuzzer on one statement family
# until its processes have used a given amount of CPU (issue 22: one
# CPU-hour per family):
#   test/codegen/fuzz-family-hour.sh FAMILY ARCHS FIRST_SEED CPU_SECONDS LOG [BIN]
# e.g.  fuzz-family-hour.sh hopper sm_90,sm_90a 75001 3600 /tmp/hopper.log
# Runs fuzz-diff.py one seed at a time (25 cases per target, -O3 / -O0 /
# -O3 --maxrregcount 24, one job, nice 10) and after each seed adds the
# children's user+system CPU (bash's `times`). LOG gets each seed's
# summary line, LOG.chunks every non-ok line; failing cases are kept
# (minimized) under LOG.keep/. BIN defaults to build/bin; point it at a
# copy so that rebuilding the tree does not change the binaries mid-run.
set -u
family=$1 archs=$2 seed=$3 limit=$4 log=$5
here=$(cd "$(dirname "$0")" && pwd)
bin=${6:-$here/../../build/bin}
mkdir -p "$log.keep"
: > "$log.chunks"
cpu_of_children() {
  # `times` prints the shell's, then its children's user and system
  # times; it must run in this shell (not in a $(...) subshell).
  times > "$log.times"
  sed -n 2p "$log.times" | awk '{
    split($1, u, /[ms]/); split($2, s, /[ms]/);
    printf "%d", u[1] * 60 + u[2] + s[1] * 60 + s[2] }'
}
echo "start $(date -u +%FT%TZ) family $family archs $archs seed $seed limit ${limit}s bin $bin" >> "$log"
while :; do
  cpu_of_children > "$log.cpu"
  if [ "$(cat "$log.cpu")" -ge "$limit" ]; then break; fi
  nice -n 10 python3 "$here/fuzz-diff.py" --bin "$bin" --family "$family" \
    --seed "$seed" --count 25 --archs "$archs" \
    --opts=-O3 --opts=-O0 '--opts=-O3 --maxrregcount 24' \
    --keep "$log.keep" -j 1 > "$log.seed" 2>&1
  grep -v '^ok ' "$log.seed" | grep -v ' runs, ' >> "$log.chunks"
  cpu_of_children > "$log.cpu"
  echo "seed $seed: $(tail -1 "$log.seed") children_cpu $(cat "$log.cpu")" >> "$log"
  seed=$((seed + 1))
done
echo "done $(date -u +%FT%TZ) children_cpu $(cat "$log.cpu")s" >> "$log"
