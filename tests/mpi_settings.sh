#!/bin/sh
# mpi_settings.sh - settings under mpirun, where each rank may get its own
# environment (an MPMD command line gives one rank a variable with -x): a
# setting every node must agree on, different on one rank, ends the job at
# dsm_init within seconds with a line from that rank naming the variable and
# both values, and no rank runs past dsm_init; a setting that need not agree
# runs; a DSM_PROFILE that rank 0 cannot write is refused at its dsm_init;
# DSM_MPI_SHM off on one rank only runs (MPI between all), a bad value is
# refused.
if ! command -v "${MPIRUN:-mpirun}" >/dev/null 2>&1; then
    echo "no mpirun on PATH: skipped"
    exit 77
fi
top=$(cd "${top_builddir:-.}" && pwd) || exit 99 # the runs happen in a scratch directory
prog=$top/apps/hello
[ -x "$prog" ] || { echo "mpi_settings.sh: $prog is not built" >&2; exit 99; }
mpirun=${MPIRUN:-mpirun}
root=
[ "$(id -u)" = 0 ] && root=--allow-run-as-root
to=${TIMEOUT:-timeout}
command -v "$to" >/dev/null 2>&1 || to=
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mpi_settings.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 99
export DSM_TRANSPORT=mpi DSM_PROFILE=off
fail=0

# expect NAME STATUS PATTERN MPIRUN-ARGS...: STATUS 0 or "fail"; the output
# must match the grep -E PATTERN within 20 seconds (mpirun's start included)
expect() {
    name=$1 want=$2 pattern=$3; shift 3
    start=$(date +%s)
    out=$(${to:+$to -k 5 60} "$mpirun" $root --oversubscribe -x DSM_TRANSPORT -x DSM_PROFILE \
        "$@" 2>&1)
    rc=$?
    took=$(( $(date +%s) - start ))
    first=$(printf '%s\n' "$out" | grep -E "$pattern" | head -1)
    if { [ "$want" = fail ] && { [ $rc = 0 ] || [ $rc = 124 ]; }; } ||
       { [ "$want" = 0 ] && [ $rc != 0 ]; }; then
        echo "FAIL $name: status $rc, expected $want:"; printf '%s\n' "$out" | sed 's/^/    /'
        fail=1
    elif [ $took -gt 20 ]; then
        echo "FAIL $name: took $took s"; fail=1
    elif [ -z "$first" ]; then
        echo "FAIL $name: the output lacks /$pattern/:"; printf '%s\n' "$out" | sed 's/^/    /'
        fail=1
    elif [ $rc != 0 ] && printf '%s\n' "$out" | grep -q '^hello:'; then
        echo "FAIL $name: a rank ran past dsm_init:"; printf '%s\n' "$out" | sed 's/^/    /'
        fail=1
    else
        echo "ok   $name (status $rc, ${took}s): $first"
    fi
}

expect "DSM_LOCKS given to rank 0 only" fail \
    "^dsm: node 1: dsm_init: DSM_LOCKS is 1024 here but 64 on node 0 \(every node needs the same value: forward DSM_\* settings to every node, e\.g\. mpirun -x DSM_LOCKS\)" \
    -np 1 -x DSM_LOCKS=64 "$prog" : -np 1 "$prog"
expect "DSM_HOMES and DSM_BLOCK_SIZE on rank 2 of 3" fail \
    "^dsm: node 2: dsm_init: DSM_BLOCK_SIZE is 8K here but 4K on node 0; DSM_HOMES is 'cyclic' here but 'blocked' on node 0 " \
    -np 2 "$prog" : -np 1 -x DSM_HOMES=cyclic -x DSM_BLOCK_SIZE=8K "$prog"
expect "DSM_SPIN_US on rank 1 only" 0 "^hello: result OK" \
    -np 1 "$prog" : -np 1 -x DSM_SPIN_US=0 "$prog"
# the shared queues of one host are used by all ranks or none (mpi_shm.h):
# one rank without them must not leave the others waiting on them
expect "DSM_MPI_SHM=off on rank 1 only" 0 "^hello: result OK" \
    -np 1 "$prog" : -np 1 -x DSM_MPI_SHM=off "$prog"
expect "DSM_MPI_SHM=maybe" fail "DSM_MPI_SHM=maybe is neither 'on' nor 'off'" \
    -np 2 -x DSM_MPI_SHM=maybe "$prog"
expect "DSM_PROFILE rank 0 cannot write" fail \
    "^dsm: node 0: dsm_init: DSM_PROFILE=/nonexistent/dir/p.json cannot be written: directory /nonexistent/dir does not exist" \
    -np 2 -x DSM_PROFILE=/nonexistent/dir/p.json "$prog"
exit $fail
