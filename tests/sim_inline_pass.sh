#!/bin/sh
# sim_inline_pass.sh - dsmcc --sim, the simulation flavour of the pass
# (dsm/tools/checkpass/simpass.cpp): the test of a simulated reference
# inlined into the program.
#   1. tests/sim_counts.c built with --sim makes no hook call for its plain
#      loads and stores, and gives the hand-counted misses (256 shared read
#      misses on the uniform machine, 4 processors, as sim_frontend.sh);
#   2. fft, lu and mm built with --sim inline and with DSMCC_SIM_CALLS=1 (the
#      same references as calls of the gcc flavour's hooks) give the same
#      statistics file (but for the program's name and the host's seconds),
#      full and with MemSpy's sampling
#      (stale caches, windows in references, batches between them): the
#      inline check decides every reference as the hooks do.
# Skipped (77) when configure found no LLVM.
set -u
top=${top_builddir:-.}
src=${srcdir:-.}
abs_top=$(cd "$top" && pwd)
plugin=$abs_top/dsm/tools/checkpass/dsmcheck.so
bc=$abs_top/dsm/tools/checkpass/dsmsim.bc
if [ ! -f "$plugin" ] || [ ! -f "$bc" ]; then
    echo "sim_inline_pass.sh: no pass or dsmsim.bc (configure found no LLVM): skipped"
    exit 77
fi
to=${TIMEOUT:-timeout}
command -v "$to" >/dev/null 2>&1 || to=
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sim_inline_pass.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
export DSMCC_INCLUDEDIR=$(cd "$src" && pwd)/include DSMCC_LIBDIR=$abs_top/.libs \
    DSMCC_PLUGIN=$plugin DSMCC_SIM_BC=$bc DSM_PROFILE=off DSM_PROFILE_SUMMARY=off
st=0
ok() { echo "ok: $1"; }
bad() { echo "FAIL: $1"; st=1; }

# 0. the flag: documented; with --dsm, refused with a message
sh "$top/dsmcc" --help 2>&1 | grep -q -- '--sim' && ok "dsmcc --help documents --sim" ||
    bad "dsmcc --help does not document --sim"
sh "$top/dsmcc" --sim --dsm -O2 -c x.c >"$tmp/both" 2>&1
rc=$?
[ $rc -eq 2 ] && grep -q -- '--sim and --dsm' "$tmp/both" && ok "--sim --dsm refused (status 2)" ||
    bad "--sim --dsm: status $rc, $(cat "$tmp/both")"

# 1. the hand-counted program
if sh "$top/dsmcc" --sim -O2 "$src/tests/sim_counts.c" -o "$tmp/counts" 2>"$tmp/cc.err"; then
    ok "dsmcc --sim sim_counts.c"
else
    bad "dsmcc --sim: $(cat "$tmp/cc.err")"
fi
if nm "$tmp/counts" | grep -q '__dsm_sim_access' && ! nm "$tmp/counts" | grep -q '__tsan_write4'; then
    ok "the checks are inline (__dsm_sim_access, no __tsan_write4)"
else
    bad "not inlined: $(nm "$tmp/counts" | grep -E '__tsan|__dsm_sim' | tr '\n' ' ')"
fi
if DSM_SIM_PROFILE=$tmp/c.json ${to:+$to -k 5 60} "$top/dsmrun" --machine=uniform -n 4 "$tmp/counts" \
    >"$tmp/c.out" 2>&1; then
    v=$("$top/tests/sim_json_get" "$tmp/c.json" 'by_bin[name=shared].read_misses')
    [ "$v" = 256 ] && ok "simulated: shared read misses 256" || bad "shared read misses $v, want 256"
else
    bad "simulated sim_counts: $(cat "$tmp/c.out")"
fi

# 2. inline against calls: the same statistics
for app in "fft --m=12" "lu --n=128" "mm --n=64"; do
    set -- $app
    name=$1
    shift
    sh "$top/dsmcc" --sim -O2 "$src/apps/$name.c" -o "$tmp/$name.inline" -lm 2>"$tmp/cc.err" &&
        DSMCC_SIM_CALLS=1 sh "$top/dsmcc" --sim -O2 "$src/apps/$name.c" -o "$tmp/$name.call" -lm \
            2>>"$tmp/cc.err" || { bad "$name: dsmcc --sim: $(cat "$tmp/cc.err")"; continue; }
    for mach in uniform uniform,sample_period=200000,sample_length=20000; do
        for flavour in inline call; do
            DSM_SIM_PROFILE=$tmp/$name.$flavour.json ${to:+$to -k 5 120} "$top/dsmrun" \
                --machine="$mach" -n 4 "$tmp/$name.$flavour" "$@" >"$tmp/out" 2>&1 ||
                { bad "$name $flavour on $mach: $(tail -3 "$tmp/out")"; continue 2; }
        done
        # all but the program's name and the host's seconds
        for flavour in inline call; do
            grep -v -e '"program":' -e '"host_seconds":' "$tmp/$name.$flavour.json" >"$tmp/$flavour.cmp"
        done
        if [ -s "$tmp/inline.cmp" ] && cmp -s "$tmp/inline.cmp" "$tmp/call.cmp"; then
            r=$("$top/tests/sim_json_get" "$tmp/$name.inline.json" 'references')
            ok "$name on $mach: the same statistics inline and as calls ($r references)"
        else
            bad "$name on $mach: the statistics differ inline and as calls"
            diff "$tmp/inline.cmp" "$tmp/call.cmp" | head -20
        fi
    done
done
exit $st
