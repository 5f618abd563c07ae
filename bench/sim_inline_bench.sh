#!/bin/sh
# sim_inline_bench.sh - the slowdowns of simulated runs against the plain -O2
# program (bench/plain_APP), for the two flavours of the instrumentation:
#   hooks   the gcc flavour (apps/APP: dsmcc's default, a hook call per load
#           and store);
#   inline  dsmcc --sim (the pass inlines the hook's test: a hit in the
#           simulated cache costs no call), built here from apps/APP.c;
# each run full (every reference simulated) and with MemSpy's sampling
# (sample_period=1000000,sample_length=100000: 10% of the references, stale
# caches between windows), on the uniform machine with P processors.
# Time is the CPU time (user + system) of the whole process, as the machine
# is shared: a job's wall time is mostly waiting for a core, its CPU time is
# not.  The runs are interleaved round by round (plain, then each simulated
# run, K rounds) and each slowdown is the median over the rounds of the
# run's time over the same round's plain time, so a drift of the machine's
# speed hits both sides of a ratio.
#   bench/sim_inline_bench.sh [--runs K] [--procs P] [--quick] [APP...]
# (default K=5, P=4, APP = fft lu mm at the paper sizes; --quick: small
# sizes).  `make run-sim-inline-bench` runs it; by hand, run it from the
# build tree after `make` and `make bench` (bench/plain_*), with clang and
# the pass (configure found LLVM).
top=${top_builddir:-.}
src=${top_srcdir:-$(dirname "$0")/..}
runs=5 procs=4 quick=no apps=
while [ $# -gt 0 ]; do
    case $1 in
    --runs) runs=$2; shift 2 ;;
    --procs) procs=$2; shift 2 ;;
    --quick) quick=yes; shift ;;
    -*) echo "sim_inline_bench: unknown option $1" >&2; exit 2 ;;
    *) apps="$apps $1"; shift ;;
    esac
done
[ -n "$apps" ] || apps="fft lu mm"
abs_top=$(cd "$top" && pwd)
export DSMCC_INCLUDEDIR=$(cd "$src" && pwd)/include DSMCC_LIBDIR=$abs_top/.libs \
    DSMCC_PLUGIN=$abs_top/dsm/tools/checkpass/dsmcheck.so \
    DSMCC_SIM_BC=$abs_top/dsm/tools/checkpass/dsmsim.bc
[ -f "$DSMCC_SIM_BC" ] || { echo "sim_inline_bench: no dsmsim.bc (configure found no LLVM)" >&2; exit 1; }
export DSM_PROFILE=off DSM_PROFILE_SUMMARY=off DSM_SIM_PROFILE=off
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sim_inline_bench.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
sampled=uniform,sample_period=1000000,sample_length=100000

args_of() {
    if [ $quick = yes ]; then
        case $1 in fft) echo "--m=12" ;; lu) echo "--n=128" ;; mm) echo "--n=64" ;; esac
    else
        case $1 in mm) echo "--memspy" ;; *) echo "--paper" ;; esac
    fi
}

cpu() { # OUT-VAR-FILE CMD...: CPU seconds of the command, appended to the file
    f=$1
    shift
    /usr/bin/time -o "$tmp/time" -f '%U %S' "$@" >"$tmp/out" 2>&1 ||
        { cat "$tmp/out" >&2; echo "sim_inline_bench: $* failed" >&2; exit 1; }
    awk '{ print $1 + $2 }' "$tmp/time" >>"$f"
}

median() { sort -g "$1" | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

printf 'CPU seconds (medians of %s rounds) and slowdowns against plain -O2 (medians of the\n' "$runs"
printf 'rounds'"'"' ratios), uniform machine, %s processors; sampled: %s\n\n' "$procs" "$sampled"
printf '| app | plain s | hooks full | inline full | hooks sampled | inline sampled | full / sampled (inline) |\n'
printf '|---|---|---|---|---|---|---|\n'
for app in $apps; do
    a=$(args_of "$app")
    [ -x "$top/bench/plain_$app" ] && [ -x "$top/apps/$app" ] ||
        { echo "sim_inline_bench: build $top/bench/plain_$app (make bench) and $top/apps/$app" >&2; exit 1; }
    sh "$top/dsmcc" --sim -O2 "$src/apps/$app.c" -o "$tmp/$app.inline" -lm ||
        { echo "sim_inline_bench: dsmcc --sim $app failed" >&2; exit 1; }
    rm -f "$tmp"/t.*
    i=0
    while [ $i -lt "$runs" ]; do
        cpu "$tmp/t.plain" "$top/bench/plain_$app" $a
        cpu "$tmp/t.hf" "$top/dsmrun" --machine=uniform -n "$procs" "$top/apps/$app" $a
        cpu "$tmp/t.if" "$top/dsmrun" --machine=uniform -n "$procs" "$tmp/$app.inline" $a
        cpu "$tmp/t.hs" "$top/dsmrun" --machine="$sampled" -n "$procs" "$top/apps/$app" $a
        cpu "$tmp/t.is" "$top/dsmrun" --machine="$sampled" -n "$procs" "$tmp/$app.inline" $a
        i=$((i + 1))
    done
    for k in hf if hs is; do
        paste "$tmp/t.$k" "$tmp/t.plain" | awk '{ print $1 / $2 }' >"$tmp/r.$k"
    done
    paste "$tmp/t.if" "$tmp/t.is" | awk '{ print $1 / $2 }' >"$tmp/r.gain"
    printf '| %s %s | %.3f | %.1fx | %.1fx | %.1fx | %.1fx | %.1fx |\n' "$app" "$a" \
        "$(median "$tmp/t.plain")" "$(median "$tmp/r.hf")" "$(median "$tmp/r.if")" \
        "$(median "$tmp/r.hs")" "$(median "$tmp/r.is")" "$(median "$tmp/r.gain")"
done
printf '\nTargets (MemSpy): full at most 30x, sampled at most 8x.\n'
