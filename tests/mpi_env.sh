# mpi_env.sh - sourced by tests/matrix.sh before a run of the test matrix on
# the mpi transport (DSM_TEST_TRANSPORT=mpi): skips it (77) where OpenMPI's
# mpirun is missing; otherwise the test's jobs start through
# tests/mpirun_dsm.sh, which takes dsmrun's options ($DSMRUN, used by
# tests/run_mn.sh and the multi-node scripts).
if ! command -v "${MPIRUN:-mpirun}" >/dev/null 2>&1; then
    echo "no mpirun on PATH: mpi transport tests skipped"
    exit 77
fi
DSMRUN=${srcdir:-.}/tests/mpirun_dsm.sh
export DSMRUN
