#!/bin/sh
# mn_park.sh - the parked home (dsm/park.h, tests/mn_park.c) on 2 nodes:
# misses answered while node 0 waits in a barrier are deferred (its write
# right taken after the reply) and its next writes still reach node 1;
# nothing is deferred while node 0 computes, has a signal handler, runs a
# second thread, or with DSM_PARK_DEFER=off; node 0 writing under a lock
# wait (parked and back, over and over) while node 1 reads leaves no stale
# copy.  With mpirun on the machine, the parked and race cases run under
# the mpi transport too.
top=${top_builddir:-.}
run="sh ${srcdir:-.}/tests/run_mn.sh -n 2 -t 60"
fail=0
out=${TMPDIR:-/tmp}/mn_park.$$
trap 'rm -f "$out"' EXIT INT TERM

# deferred count of the last run, or -1
deferred() { sed -n 's/.*mn_park: node 0: deferred \([0-9]*\).*/\1/p' "$out" | tail -1; }

check() { # MODE ROUNDS PAGES WANT(none|some) [ENV...]
    mode=$1 rounds=$2 pages=$3 want=$4
    shift 4
    if ! env "$@" $run -e "mn_park: node 1: $mode: OK" tests/mn_park "$mode" "$rounds" "$pages" >"$out" 2>&1; then
        echo "FAIL: mn_park $mode $* failed:"; cat "$out"; fail=1; return
    fi
    d=$(deferred)
    case $want in
        # node 1's first misses of a round may come before node 0 is out of the barrier
        few) [ -n "$d" ] && [ "$d" -lt $(( rounds * pages / 10 )) ] ||
                { echo "FAIL: mn_park $mode $*: deferred '$d', want fewer than $(( rounds * pages / 10 ))"; fail=1; return; } ;;
        none) [ "$d" = 0 ] || { echo "FAIL: mn_park $mode $*: deferred '$d', want 0"; fail=1; return; } ;;
        # every read miss of the rounds after the first is answered parked
        some) [ -n "$d" ] && [ "$d" -ge $(( (rounds - 1) * pages / 2 )) ] ||
                { echo "FAIL: mn_park $mode $*: deferred '$d', want at least $(( (rounds - 1) * pages / 2 ))"; fail=1; return; } ;;
    esac
    echo "ok: mn_park $mode $* (deferred $d)"
}

check parked 20 64 some
check parked 20 64 none DSM_PARK_DEFER=off
check busy 10 64 few
check handler 10 64 none
check parked 10 64 none MN_PARK_EARLY_HANDLER=1
check thread 10 64 none
# the lock waits through node 1's messages (the job's shared memory's
# locks rarely wait: dsm/jobsync.h) and in that memory
for run_no in 1 2 3; do
    check race 30 16 any DSM_JOB_SYNC=off
done
check race 30 16 any
# under mpirun: MPI installs SIGTERM and SIGABRT handlers inside dsm_init,
# which must not count as the program's (dsm/park.c)
if [ "${DSM_TEST_TRANSPORT:-shm}" = shm ] && command -v mpirun >/dev/null 2>&1; then
    export DSM_TEST_TRANSPORT=mpi
    check parked 20 64 some
    check race 30 16 any
fi
exit $fail
