#!/bin/sh
# sim_reschedule.sh - the uniform machine as MemSpy's simulator (5.1.1):
#   1. processors are rescheduled only at synchronisation (reschedule=sync,
#      the uniform default): apps/slots, which synchronises only at its end,
#      runs each processor's updates alone, so it makes a handful of misses
#      and context switches, where reschedule=miss (a decision at every miss
#      and every --quantum references) interleaves them into thousands of
#      false-sharing misses;
#   2. a store to a line no other cache holds is a hit, not an upgrade: one
#      processor's fft makes no upgrade (excl_clean=0 brings them back);
#   3. a bad value of reschedule is refused before the program runs.
top=${top_builddir:-.}
dsmrun=${DSMRUN:-$top/dsmrun}
for f in "$dsmrun" "$top/apps/slots" "$top/apps/fft"; do
    [ -x "$f" ] || { echo "sim_reschedule.sh: $f is not built" >&2; exit 99; }
done
to=${TIMEOUT:-timeout}
command -v "$to" >/dev/null 2>&1 || to=
dir=$(mktemp -d "${TMPDIR:-/tmp}/sim_reschedule.XXXXXX") || exit 99
trap 'rm -rf "$dir"' EXIT
export DSM_PROFILE=off DSM_SIM_PROFILE=off
status=0

# the summary line's NAME count: "... 13 misses (0.08%), 4 upgrades, ... 15 context switches"
summary() { # FIELD MACHINE P APP ARGS...
    field=$1 machine=$2 np=$3 app=$4
    shift 4
    ${to:+$to -k 5 60} "$dsmrun" --machine="$machine" -n "$np" "$top/apps/$app" "$@" \
        >"$dir/out" 2>&1 || { cat "$dir/out" >&2; echo -1; return; }
    sed -n "s/.* \([0-9][0-9]*\) $field[ ,(;].*/\1/p; s/.* \([0-9][0-9]*\) $field\$/\1/p" "$dir/out" | head -1
}

check() { # DESCRIPTION CONDITION...
    what=$1
    shift
    if [ "$@" ]; then echo "ok: $what"; else echo "FAIL: $what"; status=1; fi
}

sync_switches=$(summary "context switches" uniform 4 slots --iters=2000)
miss_switches=$(summary "context switches" uniform,reschedule=miss 4 slots --iters=2000)
sync_misses=$(summary misses uniform 4 slots --iters=2000)
miss_misses=$(summary misses uniform,reschedule=miss 4 slots --iters=2000)
check "slots, sync only: $sync_switches context switches (< 100), $sync_misses misses (< 100)" \
    "${sync_switches:--1}" -ge 0 -a "${sync_switches:--1}" -lt 100 -a "${sync_misses:--1}" -ge 0 \
    -a "${sync_misses:--1}" -lt 100
check "slots, per miss: $miss_switches context switches, $miss_misses misses (> 10000 each)" \
    "${miss_switches:-0}" -gt 10000 -a "${miss_misses:-0}" -gt 10000

up=$(summary upgrades uniform 1 fft)
up_s=$(summary upgrades uniform,excl_clean=0 1 fft)
check "fft on one processor: $up upgrades (0), $up_s with excl_clean=0 (> 0)" \
    "${up:--1}" -eq 0 -a "${up_s:-0}" -gt 0

"$dsmrun" --machine=uniform,reschedule=often -n 2 "$top/apps/fft" >"$dir/out" 2>&1
rc=$?
check "reschedule=often refused (exit $rc, status 2): $(head -1 "$dir/out")" \
    $rc -eq 2 -a -n "$(grep "reschedule" "$dir/out")"
exit $status
