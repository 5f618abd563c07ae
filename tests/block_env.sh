# block_env.sh - block mode in the tests.  Sourced by tests/matrix.sh before
# a run of the test matrix with mode=block (tests/matrix.list's mode axis),
# and by the tests/block_*.sh scripts.  Skips (77) when block mode is not
# built (configure found no LLVM); a matrix run gets 64-byte blocks unless
# its step says otherwise (DSM_BLOCK_SIZE=4096 ...), and tests/run_mn.sh and
# the multi-node scripts run the checked twin DIR/blk_NAME of each program
# DIR/NAME (DSM_TEST_MODE=block, tests/block.mk).
top=${top_builddir:-.}
if [ ! -x "$top/tests/blk_mn_litmus" ]; then
    echo "block mode is not built (configure found no LLVM/clang): skipped"
    exit 77
fi
if [ "${DSM_TEST_MODE:-}" = block ]; then
    DSM_BLOCK_SIZE=${DSM_BLOCK_SIZE:-64}
    export DSM_BLOCK_SIZE
fi
# The block_*.sh scripts: the transports to run on, shm and mpi when mpirun
# is there (tests/mpi_env.sh's settings).
block_transports=shm
if command -v "${MPIRUN:-mpirun}" >/dev/null 2>&1; then
    block_transports="shm mpi"
fi
# run_block TRANSPORT BLOCK_SIZE run_mn.sh-arguments...
run_block() {
    t=$1 bs=$2
    shift 2
    if [ "$t" = mpi ]; then
        (. "${srcdir:-.}/tests/mpi_env.sh"; DSM_BLOCK_SIZE=$bs DSM_TEST_TRANSPORT=mpi \
            sh "${srcdir:-.}/tests/run_mn.sh" "$@")
    else
        DSM_BLOCK_SIZE=$bs DSM_TEST_TRANSPORT=shm sh "${srcdir:-.}/tests/run_mn.sh" "$@"
    fi
}
