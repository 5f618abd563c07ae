#!/bin/sh
# mpi_patterns.sh - the dominant sharing patterns over the mpi transport (tests/mn_patterns.sh through mpirun).
. "${srcdir:-.}/tests/mpi_env.sh"
exec sh "${srcdir:-.}/tests/mn_patterns.sh"
