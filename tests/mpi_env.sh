# mpi_env.sh - sourced by the tests/mpi_*.sh scripts: run the multi-node
# test that follows on the mpi transport (mpirun through
# tests/mpirun_dsm.sh); skip (77) where OpenMPI's mpirun is missing.
if ! command -v "${MPIRUN:-mpirun}" >/dev/null 2>&1; then
    echo "no mpirun on PATH: mpi transport tests skipped"
    exit 77
fi
# tests/verbs_*.sh run these same scripts on the verbs transport
[ "${DSM_TEST_TRANSPORT:-}" = verbs ] || DSM_TEST_TRANSPORT=mpi
DSMRUN=${srcdir:-.}/tests/mpirun_dsm.sh
export DSM_TEST_TRANSPORT DSMRUN
