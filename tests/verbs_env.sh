# verbs_env.sh - sourced by tests/matrix.sh before a run of the test matrix
# on the verbs transport (DSM_TEST_TRANSPORT=verbs): its jobs start through
# tests/mpirun_dsm.sh (mpirun is the verbs transport's bootstrap), which sets
# DSM_TRANSPORT=verbs; skips (77) with the reason where the run cannot be
# made: no mpirun, libdsm built without verbs, or no RDMA device (Soft-RoCE,
# rdma_rxe, counts as one).
top=${top_builddir:-.}
if ! command -v "${MPIRUN:-mpirun}" >/dev/null 2>&1; then
    echo "no mpirun on PATH (the verbs transport's bootstrap): verbs transport tests skipped"
    exit 77
fi
if [ ! -x "$top/tests/verbs_probe" ]; then
    echo "the verbs transport is not built (configure found no libibverbs or no MPI): skipped"
    exit 77
fi
if ! why=$("$top/tests/verbs_probe"); then
    if [ -d /sys/module/rdma_rxe ]; then
        rxe="rdma_rxe is loaded, but no rxe link exists (rdma link add rxe0 type rxe netdev IF)"
    elif modprobe -n rdma_rxe >/dev/null 2>&1; then
        rxe="rdma_rxe could be loaded: modprobe rdma_rxe; rdma link add rxe0 type rxe netdev IF"
    else
        rxe="Soft-RoCE (rdma_rxe) cannot be loaded here"
    fi
    echo "$why; $rxe: verbs transport tests skipped"
    exit 77
fi
DSMRUN=${srcdir:-.}/tests/mpirun_dsm.sh
export DSMRUN
