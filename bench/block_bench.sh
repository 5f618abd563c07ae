#!/bin/sh
# block_bench.sh - block mode's costs, one table per run (make run-block-bench):
#  1. the inline checks on compute kernels: each app built twice with the
#     same clang -O2, plain and with dsmcc --dsm, run natively (one node),
#     best of 3 wall-clock times; the ratio is checked / plain;
#  2. remote read and write miss latency on two nodes (bench/blk_miss.c):
#     page mode (plain build, 4 KiB pages) against block mode at 64 B and
#     4 KiB, on shm and (when mpirun is there) mpi.
# Run from the build tree after `make`; sizes can be scaled with SCALE=2 etc.
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

build() { # NAME SOURCE [extra link args]
    name=$1 file=$2
    shift 2
    "$clang" -O2 -I"$DSMCC_INCLUDEDIR" "$file" -o "$tmp/$name.plain" -L"$DSMCC_LIBDIR" \
        -Wl,-rpath,"$DSMCC_LIBDIR" -ldsm "$@" || exit 1
    sh "$top/dsmcc" --dsm -O2 "$file" -o "$tmp/$name.checked" "$@" || exit 1
}

best3() { # PROGRAM ARGS...: the best of 3 wall-clock times in seconds
    best=
    for i in 1 2 3; do
        t0=$(date +%s%N)
        "$@" > "$tmp/out" 2>&1 || { cat "$tmp/out" >&2; echo "block_bench: $* failed" >&2; exit 1; }
        t1=$(date +%s%N)
        t=$(( (t1 - t0) / 1000 ))
        if [ -z "$best" ] || [ "$t" -lt "$best" ]; then best=$t; fi
    done
    echo "$best"
}

echo "Block mode: inline access checks on compute kernels (native, one node, clang -O2)"
printf '%-8s %-26s %10s %10s %7s\n' kernel arguments plain_ms checked_ms ratio
for k in "matmul:$((256 * s)) 32" "jacobi:$((512 * s)) 100" "fft:--m=$((16 + 2 * (s - 1)))" \
         "lu:--n=$((384 * s)) --b=16" "radix:--keys=$((1048576 * s))"; do
    name=${k%%:*} args=${k#*:}
    build "$name" "$src/apps/$name.c" -lm
    p=$(best3 "$tmp/$name.plain" $args)
    c=$(best3 "$tmp/$name.checked" $args)
    printf '%-8s %-26s %10.1f %10.1f %7.2f\n' "$name" "$args" "$(echo "$p / 1000" | bc -l)" \
        "$(echo "$c / 1000" | bc -l)" "$(echo "$c / $p" | bc -l)"
done

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
