#!/bin/sh
# mpi_apps.sh - the example applications on 1, 2, 4 and 8 nodes over the mpi transport.
. "${srcdir:-.}/tests/mpi_env.sh"
r="${srcdir:-.}/tests/run_mn.sh"
st=0
sh "$r" -n "1 2 4 8" -e "hello: result OK" apps/hello || st=1
sh "$r" -n "1 2 4 8" -e "jacobi: result OK" apps/jacobi 512 100 || st=1
sh "$r" -n "1 2 4 8" -e "matmul: result OK" apps/matmul 256 32 || st=1
exit $st
