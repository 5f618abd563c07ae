#!/bin/sh
# block_stress.sh - two nodes x two threads hammer one block in block mode
# at 64-byte and 4-KiB blocks; no update may be lost.  The statistics must
# show the block changing hands (write misses on both nodes), or the test
# proved nothing.
#  - tests/blk_stress.c: atomic and plain updates, memcpy: the per-access
#    checks and their window;
#  - tests/block_ranges.c (tests/blk_ranges): plain increments in a loop the
#    pass versions, so they run after one range check under a range window;
#    its count of fast entries (DSMCHECK_COUNT) must be non-zero on every
#    node, or the range windows were not exercised; its second loop
#    scatters through loaded indices into another contended block, a check
#    in the fast copy whose misses reopen the range window
#    (__dsm_blk_miss_ranges): its fast entries are counted too.
. "${srcdir:-.}/tests/block_env.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/block_stress.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
st=0
for t in $block_transports; do
    for bs in 64 4096; do
        DSM_STATS=$tmp/stats.txt
        export DSM_STATS
        rm -f "$tmp/stats.txt"
        run_block $t $bs -n 2 -e "blk_stress: .*: OK" tests/blk_stress -t 2 -s 1 || st=1
        moves=$(awk '$1 == "total" && ($2 == "stacheWriteInv" || $2 == "homeWriteInv") { n += $3 }
                     END { print n + 0 }' "$tmp/stats.txt" 2>/dev/null)
        echo "block_stress: $t, $bs B: the block changed hands ${moves:-0} times"
        if [ "${moves:-0}" -lt 4 ]; then
            echo "block_stress: FAIL: fewer than 4 write misses: the nodes did not contend"
            st=1
        fi
        rm -f "$tmp/stats.txt"
        run_block $t $bs -n 2 -e "blk_ranges: .*: OK" tests/blk_ranges -t 2 -s 1 > "$tmp/ranges.out" 2>&1 || st=1
        cat "$tmp/ranges.out"
        moves=$(awk '$1 == "total" && ($2 == "stacheWriteInv" || $2 == "homeWriteInv" ||
                     $2 == "stacheWriteRO" || $2 == "homeWriteRO") { n += $3 }
                     END { print n + 0 }' "$tmp/stats.txt" 2>/dev/null)
        fast=$(grep -c "dsmcheck-count: add_one: loop at depth 1 fast=[1-9]" "$tmp/ranges.out")
        sfast=$(grep -c "dsmcheck-count: add_scatter: loop at depth 1 fast=[1-9]" "$tmp/ranges.out")
        echo "block_stress: ranges, $t, $bs B: the block changed hands ${moves:-0} times," \
            "$fast node(s) ran the loop in its fast copy, $sfast the scatter loop"
        if [ "${moves:-0}" -lt 4 ] || [ "$fast" -lt 2 ] || [ "$sfast" -lt 2 ]; then
            echo "block_stress: FAIL: the nodes did not contend in versioned loops"
            st=1
        fi
    done
done
exit $st
