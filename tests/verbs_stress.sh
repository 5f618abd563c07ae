#!/bin/sh
# verbs_stress.sh - tests/mpi_stress.sh on the verbs (RDMA) transport; skipped
# with the reason where no RDMA device exists (tests/verbs_env.sh).
. "${srcdir:-.}/tests/verbs_env.sh"
exec sh "${srcdir:-.}/tests/mpi_stress.sh"
