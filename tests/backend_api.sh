#!/bin/sh
# backend_api.sh - every call of dsm.h made before dsm_init or after
# dsm_finalize ends the program with its one exact line and a non-zero
# status, whichever backend served the job (dsm/backend.c): natively (one
# node), on the DSM under dsmrun, and on a simulated machine (dsmrun
# --machine), the thread model's calls too; dsm_init twice returns -1 with EALREADY and says so; the
# measured section does nothing outside a simulation.  tests/backend_calls.c
# makes the calls.
top=${top_builddir:-.}
DSMRUN=${DSMRUN:-$top/dsmrun}
prog=$top/tests/backend_calls
for f in "$DSMRUN" "$prog"; do
    [ -x "$f" ] || { echo "backend_api.sh: $f is not built" >&2; exit 99; }
done
export DSM_PROFILE=off DSM_SIM_PROFILE=off
unset DSM_TRANSPORT DSM_MACHINE
fail=0
# expect NAME STATUS LINE COMMAND...: STATUS is 0 or "fail" (non-zero, not a
# timeout); LINE is a grep -E pattern for a whole line of the output
expect() {
    name=$1 want=$2 line=$3
    shift 3
    out=$(timeout -k 5 30 "$@" 2>&1)
    rc=$?
    if [ "$want" = 0 ] && [ $rc -ne 0 ]; then
        echo "FAIL $name: status $rc, expected 0:"; printf '%s\n' "$out" | sed 's/^/    /'; fail=1
    elif [ "$want" = fail ] && { [ $rc -eq 0 ] || [ $rc -eq 3 ] || [ $rc -eq 124 ]; }; then
        echo "FAIL $name: status $rc, expected a failure:"; printf '%s\n' "$out" | sed 's/^/    /'
        fail=1
    elif ! printf '%s\n' "$out" | grep -Eqx "$line"; then
        echo "FAIL $name: no line /$line/:"; printf '%s\n' "$out" | sed 's/^/    /'; fail=1
    else
        echo "ok   $name: $(printf '%s\n' "$out" | grep -Ex "$line" | head -1)"
    fi
}
calls="finalize node nodes alloc malloc free barrier lock unlock wtime block_size lock_count home_of block_index"
# the synchronisation objects made on demand
calls="$calls lock_new barrier_new barrier_n cond_new cond_wait cond_signal cond_broadcast"

for c in $calls; do
    expect "native, before, $c" fail "dsm: node \?: dsm_$c: called before dsm_init" "$prog" before $c
    expect "native, after, $c" fail "dsm: node 0: dsm_$c: called after dsm_finalize" "$prog" after $c
    expect "simulated, after, $c" fail "dsm: processor 0: dsm_$c: called after dsm_finalize" \
        "$DSMRUN" --machine=uniform -n 1 "$prog" after $c
done
# the thread model's calls: before dsm_init_master (dsm_task: before dsm_init)
for c in create join wait_for_end task; do
    first=dsm_init_master
    [ $c = task ] && first=dsm_init
    expect "native, before, $c" fail "dsm: node \?: dsm_$c: called before $first" "$prog" before $c
    expect "native, after, $c" fail "dsm: node 0: dsm_$c: called after dsm_finalize" "$prog" after $c
    expect "simulated, after, $c" fail "dsm: processor 0: dsm_$c: called after dsm_finalize" \
        "$DSMRUN" --machine=uniform -n 1 "$prog" after $c
done
for c in node barrier alloc; do
    expect "dsmrun -n 2, before, $c" fail "dsm: node \?: dsm_$c: called before dsm_init" \
        "$DSMRUN" -n 2 "$prog" before $c
    expect "dsmrun -n 2, after, $c" fail "dsm: node [01]: dsm_$c: called after dsm_finalize" \
        "$DSMRUN" -n 2 "$prog" after $c
    expect "simulated, before, $c" fail "dsm: node \?: dsm_$c: called before dsm_init" \
        "$DSMRUN" --machine=uniform -n 1 "$prog" before $c
done
expect "native, twice" 0 "dsm: node 0: dsm_init: called twice" "$prog" twice
expect "native, init after finalize" 0 "dsm: node 0: dsm_init: called twice" "$prog" after init
expect "dsmrun -n 2, twice" 0 "dsm: node [01]: dsm_init: called twice" "$DSMRUN" -n 2 "$prog" twice
expect "simulated, twice" 0 "dsm: processor 0: dsm_init: called twice" \
    "$DSMRUN" --machine=uniform -n 1 "$prog" twice
expect "native, section before dsm_init" 0 "backend_calls: the measured section did nothing" \
    "$prog" before section
expect "dsmrun -n 2, section after dsm_finalize" 0 \
    "backend_calls: the measured section did nothing" "$DSMRUN" -n 2 "$prog" after section
exit $fail
