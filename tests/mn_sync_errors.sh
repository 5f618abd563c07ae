#!/bin/sh
# mn_sync_errors.sh - misuse of the synchronisation objects made on demand
# ends the job within seconds with one line naming the node and the call
# (tests/mn_sync.c's misuse modes).
top=${top_builddir:-.}
dsmrun=${DSMRUN:-$top/dsmrun}
prog=$top/tests/mn_sync
export DSM_PROFILE=off
fail=0
check() {
    mode=$1 pattern=$2
    out=$(timeout 60 "$dsmrun" -n 2 --timeout 30 "$prog" "$mode" 2>&1)
    rc=$?
    if [ "$rc" -eq 0 ] || [ "$rc" -eq 124 ]; then
        echo "FAIL $mode: status $rc (expected a failure, not a hang)"; fail=1
    elif ! printf '%s\n' "$out" | grep -Eq "$pattern"; then
        echo "FAIL $mode: output lacks /$pattern/:"; printf '%s\n' "$out" | sed 's/^/    /'; fail=1
    else
        echo "ok   $mode: $(printf '%s\n' "$out" | grep -E "$pattern" | head -1)"
    fi
}
check barrier-mismatch 'dsm: node [01]: dsm_barrier_n: barrier [0-9]+: node [01] waits for [23] participants but node [01] for [23]'
check cond-unlocked 'dsm: node 1: dsm_cond_wait: lock [0-9]+ is not held by this thread'
check lock-bad 'dsm: node 1: dsm_lock: lock id 1073741824 is out of range \(0\.\.1023, or an id from dsm_lock_new'
exit $fail
