#!/bin/sh
# mpi_threads.sh - several faulting threads per node over the mpi transport (MPI calls from several threads of a rank).
. "${srcdir:-.}/tests/mpi_env.sh"
exec sh "${srcdir:-.}/tests/run_mn.sh" -n "1 2 4 8" -e "mn_threads: .*: OK" tests/mn_threads 1000
