#!/bin/sh
# flash_apps.sh - FlashPoint's accuracy and overhead claims on the simulated
# FLASH machine (000_2c9235d232d2914d.txt, Tables 1-3 and Figure 5): FFT, LU,
# radix and the stencil (ocean) run on 4 processors twice, with
# --machine=flash,fp_mode=noproc and --machine=flash,fp_mode=control, and
# `dsmprof flashpoint RUN CONTROL --check=3,7,10` must pass: total misses
# within 3%, every bin's share of each count within 7 points, simulated
# parallel time less than 10% slower.  Skipped (77) while dsmrun has no
# --machine option or does not know the flash machine.
top=${top_builddir:-.}
dsmrun=${DSMRUN:-$top/dsmrun}
dsmprof=$top/dsmprof
[ -x "$dsmrun" ] || { echo "flash_apps.sh: $dsmrun is not built" >&2; exit 99; }
[ -x "$dsmprof" ] || { echo "flash_apps.sh: $dsmprof is not built" >&2; exit 99; }
if ! "$dsmrun" --help 2>&1 | grep -q -- '--machine'; then
    echo "flash_apps.sh: $dsmrun has no --machine option yet: skipped"
    exit 77
fi
to=${TIMEOUT:-timeout}
command -v "$to" >/dev/null 2>&1 || to=
dir=$(mktemp -d "${TMPDIR:-/tmp}/flash_apps.XXXXXX") || exit 99
trap 'rm -rf "$dir"' EXIT
export DSM_PROFILE=off
status=0

simulate() { # MODE APP ARGS...: writes $dir/APP.MODE.json
    mode=$1 app=$2
    shift 2
    prog=$top/apps/$app
    [ -x "$prog" ] || { echo "flash_apps.sh: $prog is not built" >&2; exit 99; }
    DSM_SIM_PROFILE=$dir/$app.$mode.json ${to:+$to -k 5 60} \
        "$dsmrun" --machine=flash,fp_mode=$mode -n 4 "$prog" "$@" >"$dir/out" 2>&1
    rc=$?
    if [ $rc -ne 0 ] || ! grep -Eq "^(\[0\] )?$app: result OK" "$dir/out"; then
        cat "$dir/out"
        echo "=== FAIL: $app (fp_mode=$mode): exit status $rc or no result OK"
        status=1
        return 1
    fi
}

app() {
    name=$1
    shift
    echo "=== $name $*"
    simulate control "$name" "$@" || return
    simulate noproc "$name" "$@" || return
    if "$dsmprof" flashpoint "$dir/$name.noproc.json" "$dir/$name.control.json" \
        --check=3,7,10 >"$dir/report" 2>&1; then
        grep -E 'All misses|Parallel section time|CHECK' "$dir/report"
        echo "=== ok: $name"
    else
        cat "$dir/report"
        echo "=== FAIL: $name"
        status=1
    fi
}

app fft --m=10
app lu --n=64 --b=16
app radix --keys=8192 --radix=64 --bits=12
app ocean --n=48 --iters=10
exit $status
