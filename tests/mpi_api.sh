#!/bin/sh
# mpi_api.sh - every API call (tests/mn_api.c) on 2, 4, 8 nodes over the mpi transport.
. "${srcdir:-.}/tests/mpi_env.sh"
exec sh "${srcdir:-.}/tests/run_mn.sh" tests/mn_api 200
