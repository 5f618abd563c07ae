#!/bin/sh
# dsmrun_status.sh - how dsmrun turns the fate of its nodes into the job's
# exit status, and that a failing node (or a killed dsmrun) takes the whole
# job down within seconds and leaves nothing behind: no process, no
# /dev/shm/dsm-* segment.  Run by `make check` from the build directory.
set -u
builddir=${top_builddir:-.}
DSMRUN=${DSMRUN:-$builddir/dsmrun}
prog=$builddir/tests/shm_queue_test
to=${TIMEOUT:-timeout}
[ -n "$to" ] || to=timeout
tmp=$(mktemp -d "${TMPDIR:-/tmp}/dsmrun_status.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
uid=$(id -u)

fail=0
ok() { echo "ok: $1"; }
bad() { echo "FAIL: $1"; fail=1; }
ms() { echo $(( $(date +%s%N) / 1000000 )); }

# A process is gone when it has no /proc entry or is a zombie nobody reaped
# yet (after dsmrun dies its nodes are reparented).
gone() {
    [ ! -r "/proc/$1/stat" ] && return 0
    case $(cut -d' ' -f3 "/proc/$1/stat" 2>/dev/null) in
        Z|X|'') return 0 ;;
    esac
    return 1
}

# Wait until the N nodes wrote their pid files (at most 10 s).
wait_pids() {
    i=0
    while [ "$(ls "$tmp" | grep -c '^pid\.')" -lt "$1" ]; do
        i=$((i + 1))
        [ $i -gt 200 ] && return 1
        sleep 0.05
    done
    sleep 0.05  # the files are written; let the writes finish
}

all_gone() {
    for f in "$tmp"/pid.*; do
        p=$(cat "$f")
        gone "$p" || return 1
    done
}

wait_all_gone() {
    i=0
    while ! all_gone; do
        i=$((i + 1))
        [ $i -gt 100 ] && return 1
        sleep 0.05
    done
}

# Node script: write our pid (and the job id), then sleep as the same process.
node='echo $DSM_JOB_ID > "$0/job"; echo $$ > "$0/pid.$DSM_NODE"; exec sleep 30'

# 1. exit status propagation: node 2 exits 3 -> dsmrun exits 3, fast.
t0=$(ms)
"$to" 60 "$DSMRUN" -n 4 sh -c 'if [ "$DSM_NODE" = 2 ]; then exit 3; fi; exec sleep 30' 2>"$tmp/err"
rc=$?
dt=$(( $(ms) - t0 ))
[ $rc = 3 ] && ok "a node exiting 3 gives status 3" || bad "a node exiting 3 gave status $rc"
[ $dt -lt 5000 ] && ok "the other nodes ended in $dt ms" || bad "the other nodes took $dt ms to end"
grep -q '^dsmrun: node 2 exited with status 3$' "$tmp/err" && ok "failure reported" \
    || bad "no report line: $(cat "$tmp/err")"
[ "$(wc -l < "$tmp/err")" = 1 ] && ok "one line only" || bad "more than one line: $(cat "$tmp/err")"

# 2. nodes ignoring SIGTERM get SIGKILL within a second.
t0=$(ms)
"$to" 60 "$DSMRUN" -n 3 sh -c 'trap "" TERM; if [ "$DSM_NODE" = 0 ]; then exit 5; fi; while :; do :; done' 2>/dev/null
rc=$?
dt=$(( $(ms) - t0 ))
[ $rc = 5 ] && ok "status 5 with nodes ignoring SIGTERM" || bad "status $rc with nodes ignoring SIGTERM"
[ $dt -lt 3000 ] && ok "nodes ignoring SIGTERM ended in $dt ms" || bad "nodes ignoring SIGTERM took $dt ms"

# 3. kill -9 of a node mid-run.
rm -f "$tmp"/pid.* "$tmp/job"
"$to" 60 "$DSMRUN" -n 4 sh -c "$node" "$tmp" 2>"$tmp/err" &
job=$!
if wait_pids 4; then
    jobid=$(cat "$tmp/job")
    [ -n "$jobid" ] && ! ls /dev/shm/dsm-* 2>/dev/null | grep -q -- "dsm-$jobid" \
        && ok "segment unlinked while the job runs" || bad "segment dsm-$jobid visible in /dev/shm"
    t0=$(ms)
    kill -9 "$(cat "$tmp/pid.1")"
    wait $job
    rc=$?
    dt=$(( $(ms) - t0 ))
    [ $rc = 137 ] && ok "kill -9 of a node gives status 137" || bad "kill -9 of a node gave status $rc"
    [ $dt -lt 5000 ] && ok "job ended $dt ms after kill -9 of a node" || bad "job took $dt ms after kill -9"
    grep -q '^dsmrun: node 1 killed by signal 9' "$tmp/err" && ok "kill reported" \
        || bad "kill not reported: $(cat "$tmp/err")"
    wait_all_gone && ok "no node left" || bad "nodes still running after the job ended"
    ls /dev/shm 2>/dev/null | grep -q -- "$jobid" && bad "segment left in /dev/shm" || ok "no segment left"
else
    bad "nodes did not start"; kill -9 $job 2>/dev/null; wait $job
fi

# 4. kill -9 of dsmrun itself: the nodes die with it (PR_SET_PDEATHSIG).
rm -f "$tmp"/pid.* "$tmp/job"
"$DSMRUN" -n 3 sh -c "$node" "$tmp" &
job=$!
if wait_pids 3; then
    jobid=$(cat "$tmp/job")
    kill -9 $job
    wait $job 2>/dev/null
    wait_all_gone && ok "nodes die with dsmrun" || bad "nodes survived kill -9 of dsmrun"
    ls /dev/shm 2>/dev/null | grep -q -- "$jobid" && bad "segment left in /dev/shm" || ok "no segment left"
else
    bad "nodes did not start"; kill -9 $job 2>/dev/null; wait $job
fi
# No segment of this user's jobs that we started (names carry dsmrun's pid).
ls /dev/shm 2>/dev/null | grep -q "^dsm-$uid-$job-" && bad "segment of pid $job left" || true

# 5. SIGTERM to dsmrun is forwarded to the nodes.
rm -f "$tmp"/pid.* "$tmp/job"
"$to" 60 "$DSMRUN" -n 2 sh -c "$node" "$tmp" 2>"$tmp/err" &
job=$!
if wait_pids 2; then
    # $job is timeout(1) when it is there; it passes SIGTERM on to dsmrun.
    kill -TERM $job
    wait $job
    rc=$?
    [ $rc = 143 ] && ok "SIGTERM forwarded, status 143" || bad "SIGTERM gave status $rc"
    wait_all_gone && ok "nodes ended by SIGTERM" || bad "nodes survived SIGTERM to dsmrun"
else
    bad "nodes did not start"; kill -9 $job 2>/dev/null; wait $job
fi

# 6. a node that joined the job (dsm_init) but exits 0 without dsm_finalize.
"$to" 60 "$DSMRUN" -n 2 "$prog" --no-finalize 2>"$tmp/err"
rc=$?
[ $rc = 1 ] && ok "exit without finalize gives status 1" || bad "exit without finalize gave $rc"
grep -q 'exited without dsm_finalize' "$tmp/err" && ok "reported" || bad "not reported: $(cat "$tmp/err")"

# 7. programs that do not use the library are fine; failures are not.
"$to" 60 "$DSMRUN" -n 2 true && ok "dsmrun -n 2 true" || bad "dsmrun -n 2 true failed"
"$to" 60 "$DSMRUN" -n 3 false 2>"$tmp/err"
rc=$?
[ $rc = 1 ] && ok "dsmrun -n 3 false gives 1" || bad "dsmrun -n 3 false gave $rc"
"$to" 60 "$DSMRUN" -n 2 sh -c 'kill -SEGV $$' 2>"$tmp/err"
rc=$?
[ $rc = 139 ] && ok "SIGSEGV gives 139" || bad "SIGSEGV gave $rc"
grep -q 'killed by signal 11 (SIGSEGV)' "$tmp/err" && ok "signal named" || bad "signal report: $(cat "$tmp/err")"

# 8. --timeout
t0=$(ms)
"$to" 60 "$DSMRUN" -n 2 --timeout 1 sleep 30 2>"$tmp/err"
rc=$?
dt=$(( $(ms) - t0 ))
[ $rc = 124 ] && ok "--timeout gives 124" || bad "--timeout gave $rc"
[ $dt -ge 900 ] && [ $dt -lt 5000 ] && ok "--timeout 1 ended after $dt ms" || bad "--timeout 1 ended after $dt ms"
grep -q 'timed out after 1 seconds' "$tmp/err" && ok "timeout reported" || bad "timeout: $(cat "$tmp/err")"

exit $fail
