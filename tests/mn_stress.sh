#!/bin/sh
# mn_stress.sh - randomized lock/coherence stress checked by replay (tests/mn_stress.c):
# 16 locks over 8 blocks on 2, 4, 8 nodes; then 3 locks over 3 blocks (heavy
# contention, 8 words per op) with 8 KiB blocks on 4 nodes.
r="${srcdir:-.}/tests/run_mn.sh"
sh "$r" tests/mn_stress -k 4000 || exit 1
DSM_BLOCK_SIZE=8192 sh "$r" -n 4 tests/mn_stress -k 4000 -l 3 -b 3 -w 8 -s 7
