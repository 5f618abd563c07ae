#!/bin/sh
# sim_frontend.sh - the execution front end of the simulated machines:
#   1. tests/sim_counts on the uniform machine with 4 processors: the miss
#      counts per bin and per procedure equal the hand-computed ones (see
#      tests/sim_counts.c), data values verify
#   2. --quantum=1 twice: identical statistics (host time aside); the
#      default quantum gives the same counts in the phases separated by
#      barriers
#   3. the same binary natively and on dsmrun -n 2
#   4. errors are clear and bounded: unknown machine, bad option, -p, a
#      deadlock, a processor without dsm_finalize, --quantum without --machine
#   5. dsm_wtime counts the machine's own clock: on origin (cpu_mhz, 195 by
#      default and 390 set) the program's last dsm_wtime is within 10% of
#      the run's cycles over the clock (a 1 GHz clock would give 0.195)
# Run by `make check` from the build directory.
set -u
builddir=${top_builddir:-.}
DSMRUN=${DSMRUN:-$builddir/dsmrun}
prog=$builddir/tests/sim_counts
get=$builddir/tests/sim_json_get
to=${TIMEOUT:-timeout}
[ -n "$to" ] || to=timeout
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sim_frontend.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT

fail=0
ok() { echo "ok: $1"; }
bad() { echo "FAIL: $1"; fail=1; }

# run NAME ARGS...: dsmrun ARGS with the statistics in $tmp/NAME.json
run() {
    name=$1; shift
    DSM_SIM_PROFILE=$tmp/$name.json "$to" 20 "$DSMRUN" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
}

# want FILE PATH VALUE
want() {
    v=$("$get" "$1" "$2")
    if [ "$v" = "$3" ]; then ok "$(basename "$1") $2 = $3"; else bad "$(basename "$1") $2 = $v, want $3"; fi
}

# --- 1. hand-computed counts: P=4, R=5 rounds, L=64 lines -------------------
P=4 R=5 L=64
if run counts --machine=uniform -n $P "$prog"; then
    ok "sim_counts on uniform -n $P: $(cat "$tmp/counts.out")"
else
    bad "sim_counts on uniform -n $P failed: $(cat "$tmp/counts.err")"
fi
grep -q '^dsm-sim: uniform, 4 processors: .* references, .* misses' "$tmp/counts.err" &&
    ok "summary: $(grep '^dsm-sim:' "$tmp/counts.err")" || bad "no summary line: $(cat "$tmp/counts.err")"
f=$tmp/counts.json
want "$f" schema dsm-sim/1
want "$f" processors $P
want "$f" 'by_bin[name=own].write_misses' $P
want "$f" 'by_bin[name=own].read_misses' $((P - 1))
want "$f" 'by_bin[name=own].cold' $((2 * P - 1))
want "$f" 'by_bin[name=shared].read_misses' $((L * P))
want "$f" 'by_bin[name=shared].cold' $((L * P))
want "$f" 'by_bin[name=shared].write_misses' 0
want "$f" 'by_bin[name=token].write_misses' $((R * P))
want "$f" 'by_bin[name=token].read_misses' 1
want "$f" 'by_bin[name=token].cold' $P
want "$f" 'by_bin[name=token].invalidation' $((P * (R - 1) + 1))
want "$f" 'by_bin[name=token].false_sharing' 0
want "$f" 'by_bin[name=slots].write_misses' $((R * P))
want "$f" 'by_bin[name=slots].invalidation' $((P * (R - 1) + 1))
want "$f" 'by_bin[name=slots].false_sharing' $((P * (R - 1) + 1))
want "$f" 'totals.replacement' 0
want "$f" 'by_procedure[name=pingpong].write_misses' $((R * P))
want "$f" 'by_procedure[name=read_shared].read_misses' $((L * P))
want "$f" 'by_procedure[name=write_slots].write_misses' $((R * P))

# --- 2. determinism ------------------------------------------------------------
run k1a --machine=uniform --quantum=1 -n $P "$prog" && run k1b --machine=uniform --quantum=1 -n $P "$prog" ||
    bad "--quantum=1 runs failed: $(cat "$tmp/k1a.err" "$tmp/k1b.err")"
"$get" --strip host_seconds "$tmp/k1a.json" >"$tmp/k1a.canon"
"$get" --strip host_seconds "$tmp/k1b.json" >"$tmp/k1b.canon"
if [ -s "$tmp/k1a.canon" ] && cmp -s "$tmp/k1a.canon" "$tmp/k1b.canon"; then
    ok "--quantum=1: two runs give identical statistics ($(wc -c <"$tmp/k1a.canon") bytes)"
else
    bad "--quantum=1: the two runs differ"
fi
# the phases separated by barriers count the same whatever the quantum (the
# values phase does not: its readers overlap processor 0's own reads)
for b in own shared token slots; do
    for m in read_misses write_misses cold invalidation false_sharing; do
        want "$tmp/k1a.json" "by_bin[name=$b].$m" "$("$get" "$f" "by_bin[name=$b].$m")"
    done
done

# --- 3. the same binary natively and on the DSM --------------------------------
if DSM_PROFILE=off "$to" 20 "$prog" >"$tmp/native.out" 2>&1; then ok "natively: $(cat "$tmp/native.out")"
else bad "natively: $(cat "$tmp/native.out")"; fi
if DSM_PROFILE=off "$to" 20 "$DSMRUN" -n 2 "$prog" >"$tmp/dsm.out" 2>&1; then
    ok "dsmrun -n 2: $(grep sim_counts "$tmp/dsm.out")"
else
    bad "dsmrun -n 2: $(cat "$tmp/dsm.out")"
fi

# --- 4. errors -------------------------------------------------------------------
# expect STATUS PATTERN NAME ARGS...
expect() {
    st=$1 pat=$2 name=$3; shift 3
    run "$name" "$@"
    rc=$?
    if [ "$rc" != "$st" ]; then
        bad "dsmrun $*: status $rc, want $st; stderr: $(cat "$tmp/$name.err")"
    elif ! grep -q -e "$pat" "$tmp/$name.err"; then
        bad "dsmrun $*: stderr lacks '$pat': $(cat "$tmp/$name.err")"
    else
        ok "dsmrun $* -> $rc: $(head -n 1 "$tmp/$name.err")"
    fi
}
expect 2 "no-such-machine" unknown --machine=no-such-machine -n 2 "$prog"
expect 2 "option 'bogus=1'" badopt --machine=uniform,bogus=1 -n 2 "$prog"
expect 2 "-p cannot be used with --machine" prefix --machine=uniform -p -n 2 "$prog"
expect 2 "--quantum needs --machine" quantum_alone --quantum=4 -n 2 "$prog"
expect 2 "--quantum wants" quantum_bad --machine=uniform --quantum=0 -n 2 "$prog"
expect 1 "deadlock: no simulated processor can ever run again (processor 0 in dsm_barrier, processor 1 in dsm_lock" \
    deadlock --machine=uniform -n 2 "$prog" deadlock
expect 1 "processor 1: main: returned (status 0) without calling dsm_finalize" \
    nofinalize --machine=uniform -n 2 "$prog" nofinalize
# DSM_MACHINE set by hand with a bad name: dsm_init says so, the program fails
DSM_MACHINE=nothing DSM_SIM_PROFILE=off "$to" 20 "$prog" >"$tmp/env.out" 2>&1
rc=$?
if [ $rc != 0 ] && grep -q "DSM_MACHINE=nothing" "$tmp/env.out"; then
    ok "DSM_MACHINE=nothing -> $rc: $(head -n 1 "$tmp/env.out")"
else
    bad "DSM_MACHINE=nothing -> $rc: $(cat "$tmp/env.out")"
fi
# --- 5. dsm_wtime in the machine's seconds -----------------------------------
for mhz in 195 390; do
    run wtime$mhz --machine=origin,cpu_mhz=$mhz -n 2 "$prog"
    t=$(sed -n 's/^sim_counts: dsm_wtime //p' "$tmp/wtime$mhz.out")
    cyc=$(sed -n 's/^dsm-sim: .* processors: \([0-9]*\) cycles.*/\1/p' "$tmp/wtime$mhz.err" "$tmp/wtime$mhz.out" | head -1)
    if [ -n "$t" ] && [ -n "$cyc" ] &&
        awk -v t="$t" -v c="$cyc" -v m="$mhz" 'BEGIN { r = t * m * 1e6 / c; exit !(r > 0.9 && r <= 1.0001) }'; then
        ok "origin cpu_mhz=$mhz: dsm_wtime $t s for $cyc cycles"
    else
        bad "origin cpu_mhz=$mhz: dsm_wtime '$t' s for '$cyc' cycles (want cycles / $mhz MHz within 10%)"
    fi
done

exit $fail
