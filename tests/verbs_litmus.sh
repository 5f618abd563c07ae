#!/bin/sh
# verbs_litmus.sh - tests/mpi_litmus.sh on the verbs (RDMA) transport; skipped
# with the reason where no RDMA device exists (tests/verbs_env.sh).
. "${srcdir:-.}/tests/verbs_env.sh"
exec sh "${srcdir:-.}/tests/mpi_litmus.sh"
