#!/bin/sh
# block_bench.sh - block mode's costs, one table per run (make run-block-bench):
#  1. the inline checks on compute kernels: each app built with the same
#     clang -O2, plain and with dsmcc --dsm, run natively (one node, the
#     default block size):
#     - time: user + system CPU time of the whole run (kernel and the
#       app's own check), best of 5: on a loaded machine a job's wall time
#       is mostly waiting for a core, its CPU time is not; the ratio is
#       checked / plain;
#     - instructions (when valgrind is there): whole program, counted by
#       cachegrind, deterministic and immune to the machine's load; the
#       plain build is linked with bench/blk_register.c so it runs in block
#       mode without checks (page mode's faults do not run under valgrind);
#       at the default block size and at 64 bytes;
#  2. remote read and write miss latency on two nodes (bench/blk_miss.c):
#     page mode (plain build, 4 KiB pages) against block mode at 64 B and
#     4 KiB, on shm and (when mpirun is there) mpi.
# Run from the build tree after `make`; sizes can be scaled with SCALE=2 etc.
# NOVALGRIND=1 skips the instruction counts.
top=${top_builddir:-.}
src=${top_srcdir:-$(dirname "$0")/..}
clang=$(sed -n 's/^clang="\(.*\)"$/\1/p' "$top/dsmcc")
[ -x "$clang" ] || { echo "block_bench: dsmcc has no clang (configure found no LLVM)"; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/block_bench.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
abs_top=$(cd "$top" && pwd)
export DSMCC_INCLUDEDIR=$(cd "$src" && pwd)/include DSMCC_LIBDIR=$abs_top/.libs \
    DSMCC_PLUGIN=$abs_top/dsm/tools/checkpass/dsmcheck.so
export DSM_PROFILE=off
s=${SCALE:-1}
valgrind=
[ -z "$NOVALGRIND" ] && command -v valgrind >/dev/null 2>&1 && valgrind=valgrind

build() { # NAME SOURCE [extra link args]
    name=$1 file=$2
    shift 2
    "$clang" -O2 -I"$DSMCC_INCLUDEDIR" "$file" -o "$tmp/$name.plain" -L"$DSMCC_LIBDIR" \
        -Wl,-rpath,"$DSMCC_LIBDIR" -ldsm "$@" || exit 1
    sh "$top/dsmcc" --dsm -O2 "$file" -o "$tmp/$name.checked" "$@" || exit 1
    if [ -n "$valgrind" ]; then
        "$clang" -O2 -I"$DSMCC_INCLUDEDIR" "$file" "$src/bench/blk_register.c" -o "$tmp/$name.reg" \
            -L"$DSMCC_LIBDIR" -Wl,-rpath,"$DSMCC_LIBDIR" -ldsm "$@" || exit 1
    fi
}

best5() { # PROGRAM ARGS...: the best of 5 CPU times (user + system, seconds)
    best=
    for i in 1 2 3 4 5; do
        /usr/bin/time -o "$tmp/time" -f '%U %S' "$@" > "$tmp/out" 2>&1 ||
            { cat "$tmp/out" >&2; echo "block_bench: $* failed" >&2; exit 1; }
        grep -q 'result OK' "$tmp/out" || { cat "$tmp/out" >&2; echo "block_bench: $*: no result OK" >&2; exit 1; }
        t=$(awk '{ print $1 + $2 }' "$tmp/time")
        if [ -z "$best" ] || [ "$(echo "$t < $best" | bc -l)" = 1 ]; then best=$t; fi
    done
    echo "$best"
}

irefs() { # PROGRAM ARGS...: instructions executed, all threads; fails without "result OK"
    # DSM_ASLR=keep: dsm_init's re-execution without randomisation
    # (dsm/aslr.c) would exec valgrind's tool itself (/proc/self/exe)
    DSM_ASLR=keep valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null "$@" \
        > "$tmp/vg" 2>&1
    grep -q 'result OK' "$tmp/vg" || { cat "$tmp/vg" >&2; echo "block_bench: valgrind $*: no result OK" >&2; exit 1; }
    sed -n 's/.*I *refs: *//p' "$tmp/vg" | tr -d ,
}

ratio() { echo "$1 $2" | awk '{ if ($1 > 0) printf "%.2f", $2 / $1; else print "?" }'; }

echo "Block mode: inline access checks on compute kernels (native, one node, clang -O2)"
echo "cpu: user+system seconds of the whole run, best of 5; instr: instructions of the whole run"
echo "(cachegrind; smaller sizes, given below), at the default block size and at 64 bytes"
printf '%-7s %-22s %9s %9s %6s %8s %9s\n' kernel "arguments (cpu)" plain_s checked_s ratio \
    instr instr_64B
for k in "matmul:$((768 * s)) 32:$((256 * s)) 32" "jacobi:$((1024 * s)) 100:$((512 * s)) 100" \
         "fft:--m=$((20 + 2 * (s - 1))):--m=$((16 + 2 * (s - 1)))" \
         "lu:--n=$((1536 * s)) --b=16:--n=$((384 * s)) --b=16" \
         "radix:--keys=$((16777216 * s)):--keys=$((1048576 * s))"; do
    name=${k%%:*} rest=${k#*:}
    targs=${rest%%:*} iargs=${rest#*:}
    build "$name" "$src/apps/$name.c" -lm
    p=$(best5 "$tmp/$name.plain" $targs)
    c=$(best5 "$tmp/$name.checked" $targs)
    ir=- ir64=-
    if [ -n "$valgrind" ]; then
        ir=$(ratio "$(irefs "$tmp/$name.reg" $iargs)" "$(irefs "$tmp/$name.checked" $iargs)")
        ir64=$(ratio "$(DSM_BLOCK_SIZE=64 irefs "$tmp/$name.reg" $iargs)" \
                     "$(DSM_BLOCK_SIZE=64 irefs "$tmp/$name.checked" $iargs)")
    fi
    printf '%-7s %-22s %9.2f %9.2f %6s %8s %9s\n' "$name" "$targs" "$p" "$c" "$(ratio "$p" "$c")" \
        "$ir" "$ir64"
    [ -n "$valgrind" ] && iused="$iused $name $iargs;"
done
[ -n "$valgrind" ] && echo "(instr arguments:$iused)"

echo
echo "Remote miss latency, 2 nodes (us per miss, median of 7 rounds of 200 blocks)"
build blk_miss "$src/bench/blk_miss.c"
transports=shm
command -v "${MPIRUN:-mpirun}" >/dev/null 2>&1 && transports="shm mpi"
printf '%-10s %-6s %-8s %10s %10s\n' mode transport block read_us write_us
for t in $transports; do
    for cfg in "page:plain:4096" "block:checked:4096" "block:checked:64"; do
        mode=${cfg%%:*} rest=${cfg#*:} kind=${rest%%:*} bs=${rest#*:}
        if [ "$t" = mpi ]; then
            run="sh $src/tests/mpirun_dsm.sh -n 2"
        else
            run="$top/dsmrun -n 2"
        fi
        line=$(DSM_BLOCK_SIZE=$bs $run "$tmp/blk_miss.$kind" 200 2>&1 | grep 'blk_miss:')
        rd=$(echo "$line" | sed -n 's/.*read_us=\([0-9.]*\).*/\1/p')
        wr=$(echo "$line" | sed -n 's/.*write_us=\([0-9.]*\).*/\1/p')
        printf '%-10s %-6s %-8s %10s %10s\n' "$mode" "$t" "$bs" "${rd:-?}" "${wr:-?}"
    done
done
