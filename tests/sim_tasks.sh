#!/bin/sh
# sim_tasks.sh - the thread model of tests/mn_tasks.c built by dsmcc, as a
# user builds for the simulated machines, and run:
#   - on the uniform machine with 2, 4 and 7 processors and P-1 tasks (one
#     task per simulated processor): the same checks as on the DSM;
#   - the same binary on the DSM (dsmrun -n 2, 5 tasks: threads of nodes,
#     DSM_SHARED through the linker script dsmcc adds);
#   - more tasks than worker processors: one line saying to simulate more
#     processors; dsm_create in the SPMD model: one line;
#   - tests/mn_globals.c, shared state in plain globals: built with
#     `dsmcc --shared-globals` it counts right on 1, 2 and 4 nodes and on
#     the uniform machine; built without, its check fails on 2 nodes.
set -u
builddir=${top_builddir:-.}
srcdir=${srcdir:-.}
abs_builddir=${abs_top_builddir:-$(cd "$builddir" && pwd)}
DSMRUN=${DSMRUN:-$builddir/dsmrun}
to=${TIMEOUT:-timeout}
command -v "$to" >/dev/null 2>&1 || to=
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sim_tasks.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
DSMCC_INCLUDEDIR=$(cd "$srcdir" && pwd)/include
DSMCC_LIBDIR=$abs_builddir/.libs
export DSMCC_INCLUDEDIR DSMCC_LIBDIR DSM_PROFILE=off DSM_SIM_PROFILE=off
unset DSM_MACHINE DSM_TRANSPORT
fail=0
if ! sh "$builddir/dsmcc" -O2 "$srcdir/tests/mn_tasks.c" -o "$tmp/tasks" 2>"$tmp/cc.err"; then
    echo "FAIL: dsmcc: $(cat "$tmp/cc.err")"
    exit 1
fi
# check NAME STATUS REGEX COMMAND...
check() {
    name=$1 want=$2 re=$3
    shift 3
    ${to:+$to -k 5 60} "$@" </dev/null >"$tmp/out" 2>&1
    rc=$?
    if { [ "$want" = 0 ] && [ $rc -ne 0 ]; } || { [ "$want" = fail ] && { [ $rc -eq 0 ] || [ $rc -ge 124 ]; }; } ||
       ! grep -Eq "$re" "$tmp/out"; then
        grep -v '^dsm profile' "$tmp/out" | head -20
        echo "FAIL: $name: exit status $rc, want $want and /$re/"
        fail=1
    else
        echo "ok: $name: $(grep -E "$re" "$tmp/out" | head -n 1)"
    fi
}
for p in 2 4 7; do
    t=$((p - 1))
    check "uniform, $p processors, $t tasks" 0 "mn_tasks: tasks: $t tasks on $p nodes, counter $((50 * t)): OK" \
        "$DSMRUN" --machine=uniform -n "$p" "$tmp/tasks" tasks "$t"
done
check "the same binary on the DSM, 2 nodes, 5 tasks" 0 "mn_tasks: tasks: 5 tasks on 2 nodes, counter 250: OK" \
    "$DSMRUN" -n 2 --timeout 50 "$tmp/tasks" tasks 5
check "uniform, 2 processors, 2 tasks" fail \
    "dsm: processor 0: dsm_create: every worker processor \(1\.\.1\) runs a task: .*simulate more processors" \
    "$DSMRUN" --machine=uniform -n 2 "$tmp/tasks" tasks 2
check "uniform, dsm_create in the SPMD model" fail \
    "dsm: processor 0: dsm_create: the run was started by dsm_init \(the SPMD model\)" \
    "$DSMRUN" --machine=uniform -n 2 "$tmp/tasks" spmd_create

# shared state in plain globals (tests/mn_globals.c): dsmcc --shared-globals
# makes them shared; without it the nodes count apart and the check fails
if sh "$builddir/dsmcc" --shared-globals -O2 "$srcdir/tests/mn_globals.c" -o "$tmp/globals" 2>"$tmp/cc.err" &&
   sh "$builddir/dsmcc" -O2 "$srcdir/tests/mn_globals.c" -o "$tmp/private" 2>>"$tmp/cc.err"; then
    for n in 1 2 4; do
        check "--shared-globals on the DSM, $n nodes" 0 "mn_globals: 5 tasks on $n nodes, counter 100: OK" \
            "$DSMRUN" -n "$n" --timeout 50 "$tmp/globals" 5
    done
    check "--shared-globals on the uniform machine" 0 "mn_globals: 3 tasks on 4 nodes, counter 60: OK" \
        "$DSMRUN" --machine=uniform -n 4 "$tmp/globals" 3
    check "without --shared-globals: private copies, the counts fail" fail "mn_globals: 5 tasks on 2 nodes, counter [0-9]+: FAILED" \
        "$DSMRUN" -n 2 --timeout 50 "$tmp/private" 5
else
    echo "FAIL: dsmcc mn_globals.c: $(cat "$tmp/cc.err")"
    fail=1
fi
if sh "$builddir/dsmcc" --shared-globals --dsm -O2 "$srcdir/tests/mn_globals.c" -o "$tmp/x" 2>"$tmp/cc.err"; then
    echo "FAIL: dsmcc --shared-globals --dsm was accepted"; fail=1
elif grep -q "shared-globals needs page mode" "$tmp/cc.err"; then
    echo "ok: dsmcc --shared-globals --dsm: $(cat "$tmp/cc.err")"
else
    echo "FAIL: dsmcc --shared-globals --dsm: $(cat "$tmp/cc.err")"; fail=1
fi
exit $fail
