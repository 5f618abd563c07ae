#!/bin/sh
# mpi_counts.sh - exact Figure 3 counts in the DSM_STATS file over the mpi transport: the statistics do not depend on the transport (tests/mn_counts.sh through mpirun).
. "${srcdir:-.}/tests/mpi_env.sh"
exec sh "${srcdir:-.}/tests/mn_counts.sh"
