#!/bin/sh
# mpi_errors.sh - bad use ends the whole mpirun job within seconds with one line naming the node and the call (tests/mn_errors.sh through mpirun: dsm_fatal calls MPI_Abort).
. "${srcdir:-.}/tests/mpi_env.sh"
exec sh "${srcdir:-.}/tests/mn_errors.sh"
