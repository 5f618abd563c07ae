#!/bin/sh
# run_mn.sh - run one multi-node test program under dsmrun on several node
# counts; fails if any run fails.  The steps of the test matrix
# (tests/matrix.list) are mostly its command lines.
#   [DSM_TEST_TRANSPORT=shm|mpi|verbs] run_mn.sh [-n "2 4 8"] [-t SECONDS] [-e REGEX] PROGRAM [ARGS...]
#     -n  node counts, one run each (default "2 4 8")
#     -t  dsmrun --timeout (default 120 s; under mpirun 30 s per rank from 4
#         ranks on: 240 s for 8); the run is also killed by timeout(1) 30 s
#         later in case dsmrun itself hangs
#     -e  the output must also match this grep -E pattern (e.g. "result OK")
# DSM_TEST_MODE=block (the matrix's mode axis) runs DIR/blk_NAME for
# DIR/NAME.  PROGRAM is relative to the build directory ($top_builddir, where the test
# harness runs us); the launcher is $DSMRUN (default $top_builddir/dsmrun).
# A run with more nodes than the machine has cores does not spin: the
# default DSM_SPIN_US=auto blocks at once then (beside a CPU-bound job the
# nodes' spin-then-block waits cost tens of times more than blocking at
# once: 8 nodes on 2 cores beside two busy processes, counters 50 s against
# 1 s), and the suite must pass on a busy machine.
nodes="2 4 8"
limit=
expect=
while [ $# -gt 0 ]; do
    case $1 in
        -n) nodes=$2; shift 2 ;;
        -t) limit=$2; shift 2 ;;
        -e) expect=$2; shift 2 ;;
        --) shift; break ;;
        *) break ;;
    esac
done
if [ $# -lt 1 ]; then
    echo "usage: run_mn.sh [-n NODES] [-t SECONDS] [-e REGEX] PROGRAM [ARGS...]" >&2
    exit 99
fi
top=${top_builddir:-.}
dsmrun=${DSMRUN:-$top/dsmrun}
# DSM_TEST_TRANSPORT=mpi: the same runs under OpenMPI's mpirun (through
# tests/mpirun_dsm.sh, which takes dsmrun's options); skipped without mpirun.
case ${DSM_TEST_TRANSPORT:-shm} in
    shm) ;;
    mpi|verbs) # verbs: MPI is its bootstrap (tests/verbs_env.sh)
        command -v "${MPIRUN:-mpirun}" >/dev/null 2>&1 || { echo "run_mn.sh: no mpirun: skipped"; exit 77; }
        case $dsmrun in
            */mpirun_dsm.sh) ;;
            *) dsmrun=$(dirname "$0")/mpirun_dsm.sh ;; # dsmrun starts no MPI ranks
        esac ;;
    *) echo "run_mn.sh: DSM_TEST_TRANSPORT=$DSM_TEST_TRANSPORT is not shm, mpi or verbs" >&2; exit 99 ;;
esac
prog=$1
shift
# The matrix's mode axis: DSM_TEST_MODE=block runs the program's twin
# compiled with the access checks, DIR/blk_NAME (tests/block.mk).
case ${DSM_TEST_MODE:-page} in
    page) ;;
    block) prog=$(dirname "$prog")/blk_$(basename "$prog") ;;
    *) echo "run_mn.sh: DSM_TEST_MODE=$DSM_TEST_MODE is not page or block" >&2; exit 99 ;;
esac
case $prog in
    /*) ;;
    *) prog=$top/$prog ;;
esac
for f in "$dsmrun" "$prog"; do
    if [ ! -x "$f" ]; then
        echo "run_mn.sh: $f is not built" >&2
        exit 99
    fi
done
# timeout(1): the one configure found, else from PATH, else none.
to=${TIMEOUT:-timeout}
command -v "$to" >/dev/null 2>&1 || to=

out=$(mktemp "${TMPDIR:-/tmp}/run_mn.XXXXXX") || exit 99
trap 'rm -f "$out"' EXIT
status=0
for n in $nodes; do
    lim=${limit:-120}
    case ${DSM_TEST_TRANSPORT:-shm} in
        mpi|verbs) [ -n "$limit" ] || [ "$n" -le 4 ] || lim=$((30 * n)) ;;
    esac
    spin=${DSM_SPIN_US-}
    echo "=== ${DSM_TEST_TRANSPORT:-shm}: $(basename "$dsmrun") -n $n --timeout $lim $prog $*${spin:+ (DSM_SPIN_US=$spin)}"
    start=$(date +%s)
    if [ -n "$to" ]; then
        "$to" -k 10 $((lim + 30)) "$dsmrun" -p -n "$n" --timeout "$lim" "$prog" "$@" >"$out" 2>&1
    else
        "$dsmrun" -p -n "$n" --timeout "$lim" "$prog" "$@" >"$out" 2>&1
    fi
    rc=$?
    secs=$(( $(date +%s) - start ))
    cat "$out"
    if [ $rc -ne 0 ]; then
        echo "=== FAIL: $n nodes: exit status $rc after ${secs}s"
        status=1
    elif [ -n "$expect" ] && ! grep -Eq "$expect" "$out"; then
        echo "=== FAIL: $n nodes: output does not match /$expect/ (${secs}s)"
        status=1
    else
        echo "=== ok: $n nodes, ${secs}s"
    fi
done
exit $status
