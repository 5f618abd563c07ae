#!/bin/sh
# block_local.sh - a one-node job in block mode grants its misses locally
# (dsm/access.c local_grant): no engine round trip, so no miss counted, and
# dsm_finalize still forbids stores to what it made writable (node.c
# forbid_stores walks only the blocks ever made writable).  tests/blk_local
# (tests/block_local.c) at 64-byte blocks:
#   1 node   result OK, the stats file's home and stache misses are 0 (the
#            engine path counted one per block touched: 2 x 16384 writes)
#   2 nodes  the same program counts its misses: the local path is for a
#            one-node job only
#   late     a store after dsm_finalize to the last (late-first: the first)
#            block made writable on one node is named, the job fails
top=${top_builddir:-.}
dsmrun=${DSMRUN:-$top/dsmrun}
prog=$top/tests/blk_local
[ -x "$prog" ] || { echo "block_local.sh: $prog is not built (no LLVM): skipped"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/block_local.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0
export DSM_BLOCK_SIZE=64 DSM_PROFILE=off

misses() { # the sum of the six miss counts over the job
    awk -F'\t' '$1 == "total" && ($2 == "stacheReadMisses" || $2 == "homeReadMisses" ||
        $2 == "stacheWriteRO" || $2 == "homeWriteRO" || $2 == "stacheWriteInv" ||
        $2 == "homeWriteInv") { m += $3; seen++ } END { print seen == 6 ? m : "missing" }' "$1"
}

for n in 1 2; do
    DSM_STATS="$tmp/st$n" timeout -k 5 100 "$dsmrun" -n "$n" --timeout 90 "$prog" > "$tmp/out$n" 2>&1
    rc=$?
    if [ $rc -ne 0 ] || ! grep -q "block_local: nodes $n sum .* OK" "$tmp/out$n"; then
        echo "FAIL: $n node(s): status $rc"; cat "$tmp/out$n"; fail=1; continue
    fi
    m=$(misses "$tmp/st$n")
    if [ "$n" = 1 ] && [ "$m" != 0 ]; then
        echo "FAIL: 1 node: $m misses counted, expected 0 (local grants)"; fail=1
    elif [ "$n" = 2 ] && { [ "$m" = missing ] || [ "$m" -lt 16384 ]; }; then
        echo "FAIL: 2 nodes: $m misses counted, expected at least 16384"; fail=1
    else
        echo "ok   $n node(s): $m misses"
    fi
done

want='dsm: node 0: write: store to shared memory at 0x[0-9a-f]+ after dsm_finalize'
for late in late late-first; do
    out=$(timeout -k 5 60 "$dsmrun" -n 1 --timeout 30 "$prog" $late 2>&1)
    rc=$?
    if [ $rc -eq 0 ] || [ $rc -eq 124 ] || ! printf '%s\n' "$out" | grep -Eq "$want"; then
        echo "FAIL $late: status $rc, want /$want/:"; printf '%s\n' "$out" | sed 's/^/    /'; fail=1
    else
        echo "ok   $late: status $rc: $(printf '%s\n' "$out" | grep -E "$want" | head -1)"
    fi
done
exit $fail
