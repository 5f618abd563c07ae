#!/bin/sh
# block_apps.sh - the applications compiled with dsmcc --dsm (apps/blk_*)
# on 2 and 4 nodes at 64-byte and 4-KiB blocks, shm and mpi; each must print
# "NAME: result OK".  Sizes are small to keep make check short.
. "${srcdir:-.}/tests/block_env.sh"
st=0
for t in $block_transports; do
    for bs in 64 4096; do
        echo "##### block mode, $t, DSM_BLOCK_SIZE=$bs"
        run_block $t $bs -n "2 4" -e "jacobi: result OK" apps/blk_jacobi 128 20 || st=1
        run_block $t $bs -n "2 4" -e "matmul: result OK" apps/blk_matmul 64 16 || st=1
        run_block $t $bs -n 2 -e "fft: result OK" apps/blk_fft --m=8 || st=1
        run_block $t $bs -n 2 -e "lu: result OK" apps/blk_lu --n=64 --b=16 || st=1
        run_block $t $bs -n 2 -e "radix: result OK" apps/blk_radix --keys=4096 || st=1
        run_block $t $bs -n 2 -e "slots: result OK" apps/blk_slots --iters=300 || st=1
        # node 0's check compares particles with memcmp: libdsm's, not libc's
        run_block $t $bs -n 2 -e "particles: result OK" apps/blk_particles --version 2 256 2 || st=1
    done
done
exit $st
