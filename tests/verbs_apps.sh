#!/bin/sh
# verbs_apps.sh - tests/mpi_apps.sh on the verbs (RDMA) transport; skipped
# with the reason where no RDMA device exists (tests/verbs_env.sh).
. "${srcdir:-.}/tests/verbs_env.sh"
exec sh "${srcdir:-.}/tests/mpi_apps.sh"
