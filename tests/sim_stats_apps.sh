#!/bin/sh
# sim_stats_apps.sh - MemSpy's statistics on two simulated programs, read
# through `dsmprof memspy` from the dsm-sim/1 file the run wrote:
#   apps/mm --memspy (293 x 293, B = 56) on `dsmrun --machine=uniform -n 1`
#     (the thesis' sequential run, section 3.1): mm.Y is the bin with the most
#     stall time, and at least 90% of its replacements are caused by mm.Y
#     itself (self-interference);
#   the same mm with 10% time sampling: the full-run estimate of its misses
#     within 5% of the full run's count, samples and unknown causes shown;
#   apps/fft --paper on 4 processors, full and sampled: the same 5%;
#   apps/slots on 4 processors: the slots' bin misses are invalidations
#     (at least 90% of its misses) and false sharing (at least 90% of them).
top=${top_builddir:-.}
dsmrun=${DSMRUN:-$top/dsmrun}
prof=$top/dsmprof
[ -x "$dsmrun" ] || { echo "sim_stats_apps.sh: $dsmrun is not built" >&2; exit 99; }
for p in "$top/apps/mm" "$top/apps/slots" "$prof"; do
    [ -x "$p" ] || { echo "sim_stats_apps.sh: $p is not built" >&2; exit 99; }
done
to=${TIMEOUT:-timeout}
command -v "$to" >/dev/null 2>&1 || to=
dir=$(mktemp -d "${TMPDIR:-/tmp}/sim_stats_apps.XXXXXX") || exit 99
trap 'rm -rf "$dir"' EXIT
export DSM_PROFILE=off
fail=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; fail=1; }

run() { # run NAME MACHINE P ARGS...: simulate, statistics in $dir/NAME.json, report in $dir/NAME.txt
    name=$1 machine=$2 np=$3; shift 3
    echo "=== dsmrun --machine=$machine -n $np $*"
    DSM_SIM_PROFILE=$dir/$name.json ${to:+$to -k 5 120} "$dsmrun" --machine="$machine" -n "$np" "$@" \
        > "$dir/$name.out" 2>&1
    rc=$?
    cat "$dir/$name.out"
    [ $rc -eq 0 ] || { bad "$name: exit status $rc"; return 1; }
    "$prof" memspy "$dir/$name.json" > "$dir/$name.txt" 2>&1 || { bad "$name: dsmprof memspy failed"; cat "$dir/$name.txt"; return 1; }
    cat "$dir/$name.txt"
}

if run mm uniform 1 "$top/apps/mm" --memspy; then
    first=$(sed -n '/^Data bins/{n;n;p;}' "$dir/mm.txt" | awk '{print $1}')
    [ "$first" = mm.Y ] && ok "mm: mm.Y has the most stall time" || bad "mm: first bin is '$first', not mm.Y"
    self=$(sed -n 's/^  mm\.Y: [0-9]* replacement misses, \([0-9.]*\)% self-caused$/\1/p' "$dir/mm.txt")
    if [ -n "$self" ] && awk -v s="$self" 'BEGIN { exit !(s >= 90) }'; then
        ok "mm: $self% of mm.Y's replacements are self-caused (>= 90%)"
    else
        bad "mm: mm.Y self-caused replacements '$self'% (want >= 90%)"
    fi
fi

# Time sampling (Ch. 6) with warm caches (sample_caches=warm: every
# reference still simulated between windows): 10% of the time in
# 100,000-cycle samples; the full-run estimate of the misses must land
# within 5% of the full run's count, and the misses whose line left while
# statistics were off show as unknown.
warm=sample_caches=warm
if [ -s "$dir/mm.txt" ] &&
   run mm_sampled uniform,sample_period=1000000,sample_length=100000,$warm 1 "$top/apps/mm" --memspy; then
    full=$(sed -n 's/^  misses \([0-9]*\) (read.*/\1/p' "$dir/mm.txt")
    est=$(sed -n 's/^  full run estimate: misses \([0-9]*\) +- .*/\1/p' "$dir/mm_sampled.txt")
    if [ -n "$full" ] && [ -n "$est" ] &&
       awk -v f="$full" -v e="$est" 'BEGIN { d = e - f; if (d < 0) d = -d; exit !(d <= 0.05 * f) }'; then
        ok "mm sampled: estimated $est misses, full run $full (within 5%)"
    else
        bad "mm sampled: estimate '$est' against the full run's '$full' misses (want within 5%)"
    fi
    grep -Eq '^  [0-9]+ samples of 100000 cycles every 1000000 cycles; sampling ratio 0\.(09|10|11)' "$dir/mm_sampled.txt" \
        && ok "mm sampled: samples and ratio shown" || bad "mm sampled: no samples line with ratio ~0.1"
    grep -Eq '[1-9][0-9]* misses of unknown cause' "$dir/mm_sampled.txt" \
        && ok "mm sampled: unknown causes shown" || bad "mm sampled: no misses of unknown cause"
fi

# fft (4 processors, the paper size): few long phases of very different
# reference rates (a transpose that misses on every line, row transforms that
# hit), the case where scaling by the windows' share of the references erred
# by 15.6%; scaled by their share of the time (doc/simulation.md) the
# estimate must land within 5% too.
if [ -x "$top/apps/fft" ] && run fft uniform 4 "$top/apps/fft" --paper &&
   run fft_sampled uniform,sample_period=1000000,sample_length=100000,$warm 4 "$top/apps/fft" --paper; then
    full=$(sed -n 's/^  misses \([0-9]*\) (read.*/\1/p' "$dir/fft.txt")
    est=$(sed -n 's/^  full run estimate: misses \([0-9]*\) +- .*/\1/p' "$dir/fft_sampled.txt")
    if [ -n "$full" ] && [ -n "$est" ] &&
       awk -v f="$full" -v e="$est" 'BEGIN { d = e - f; if (d < 0) d = -d; exit !(d <= 0.05 * f) }'; then
        ok "fft sampled: estimated $est misses, full run $full (within 5%)"
    else
        bad "fft sampled: estimate '$est' against the full run's '$full' misses (want within 5%)"
    fi
fi

# MemSpy's own sampling (sample_caches=stale, the default): between windows
# nothing is simulated, so a window starts on stale caches; its misses on
# lines whose history lies between windows have unknown cause, and they and
# its first hits on lines held from before are Eq. 6.1's U.  On mm (one
# processor) the full run's miss rate and miss count must lie within
# Eq. 6.1's bounds, with U > 0 (the bound is not zero).
get=$top/tests/sim_json_get
if [ -s "$dir/mm.txt" ] && [ -x "$get" ] &&
   run mm_stale uniform,sample_period=1000000,sample_length=100000 1 "$top/apps/mm" --memspy; then
    full=$(sed -n 's/^  misses \([0-9]*\) (read.*/\1/p' "$dir/mm.txt")
    refs=$("$get" "$dir/mm.json" references)
    set -- $("$get" "$dir/mm_stale.json" sampling.unknown_references sampling.miss_rate.value \
        sampling.miss_rate.bound sampling.estimates.totals.misses.value \
        sampling.estimates.totals.misses.bound sampling.caches)
    if [ "$6" = stale ] && awk -v u="$1" -v r="$2" -v b="$3" -v e="$4" -v eb="$5" -v f="$full" \
            -v n="$refs" 'BEGIN { fr = f / n
              exit !(u > 0 && b > 0 && eb > 0 && fr >= r - b && fr <= r + b &&
                     f >= e - eb && f <= e + eb) }'; then
        ok "mm stale sampling: U = $1, miss rate $2 +- $3 holds the full run's $full / $refs, estimate $4 +- $5"
    else
        bad "mm stale sampling: U '$1', rate '$2' +- '$3', estimate '$4' +- '$5', caches '$6' against the full run's $full misses of $refs references"
    fi
fi

# fft (4 processors) with stale caches, windows counted in references (the
# default, MemSpy's unit): the full run's miss rate within Eq. 6.1's bounds.
# Counted in cycles with unsimulated references at a hit's cost (the old way:
# sample_unit=cycles,sample_gap=hit), the windows fell mostly in the
# row transforms and the estimate was 3.7% +- 1.8% against 6.78%: the same
# check fails then (doc/simulation.md, "Time sampling").
if [ -s "$dir/fft.json" ] && [ -x "$get" ] &&
   run fft_stale uniform,sample_period=1000000,sample_length=100000${FFT_STALE_OPTS:+,$FFT_STALE_OPTS} 4 \
       "$top/apps/fft" --paper; then
    full=$(sed -n 's/^  misses \([0-9]*\) (read.*/\1/p' "$dir/fft.txt")
    refs=$("$get" "$dir/fft.json" references)
    set -- $("$get" "$dir/fft_stale.json" sampling.unknown_references sampling.miss_rate.value \
        sampling.miss_rate.bound sampling.unit)
    if [ "$4" = references ] && awk -v u="$1" -v r="$2" -v b="$3" -v f="$full" -v n="$refs" \
            'BEGIN { fr = f / n; exit !(u > 0 && b > 0 && fr >= r - b && fr <= r + b) }'; then
        ok "fft stale sampling: U = $1, miss rate $2 +- $3 holds the full run's $full / $refs"
    else
        bad "fft stale sampling: U '$1', rate '$2' +- '$3', unit '$4' against the full run's $full misses of $refs references"
    fi
fi

# slots synchronises only at its end: interleaved per miss (apps_sim_findings.sh says why)
if run slots uniform,reschedule=miss 4 "$top/apps/slots"; then
    # the bins table: name stall% misses reads writes cold% repl% inv% unkn%
    inv=$(awk '/^Data bins/ { t = 1; next } t && $1 == "slots.free_list_heads" { print $8; exit }' "$dir/slots.txt")
    inv=${inv%\%}
    if [ -n "$inv" ] && awk -v s="$inv" 'BEGIN { exit !(s >= 90) }'; then
        ok "slots: $inv% of the slots' misses are invalidations"
    else
        bad "slots: invalidation share of slots.free_list_heads '$inv'% (want >= 90%)"
    fi
    fs=$(awk '$1 == "slots.free_list_heads" && NF == 5 { print $5 }' "$dir/slots.txt")
    fs=${fs%\%}
    if [ -n "$fs" ] && awk -v s="$fs" 'BEGIN { exit !(s >= 90) }'; then
        ok "slots: $fs% of those invalidation misses are false sharing"
    else
        bad "slots: false-sharing share '$fs'% (want >= 90%)"
    fi
fi
exit $fail
