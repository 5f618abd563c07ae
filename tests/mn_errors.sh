#!/bin/sh
# mn_errors.sh - bad use ends the whole job within seconds, with a non-zero
# status and one clear line naming the node and the call (issue: DESIGN.md,
# last paragraph).  Each case: mode, node count, pattern the output must hold.
top=${top_builddir:-.}
dsmrun=${DSMRUN:-$top/dsmrun}
prog=$top/tests/mn_misuse
# the matrix's mode axis: mode=block runs the checked twin (tests/block.mk)
[ "${DSM_TEST_MODE:-page}" = block ] && prog=$top/tests/blk_mn_misuse
export DSM_REGION_SIZE=1073741824 # the sizes below are relative to it
fail=0
check() {
    mode=$1 nodes=$2 pattern=$3 arg=${4:-}
    start=$(date +%s)
    out=$(timeout 60 "$dsmrun" -n "$nodes" --timeout 30 "$prog" "$mode" $arg 2>&1)
    rc=$?
    took=$(( $(date +%s) - start ))
    if [ "$rc" -eq 0 ]; then
        echo "FAIL $mode: the job exited 0"; fail=1
    elif [ "$rc" -eq 124 ]; then
        echo "FAIL $mode: the job hung until the timeout"; fail=1
    elif [ "$took" -gt 10 ]; then
        echo "FAIL $mode: took $took s"; fail=1
    elif ! printf '%s\n' "$out" | grep -Eq "$pattern"; then
        echo "FAIL $mode: output lacks /$pattern/:"; printf '%s\n' "$out" | sed 's/^/    /'; fail=1
    else
        echo "ok   $mode (status $rc, ${took}s): $(printf '%s\n' "$out" | grep -E "$pattern" | head -1)"
    fi
}
check before-init 2 'dsm: node \?: dsm_barrier: called before dsm_init'
# the collectives in the job's shared memory (the last node to arrive
# compares) and through node 0's messages (as across hosts)
for sync in on off; do
    export DSM_JOB_SYNC=$sync
    check mismatch-kind 2 'dsm: node [01]: dsm_(alloc|barrier): mismatched collective call #[0-9]+: node [01] called dsm_(alloc\(64\)|barrier\(\)) but node [01] called'
    check mismatch-kind 4 'mismatched collective call'
    check mismatch-size 2 'dsm_alloc: mismatched collective call #[0-9]+: node [01] called dsm_alloc\((64|128)\) but node [01] called dsm_alloc\((64|128)\)'
    check mismatch-finalize 2 'mismatched collective call #[0-9]+: node [01] called dsm_(finalize|barrier)\(\)[^:]* but node [01] called dsm_(finalize|barrier)\(\)'
done
unset DSM_JOB_SYNC
check free-outside 2 'dsm: node 1: dsm_free: 0x[0-9a-f]+ is outside the shared region'
check free-bad 2 'dsm: node 1: dsm_free: 0x[0-9a-f]+ was not returned by dsm_malloc'
check lock-range 2 'dsm: node 1: dsm_lock: lock id 1024 is out of range'
check unlock-unheld 2 'dsm_unlock: node 1 unlocked lock 3, which is not locked'
check unallocated 2 'dsm: node 1: write: address 0x[0-9a-f]+ is not in any shared allocation'
check no-finalize 2 'node 1 exited without dsm_finalize'
check no-finalize 8 'node 1 exited without dsm_finalize'
check crash 4 'node 1 killed by signal'
# sizes whose rounding would wrap, or larger than the region: one line, no
# overlapping memory
check alloc-max 2 'dsm: node [01]: dsm_alloc: [0-9]+ bytes are more than the whole collective arena'
check alloc-max-page 2 'dsm: node [01]: dsm_alloc: [0-9]+ bytes are more than the whole collective arena'
check alloc-region 2 'dsm: node [01]: dsm_alloc: 1073741825 bytes are more than the whole collective arena' 1073741824
check lock-twice 2 'dsm: node 1: dsm_lock: lock 3 is already held by this thread'
check finalize-locked 2 'dsm: node 0: dsm_finalize: lock 2 is still held by this node'
check store-after-finalize 2 'dsm: node 1: write: store to shared memory at 0x[0-9a-f]+ after dsm_finalize'
check store-after-finalize-absent 2 'dsm: node 1: write: store to shared memory at 0x[0-9a-f]+ after dsm_finalize'
# and the same program used well exits 0
if ! timeout 60 "$dsmrun" -n 2 --timeout 30 "$prog" ok; then
    echo "FAIL ok: a correct run failed"; fail=1
fi
# dsm_malloc of an impossible size is not a misuse: NULL with ENOMEM
if out=$(timeout 60 "$dsmrun" -n 2 --timeout 30 "$prog" malloc-huge 1073741824 2>&1) &&
    printf '%s\n' "$out" | grep -q 'NULL and ENOMEM for every size'; then
    echo "ok   malloc-huge: NULL and ENOMEM"
else
    echo "FAIL malloc-huge:"; printf '%s\n' "$out" | sed 's/^/    /'; fail=1
fi
exit $fail
