#!/bin/sh
# dsmrun_signals.sh - signals sent to dsmrun: a job ended by one never exits
# 0 (its status is 128 + the signal's number), a second one kills nodes
# that ignore the first, and nodes of a launcher started in the background
# by a shell (which ignores SIGINT and SIGQUIT for it) still get them.
# Every wait is bounded.  Run by `make check` from the build directory.
set -u
builddir=${top_builddir:-.}
DSMRUN=${DSMRUN:-$builddir/dsmrun}
to=${TIMEOUT:-timeout}
[ -n "$to" ] || to=timeout
tmp=$(mktemp -d "${TMPDIR:-/tmp}/dsmrun_signals.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT

fail=0
ok() { echo "ok: $1"; }
bad() { echo "FAIL: $1"; fail=1; }
ms() { echo $(( $(date +%s%N) / 1000000 )); }

# Wait until the N nodes wrote their pid files (at most 10 s).
wait_pids() {
    i=0
    while [ "$(ls "$tmp" | grep -c '^pid\.')" -lt "$1" ]; do
        i=$((i + 1))
        [ $i -gt 200 ] && return 1
        sleep 0.05
    done
    sleep 0.1  # the files are written and the nodes' traps are set
}

# 1. Nodes that catch SIGTERM and exit 0: the job still ends with 143.
rm -f "$tmp"/pid.*
"$to" 60 "$DSMRUN" -n 2 sh -c 'trap "exit 0" TERM; echo $$ > "$0/pid.$DSM_NODE"; while :; do sleep 0.05; done' "$tmp" &
job=$!
if wait_pids 2; then
    kill -TERM $job   # timeout(1) passes it on to dsmrun
    wait $job
    rc=$?
    [ $rc = 143 ] && ok "nodes exiting 0 on SIGTERM: status 143" || bad "nodes exiting 0 on SIGTERM: status $rc"
else
    bad "nodes did not start"; kill -9 $job 2>/dev/null; wait $job
fi

# 2. Nodes ignoring SIGINT: the first is passed on and ignored, the second
#    kills them; the status is that of the first signal (130).
rm -f "$tmp"/pid.*
"$DSMRUN" -n 3 sh -c 'trap "" INT TERM; echo $$ > "$0/pid.$DSM_NODE"; while :; do sleep 0.05; done' "$tmp" &
job=$!
if wait_pids 3; then
    kill -INT $job
    sleep 0.5
    if kill -0 $job 2>/dev/null; then
        ok "the first SIGINT is passed on (the nodes ignore it)"
    else
        bad "the job ended on the first SIGINT although its nodes ignore it"
    fi
    t0=$(ms)
    kill -INT $job
    i=0
    while kill -0 $job 2>/dev/null && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
    dt=$(( $(ms) - t0 ))
    if kill -0 $job 2>/dev/null; then
        bad "the second SIGINT did not end the job in 5 s"; kill -9 $job
    else
        ok "the second SIGINT ended the job in $dt ms"
    fi
    wait $job
    rc=$?
    [ $rc = 130 ] && ok "status 130 after two SIGINTs" || bad "status $rc after two SIGINTs"
else
    bad "nodes did not start"; kill -9 $job 2>/dev/null; wait $job
fi

# 3. A launcher started with `&` by a non-interactive shell inherits SIGINT
#    and SIGQUIT ignored: its nodes must start with the default actions
#    (bits 1 and 2 of SigIgn), and SIGINT to it must still end the job.
rm -f "$tmp"/pid.* "$tmp"/ign.* "$tmp/launcher"
node='grep SigIgn /proc/$$/status > "$0/ign.$DSM_NODE"; echo $PPID > "$0/launcher"; echo $$ > "$0/pid.$DSM_NODE"; exec sleep 30'
"$to" 60 sh -c '"$1" -n 2 sh -c "$2" "$3" & wait $!' sh "$DSMRUN" "$node" "$tmp" &
job=$!
if wait_pids 2; then
    launcher=$(cat "$tmp/launcher")
    ign=$(grep SigIgn /proc/"$launcher"/status 2>/dev/null)
    for k in 0 1; do
        mask=$(sed 's/SigIgn:[[:space:]]*//' "$tmp/ign.$k")
        if [ $(( 0x$mask & 6 )) = 0 ]; then
            ok "node $k starts with SIGINT and SIGQUIT at their default action"
        else
            bad "node $k inherited ignored signals: SigIgn $mask (the launcher's: $ign)"
        fi
    done
    t0=$(ms)
    kill -INT "$launcher"
    wait $job
    rc=$?
    dt=$(( $(ms) - t0 ))
    [ $rc = 130 ] && ok "SIGINT to a backgrounded dsmrun: status 130 in $dt ms" \
        || bad "SIGINT to a backgrounded dsmrun: status $rc after $dt ms"
else
    bad "nodes did not start"; kill -9 $job 2>/dev/null; wait $job
fi

exit $fail
