#!/bin/sh
# verbs_nodevice.sh - where no RDMA device exists, DSM_TRANSPORT=verbs makes
# dsm_init fail on every node, with one line naming the problem (from the
# first node; the others fail silently with it), and the job ends with a
# non-zero status instead of hanging.  Skipped where a device exists (the
# verbs_*.sh tests run there) or where the verbs transport is not built.
top=${top_builddir:-.}
if ! command -v "${MPIRUN:-mpirun}" >/dev/null 2>&1; then
    echo "no mpirun on PATH: skipped"
    exit 77
fi
if [ ! -x "$top/tests/verbs_probe" ]; then
    echo "the verbs transport is not built: skipped"
    exit 77
fi
if "$top/tests/verbs_probe"; then
    echo "an RDMA device exists: the verbs_*.sh tests cover it; skipped"
    exit 77
fi
out=$(mktemp "${TMPDIR:-/tmp}/verbs_nodevice.XXXXXX") || exit 99
trap 'rm -f "$out"' EXIT
DSM_TEST_TRANSPORT=verbs sh "${srcdir:-.}/tests/mpirun_dsm.sh" -n 2 --timeout 60 \
    "$top/apps/hello" >"$out" 2>&1
rc=$?
cat "$out"
status=0
if [ $rc = 0 ] || [ $rc = 124 ]; then
    echo "FAIL: exit status $rc, expected a failure of dsm_init"
    status=1
fi
lines=$(grep -c '^dsm: node' "$out")
if [ "$lines" != 1 ]; then
    echo "FAIL: $lines lines from the nodes, expected one"
    status=1
fi
if ! grep -q '^dsm: node 0: dsm_init: DSM_TRANSPORT=verbs: no RDMA device' "$out"; then
    echo "FAIL: no line naming the missing RDMA device"
    status=1
fi
[ $status = 0 ] && echo "ok: one line, exit status $rc"
exit $status
