#!/bin/sh
# apps_sim.sh - the issue-6 applications simulated: each of apps/fft, lu,
# radix, ocean, mm and slots runs as 4 processors of the uniform (MemSpy)
# machine, `dsmrun --machine=uniform -n 4`, and must exit 0, print
# "NAME: result OK" (data values stay real in simulation, so the apps' own
# checks still hold) and write its statistics file (schema "dsm-sim/1") to
# $DSM_SIM_PROFILE.
top=${top_builddir:-.}
dsmrun=${DSMRUN:-$top/dsmrun}
[ -x "$dsmrun" ] || { echo "apps_sim.sh: $dsmrun is not built" >&2; exit 99; }
to=${TIMEOUT:-timeout}
command -v "$to" >/dev/null 2>&1 || to=
dir=$(mktemp -d "${TMPDIR:-/tmp}/apps_sim.XXXXXX") || exit 99
trap 'rm -rf "$dir"' EXIT
export DSM_PROFILE=off
status=0

sim() {
    app=$1
    shift
    prog=$top/apps/$app
    [ -x "$prog" ] || { echo "apps_sim.sh: $prog is not built" >&2; exit 99; }
    stats=$dir/$app.json
    echo "=== $(basename "$dsmrun") --machine=uniform -n 4 $prog $*"
    start=$(date +%s)
    DSM_SIM_PROFILE=$stats ${to:+$to -k 5 60} "$dsmrun" --machine=uniform -n 4 "$prog" "$@" \
        >"$dir/out" 2>&1
    rc=$?
    secs=$(( $(date +%s) - start ))
    cat "$dir/out"
    if [ $rc -ne 0 ]; then
        echo "=== FAIL: $app: exit status $rc after ${secs}s"
        status=1
    elif ! grep -Eq "^(\[0\] )?$app: result OK" "$dir/out"; then
        echo "=== FAIL: $app: no \"$app: result OK\" line (${secs}s)"
        status=1
    elif ! grep -q '"dsm-sim/1"' "$stats" 2>/dev/null; then
        echo "=== FAIL: $app: no statistics with schema \"dsm-sim/1\" in $stats (${secs}s)"
        status=1
    else
        echo "=== ok: $app, ${secs}s"
    fi
}

sim fft --m=10
sim lu --n=64 --b=16
sim radix --keys=8192 --radix=64 --bits=12
sim ocean --n=48 --iters=10
sim mm --n=64 --b=16
sim slots --iters=1000
exit $status
