#!/bin/sh
# sim_bounds.sh - dsmrun --machine refuses, before the program runs (exit
# status 2, one line naming the option and its range):
#   1. every time and size option of every machine at 2^64 - 1 and just
#      past its documented maximum (doc/simulation.md, "Bounds"), and
#      accepts the maximum itself;
#   2. an invalid cache geometry (zero sizes, a line size that is not a
#      power of two, a size that is not a multiple of line x assoc, a line
#      larger than the page or the cache);
#   3. the same geometry given by hand in DSM_MACHINE is refused by the
#      program's dsm_init (the front end runs the same check).
# "Before the program runs": the program is a script that leaves a mark.
# Run by `make check` from the build directory.
set -u
builddir=${top_builddir:-.}
DSMRUN=${DSMRUN:-$builddir/dsmrun}
to=${TIMEOUT:-timeout}
command -v "$to" >/dev/null 2>&1 || to=
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sim_bounds.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
prog=$tmp/mark.sh
printf '#!/bin/sh\ntouch "%s/ran"\n' "$tmp" >"$prog"
chmod +x "$prog"

fail=0
ok() { echo "ok: $1"; }
bad() { echo "FAIL: $1"; fail=1; }

# refused SPEC PATTERN...: status 2, one line matching every PATTERN, no run
refused() {
    spec=$1; shift
    rm -f "$tmp/ran"
    ${to:+$to 20} "$DSMRUN" --machine="$spec" -n 4 "$prog" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    line=$(head -n 1 "$tmp/err")
    if [ $rc -ne 2 ]; then
        bad "--machine=$spec: status $rc, want 2 ($line)"
        return
    fi
    if [ -e "$tmp/ran" ]; then
        bad "--machine=$spec: the program ran"
        return
    fi
    if [ "$(wc -l <"$tmp/err")" -ne 1 ]; then
        bad "--machine=$spec: not one line: $(cat "$tmp/err")"
        return
    fi
    for pat in "$@"; do
        case $line in
            *"$pat"*) ;;
            *) bad "--machine=$spec: '$line' lacks '$pat'"; return ;;
        esac
    done
    ok "--machine=$spec -> 2: $line"
}

# accepted SPEC: the program runs
accepted() {
    rm -f "$tmp/ran"
    if ${to:+$to 20} "$DSMRUN" --machine="$1" -n 4 "$prog" >"$tmp/out" 2>"$tmp/err" &&
        [ -e "$tmp/ran" ]; then
        ok "--machine=$1 accepted"
    else
        bad "--machine=$1 refused: $(cat "$tmp/err")"
    fi
}

# --- 1. bounds: MACHINE OPTION MAX ------------------------------------------
max64=18446744073709551615
while read -r machine key max; do
    refused "$machine,$key=$max64" "'$key'" "out of range 0 .. $max"
    refused "$machine,$key=$((max + 1))" "'$key'" "out of range" "$max"
done <<EOF
uniform hit_cycles 1000000
uniform miss_cycles 1000000
uniform sample_period 1000000000000
uniform sample_length 1000000000000
uniform line_size 4096
uniform cache_size 1073741824
uniform assoc 65536
uniform page_size 1073741824
numa hit_cycles 1000000
numa local_cycles 1000000
numa hop1_cycles 1000000
numa hop_cycles 1000000
numa write_cycles 1000000
origin router_ns 100000
origin mem_access_ns 100000
origin intervention_ns 100000
flash hit_cycles 1000000
flash sample_period 1000000000000
flash pi_in 100000
flash pi_out 100000
flash pi_word 100000
flash fence 100000
flash intervention 100000
flash net_fixed 100000
flash hop 100000
flash inv_send 100000
EOF
refused "flash,cpu_ratio=$max64" "'cpu_ratio'" "out of range 1 .. 64"
refused "flash,link_bytes=$max64" "'link_bytes'" "out of range 1 .. 4096"
refused "flash,PILocalGet=$max64/11" "'PILocalGet'" "range 0 .. 100000"
refused "flash,NILocalGet=15/$max64" "'NILocalGet'" "range 0 .. 100000"
refused "uniform,miss_cycles=18446744073709551616" "'miss_cycles'" "out of range 0 .. 1000000"
accepted "uniform,miss_cycles=1000000,hit_cycles=1000000"
accepted "numa,hop1_cycles=1000000,hop_cycles=1000000,local_cycles=1000000"
accepted "flash,cpu_ratio=64,hop=100000,inv_send=100000,PILocalGet=100000/100000"
refused "origin,mem_mbs=0" "'mem_mbs'" "out of range 1 .. 1000000"
refused "origin,cpu_mhz=$max64" "'cpu_mhz'" "out of range 1 .. 100000"
refused "origin,placement=nearest" "'placement'" "first_touch"
accepted "origin,cpu_mhz=1,mem_mbs=1,sysad_mbs=1,router_ns=100000,placement=round_robin"

# --- 2. geometry -------------------------------------------------------------
refused "uniform,cache_size=0" "cache_size 0"
refused "uniform,line_size=0" "line_size 0" "power of two"
refused "uniform,line_size=48" "line_size 48" "power of two"
refused "uniform,assoc=0" "assoc 0"
refused "uniform,page_size=0" "page_size 0"
refused "uniform,cache_size=65520" "cache_size 65520" "power of two"
refused "uniform,assoc=3" "assoc 3" "power of two"
refused "numa,cache_size=96k,assoc=2" "cache_size 98304" "assoc 2"
refused "uniform,line_size=256,page_size=128" "page_size 128" "at least line_size 256"
refused "uniform,line_size=128,cache_size=64" "cache_size 64" "smaller than one line"
refused "flash,cache_size=128" "cache_size 128" "assoc 2"
refused "uniform,sample_period=100,sample_length=200" "sample_length 200"
accepted "uniform,assoc=2048"

# --- 3. the front end: DSM_MACHINE by hand -------------------------------------
sim_counts=$builddir/tests/sim_counts
if [ -x "$sim_counts" ]; then
    DSM_MACHINE=uniform,cache_size=65520 DSM_SIM_PROCS=2 DSM_SIM_PROFILE=off \
        ${to:+$to 20} "$sim_counts" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ $rc -ne 0 ] && grep -q "DSM_MACHINE=uniform,cache_size=65520: cache_size 65520" "$tmp/err"; then
        ok "DSM_MACHINE with a bad geometry -> $rc: $(head -n 1 "$tmp/err")"
    else
        bad "DSM_MACHINE with a bad geometry -> $rc: $(cat "$tmp/err")"
    fi
    DSM_MACHINE=flash,hop=$max64 DSM_SIM_PROCS=2 DSM_SIM_PROFILE=off \
        ${to:+$to 20} "$sim_counts" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ $rc -ne 0 ] && grep -q "'hop': $max64 is out of range 0 .. 100000" "$tmp/err"; then
        ok "DSM_MACHINE with hop=2^64-1 -> $rc: $(head -n 1 "$tmp/err")"
    else
        bad "DSM_MACHINE with hop=2^64-1 -> $rc: $(cat "$tmp/err")"
    fi
else
    bad "$sim_counts is not built"
fi
exit $fail
