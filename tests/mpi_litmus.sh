#!/bin/sh
# mpi_litmus.sh - the SC litmus tests over the mpi transport: MP and SB at 10^4 iterations (as on shm), IRIW, 2+2W and LB at 2000 to keep make check short.
. "${srcdir:-.}/tests/mpi_env.sh"
r="${srcdir:-.}/tests/run_mn.sh"
st=0
sh "$r" -n "2 4" tests/mn_litmus -t mp -i 10000 || st=1
sh "$r" -n "2 4" tests/mn_litmus -t sb -i 10000 || st=1
sh "$r" -n "4 8" tests/mn_litmus -t iriw -i 2000 || st=1
sh "$r" -n "2 4" tests/mn_litmus -t 2+2w -i 2000 || st=1
sh "$r" -n "2" tests/mn_litmus -t lb -i 2000 || st=1
exit $st
