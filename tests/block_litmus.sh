#!/bin/sh
# block_litmus.sh - block mode keeps sequential consistency: the SC litmus
# tests (tests/mn_litmus.c: MP, SB, IRIW, 2+2W, LB) and several checking
# threads per node (tests/mn_threads.c), compiled with dsmcc --dsm, at
# 64-byte and 4-KiB blocks, on shm and (when mpirun is there) mpi.  Any
# forbidden outcome or wrong count fails.  Iterations are below the page-mode
# tests' to keep the 2 x 2 configurations short.
. "${srcdir:-.}/tests/block_env.sh"
st=0
for t in $block_transports; do
    for bs in 64 4096; do
        echo "##### block mode, $t, DSM_BLOCK_SIZE=$bs"
        run_block $t $bs -n 2 tests/blk_litmus -t mp -i 3000 || st=1
        run_block $t $bs -n 2 tests/blk_litmus -t sb -i 3000 || st=1
        run_block $t $bs -n 4 tests/blk_litmus -t iriw -i 1000 || st=1
        run_block $t $bs -n 2 tests/blk_litmus -t 2+2w -i 1000 || st=1
        run_block $t $bs -n 2 tests/blk_litmus -t lb -i 1000 || st=1
        run_block $t $bs -n "2 4" -e "mn_threads: .*: OK" tests/blk_threads 300 || st=1
    done
done
exit $st
