#!/bin/sh
# mpi_stress.sh - randomized stress replayed against the lock order, over the mpi transport; also 64 KiB blocks (bigger than MPI's eager limit: the rendezvous path).
. "${srcdir:-.}/tests/mpi_env.sh"
r="${srcdir:-.}/tests/run_mn.sh"
st=0
sh "$r" tests/mn_stress -k 2000 || st=1
DSM_BLOCK_SIZE=8192 sh "$r" -n 4 tests/mn_stress -k 2000 -l 3 -b 3 -w 8 -s 7 || st=1
DSM_BLOCK_SIZE=64K sh "$r" -n "2 4" -e "result OK" apps/jacobi 128 20 || st=1
exit $st
