#!/bin/sh
# mn_blocksize.sh - coherence units larger than a page (DSM_BLOCK_SIZE, any
# power-of-two multiple of the page): the apps and the multi-thread test
# stay exact with 2-page and 16-page blocks.
run="${srcdir:-.}/tests/run_mn.sh"
for bs in 8K 64K; do
    export DSM_BLOCK_SIZE=$bs
    "$run" -n "2 4" -e "result OK" apps/jacobi 128 20 || exit 1
    "$run" -n "2 4" -e "result OK" apps/matmul || exit 1
    "$run" -n "2 4" -e "mn_threads: .*: OK" tests/mn_threads 300 || exit 1
done
