#!/bin/sh
# verbs_counts.sh - tests/mpi_counts.sh on the verbs (RDMA) transport; skipped
# with the reason where no RDMA device exists (tests/verbs_env.sh).
. "${srcdir:-.}/tests/verbs_env.sh"
exec sh "${srcdir:-.}/tests/mpi_counts.sh"
