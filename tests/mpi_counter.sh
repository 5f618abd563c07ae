#!/bin/sh
# mpi_counter.sh - lock-protected counter, 10^4 increments per node, over the mpi transport.
. "${srcdir:-.}/tests/mpi_env.sh"
exec sh "${srcdir:-.}/tests/run_mn.sh" tests/mn_counter 10000
