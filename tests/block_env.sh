# block_env.sh - sourced by the tests/block_*.sh scripts: skip (77) when
# block mode is not built (configure found no LLVM), and the transports to
# run on: shm, and mpi when mpirun is there (tests/mpi_env.sh's settings).
top=${top_builddir:-.}
if [ ! -x "$top/tests/blk_litmus" ]; then
    echo "block mode is not built (configure found no LLVM/clang): skipped"
    exit 77
fi
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
