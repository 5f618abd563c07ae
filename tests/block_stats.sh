#!/bin/sh
# block_stats.sh - the statistics and the profile of a run at 32-byte
# blocks, gathered at dsm_finalize in bounded memory.  A pattern record is
# larger than a 32-byte message: the homes ship their records as a stream
# that node 0 joins (dsm/stats.c); shipping whole records per message sent
# empty messages forever, until memory ran out (8.7 GB).  apps/particles
# version 2 (checked twin, tests/block.mk) on 2 nodes with DSM_STATS and
# the profile, under ulimit -v; the stats file must hold both homes'
# pattern records and the profile must say block mode at 32 bytes.
# A step of the test matrix (mode=block: tests/matrix.list), so it runs on
# every transport ($DSMRUN).
top=${top_builddir:-.}
dsmrun=${DSMRUN:-$top/dsmrun}
prog=$top/apps/blk_particles
[ -x "$prog" ] || { echo "block_stats.sh: $prog is not built (no LLVM): skipped"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/block_stats.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
# the region (1 GiB by default) and the shm segment are mapped; the
# gathering itself needs a few MB.  3 GB of address space, far below what
# the runaway took.
limit_kb=3000000
fail=0
(
    # shellcheck disable=SC3045 # dash and bash have ulimit -v
    ulimit -v $limit_kb || exit 99
    DSM_BLOCK_SIZE=32 DSM_STATS="$tmp/stats" DSM_PROFILE="$tmp/dsm-profile.json" \
        timeout -k 10 150 "$dsmrun" -n 2 --timeout 120 "$prog" --version 2 1024 5
) > "$tmp/out" 2>&1
rc=$?
cat "$tmp/out"
if [ $rc -ne 0 ]; then
    echo "FAIL: the run at 32-byte blocks under ulimit -v $limit_kb exited with status $rc"
    exit 1
fi
grep -q "particles: result OK" "$tmp/out" || { echo "FAIL: no result OK"; fail=1; }
head -1 "$tmp/stats" | grep -q "block_size=32$" ||
    { echo "FAIL: stats header: $(head -1 "$tmp/stats")"; fail=1; }
for h in 0 1; do
    n=$(awk -F'\t' -v h="home=$h" '$1 == "pattern" && $10 == h' "$tmp/stats" | wc -l | tr -d ' ')
    echo "block_stats: $n pattern records from home $h"
    [ "$n" -gt 0 ] || { echo "FAIL: no pattern record from home $h"; fail=1; }
done
if ! grep -q '"mode": *"block"' "$tmp/dsm-profile.json" ||
    ! grep -q '"block_size": *32[^0-9]' "$tmp/dsm-profile.json"; then
    echo "FAIL: the profile does not say block mode at 32 bytes"
    fail=1
fi
[ $fail -eq 0 ] && echo "block_stats: statistics and profile at 32-byte blocks gathered"
exit $fail
