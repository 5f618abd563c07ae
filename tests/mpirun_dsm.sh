#!/bin/sh
# mpirun_dsm.sh - dsmrun's command line on top of OpenMPI's mpirun, so that
# the multi-node test scripts (which call $DSMRUN) run unchanged on the mpi
# transport:  mpirun_dsm.sh [-p] [-n N] [--timeout S] PROG [ARGS...]
# Adds --oversubscribe (8 nodes on 2 cores) and --allow-run-as-root when
# root; a timeout ends the job with status 124 like dsmrun's.
n=1
limit=
while [ $# -gt 0 ]; do
    case $1 in
        -p) shift ;;
        -n) n=$2; shift 2 ;;
        --timeout) limit=$2; shift 2 ;;
        --) shift; break ;;
        *) break ;;
    esac
done
mpirun=${MPIRUN:-mpirun}
root=
[ "$(id -u)" = 0 ] && root=--allow-run-as-root
# the ranks run with this environment (local launch), DSM_TRANSPORT says
# which transport the library must use
# (verbs when the test says so: MPI is then only its bootstrap)
DSM_TRANSPORT=mpi
[ "${DSM_TEST_TRANSPORT:-}" = verbs ] && DSM_TRANSPORT=verbs
export DSM_TRANSPORT
if [ -n "$limit" ] && command -v timeout >/dev/null 2>&1; then
    timeout -k 5 "$limit" "$mpirun" $root --oversubscribe -np "$n" "$@"
    rc=$?
    [ $rc = 124 ] && echo "mpirun_dsm.sh: timed out after $limit seconds" >&2
    exit $rc
fi
exec "$mpirun" $root --oversubscribe -np "$n" "$@"
