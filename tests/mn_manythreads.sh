#!/bin/sh
# mn_manythreads.sh - 3000 short-lived threads per node take a lock, more
# than the 1024 lock-thread slots (tests/mn_manythreads.c), on 2 nodes.
# Block mode too: the checked twin (tests/block.mk) at 64-byte blocks, where
# every thread also enters block mode's registry of windows (dsm/access.c,
# DSM_MAX_THREADS), with fewer threads.
top=${top_builddir:-.}
fail=0
sh "${srcdir:-.}/tests/run_mn.sh" -n "2" -t 120 -e "mn_manythreads: node 1: .*: OK" tests/mn_manythreads 3000 || fail=1
if [ -x "$top/tests/blk_mn_manythreads" ]; then
    DSM_TEST_MODE=block DSM_BLOCK_SIZE=64 sh "${srcdir:-.}/tests/run_mn.sh" -n "2" -t 120 \
        -e "mn_manythreads: node 1: .*: OK" tests/mn_manythreads 1500 || fail=1
else
    echo "skip block mode: tests/blk_mn_manythreads is not built (no LLVM)"
fi
exit $fail
