#!/bin/sh
# run.sh - this project and ArgoDSM side by side on the same workloads, in
# one window, runs interleaved (our shm, our mpi, ArgoDSM, then the matmuls,
# RUNS times), medians and ranges over the runs, the machine's load before
# and after.  ArgoDSM is built beside the project from its public source and
# never committed: ARGO_DIR is either its install prefix
# (include/argo/argo.hpp, lib/libargo*.so) or a source tree with a CMake
# build in ARGO_DIR/build (src/argo.hpp, build/lib).  Without ARGO_DIR the
# script says so and exits 0 (skipped).
#   bench/argo/run.sh [-n RUNS] [-p PAGES] [-m N] [-t TOP_BUILDDIR] ARGO_DIR
#     -n  runs of each program (default 7), -p pages/blocks per round
#     (default 1000), -m matmul size (default 512, tile 32)
# Workloads (doc/cluster.md, "ArgoDSM side by side"): remote read miss and
# write miss, one word per page; the spin handoff of a counter between 2
# nodes; matmul N on 2 nodes against the native program.  Ours also with the
# adaptive protocol and its prefetch (ADAPT, default "DSM_ADAPT=on
# DSM_PREFETCH=8"; ADAPT= leaves that column out): a column per transport.
# BIND (default none) is given to every mpirun as --bind-to.
runs=7 pages=1000 msize=512 top=.
adapt=${ADAPT-DSM_ADAPT=on DSM_PREFETCH=8}
while [ $# -gt 0 ]; do
    case $1 in
        -n) runs=$2; shift 2 ;;
        -p) pages=$2; shift 2 ;;
        -m) msize=$2; shift 2 ;;
        -t) top=$2; shift 2 ;;
        -*) echo "run.sh: unknown option $1" >&2; exit 2 ;;
        *) break ;;
    esac
done
argo=${1:-${ARGO_DIR:-}}
if [ -z "$argo" ]; then
    echo "bench/argo/run.sh: no ArgoDSM build given (ARGO_DIR): skipped"
    exit 0
fi
for v in "$runs" "$pages" "$msize"; do
    case $v in ''|*[!0-9]*) echo "run.sh: -n, -p and -m want numbers, not '$v'" >&2; exit 2 ;; esac
done
src=$(cd "$(dirname "$0")" && pwd)
if [ -f "$argo/include/argo/argo.hpp" ]; then
    inc="-I$argo/include/argo -I$argo/include/argo/backend/mpi"
    lib=$argo/lib
elif [ -f "$argo/src/argo.hpp" ] && [ -d "$argo/build/lib" ]; then
    inc="-I$argo/src -I$argo/src/backend/mpi -I$argo/build/config"
    [ -d "$argo/submodules/qd" ] && inc="$inc -I$argo/submodules/qd"
    lib=$argo/build/lib
else
    echo "run.sh: $argo holds no ArgoDSM build (want include/argo/argo.hpp or src/argo.hpp with build/lib)" >&2
    exit 2
fi
[ -f "$argo/build/config/config.hpp" ] && inc="$inc -I$argo/build/config"
libs="-L$lib -largo"
[ -f "$lib/libargobackend-mpi.so" ] && libs="$libs -largobackend-mpi"
for f in "$top/dsmrun" "$top/bench/bench_core" "$top/apps/matmul"; do
    [ -x "$f" ] || { echo "run.sh: $f is not built (make && make bench)" >&2; exit 2; }
done
root=
[ "$(id -u)" = 0 ] && root=--allow-run-as-root
# every mpirun job, ours and ArgoDSM's alike, placed as BIND says (default
# none: doc/cluster.md, "Placement"; BIND=core is OpenMPI's own default
# for 2 ranks)
mpirun="${MPIRUN:-mpirun} $root --oversubscribe --bind-to ${BIND:-none} -np 2"

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
cxx="${MPICXX:-mpicxx} -O2 -std=c++17 -DOMPI_SKIP_MPICXX=1 -fopenmp $inc"
# shellcheck disable=SC2086
$cxx -o "$tmp/argo_core" "$src/argo_core.cpp" $libs -Wl,-rpath,"$lib" &&
$cxx -o "$tmp/argo_matmul" "$src/argo_matmul.cpp" $libs -Wl,-rpath,"$lib" &&
${CC:-cc} -O2 -o "$tmp/matmul_native" "$src/matmul_native.c" || {
    echo "run.sh: building the ArgoDSM benchmarks failed" >&2; exit 1; }

# each run appends "name value" lines (us, or s for matmul) to $tmp/rows
row() { echo "$1 $2" >>"$tmp/rows"; }
core() { # ours: bench_core's read, write and migratory rows
    awk -v s="$1" '/^remote read miss/ { print s "_read", $4 }
        /^remote write miss/ { print s "_write", $4 }
        /^migratory handoff/ { print s "_handoff", $3 }
        /^barrier handoff/ { print s "_handoff_bar", $3 }
        /^atomic-counter handoff/ { print s "_handoff_atom", $3 }
        /^probe: message round trip/ { print s "_rtt", $5 }' >>"$tmp/rows"
}
echo "load before: $(cat /proc/loadavg)"
i=0
while [ $i -lt "$runs" ]; do
    timeout -k 5 200 "$top/dsmrun" -n 2 --timeout 180 "$top/bench/bench_core" "$pages" 2>/dev/null | core shm
    # shellcheck disable=SC2086
    DSM_TRANSPORT=mpi timeout -k 5 200 $mpirun "$top/bench/bench_core" "$pages" 2>/dev/null | core mpi
    if [ -n "$adapt" ]; then
        # shellcheck disable=SC2086
        env $adapt timeout -k 5 200 "$top/dsmrun" -n 2 --timeout 180 "$top/bench/bench_core" "$pages" 2>/dev/null | core ashm
        # shellcheck disable=SC2086
        env $adapt DSM_TRANSPORT=mpi timeout -k 5 200 $mpirun "$top/bench/bench_core" "$pages" 2>/dev/null | core ampi
    fi
    # ArgoDSM as it comes (a miss fetches up to ARGO_LOAD_SIZE=8 pages), and
    # with ARGO_LOAD_SIZE=1: one page per miss, as ours
    for ls in 8 1; do
        # shellcheck disable=SC2086
        ARGO_LOAD_SIZE=$ls ARGO_PRINT_STATISTICS=0 timeout -k 5 300 $mpirun "$tmp/argo_core" "$pages" 7 100 2>/dev/null |
            awk -v p="argo$ls" '/^argo: remote read miss cold/ { print p "_read_cold", $6 }
                 /^argo: remote read miss warm/ { print p "_read_warm", $6 }
                 /^argo: remote write miss cold/ { print p "_write_cold", $6 }
                 /^argo: remote write miss warm/ { print p "_write_warm", $6 }
                 /^argo: handoff barrier/ { print p "_handoff_barrier", $4 }
                 /^argo: handoff atomics relaxed/ { print p "_handoff_atomic", $5 }
                 /^argo: handoff atomics acqrel/ { print p "_handoff_acqrel", $5 }
                 /^argo: probe mpi round trip/ { print p "_rtt", $6 }
                 /^argo: probe mpi get page/ { print p "_get", $6 }
                 /^argo: counter WRONG/ { print "argo_wrong", 1 }' >>"$tmp/rows"
    done
    row native_matmul "$("$tmp/matmul_native" "$msize" 32 | awk '{ print $(NF-1) }')"
    row shm_matmul "$(timeout -k 5 200 "$top/dsmrun" -n 2 --timeout 180 "$top/apps/matmul" "$msize" 32 2>/dev/null |
        awk '/nodes,/ { print $(NF-1) }')"
    # shellcheck disable=SC2086
    row mpi_matmul "$(DSM_TRANSPORT=mpi timeout -k 5 200 $mpirun "$top/apps/matmul" "$msize" 32 2>/dev/null |
        awk '/nodes,/ { print $(NF-1) }')"
    if [ -n "$adapt" ]; then
        # shellcheck disable=SC2086
        row ashm_matmul "$(env $adapt timeout -k 5 200 "$top/dsmrun" -n 2 --timeout 180 "$top/apps/matmul" "$msize" 32 2>/dev/null |
            awk '/nodes,/ { print $(NF-1) }')"
        # shellcheck disable=SC2086
        row ampi_matmul "$(env $adapt DSM_TRANSPORT=mpi timeout -k 5 200 $mpirun "$top/apps/matmul" "$msize" 32 2>/dev/null |
            awk '/nodes,/ { print $(NF-1) }')"
    fi
    # shellcheck disable=SC2086
    row argo_matmul "$(ARGO_PRINT_STATISTICS=0 timeout -k 5 200 $mpirun "$tmp/argo_matmul" "$msize" 32 2>/dev/null |
        awk '/nodes,/ { print $(NF-1) }')"
    i=$((i + 1))
done
echo "load after: $(cat /proc/loadavg)"
[ -n "${ARGO_ROWS:-}" ] && cp "$tmp/rows" "$ARGO_ROWS"
awk -v runs="$runs" -v pages="$pages" -v msize="$msize" -v adapt="$adapt" '
    function med(k,   i, j, t, n, a) {
        n = cnt[k]; if (n == 0) return "-"
        for (i = 1; i <= n; i++) a[i] = v[k, i]
        for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j-1] > a[j]; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t }
        lo[k] = a[1]; hi[k] = a[n]
        return n % 2 ? a[(n+1)/2] : (a[n/2] + a[n/2+1]) / 2
    }
    function ad(w, scale) {
        return adapt == "" ? "" : sprintf(" %s | %s |", cell("ashm_" w, scale), cell("ampi_" w, scale))
    }
    function cell(k, scale,   m) {
        m = med(k); if (m == "-") return "-"
        return sprintf("%.1f (%.1f-%.1f)", m * scale, lo[k] * scale, hi[k] * scale)
    }
    $2 != "" { cnt[$1]++; v[$1, cnt[$1]] = $2 }
    END {
        printf "medians over %d runs (min-max); us unless said; %d pages per round\n", runs, pages
        # the adaptive columns, when ADAPT is set: "| x | y " after ours
        hd = adapt == "" ? "" : sprintf(" this project, shm, %s | this project, mpi, %s |", adapt, adapt)
        sep = adapt == "" ? "" : "---|---|"
        printf "| workload | this project, shm | this project, mpi |%s ArgoDSM (MPI), ARGO_LOAD_SIZE=8 (default) | ArgoDSM, ARGO_LOAD_SIZE=1 |\n|---|---|---|%s---|---|\n", hd, sep
        printf "| remote read miss, one word per page | %s | %s |%s cold %s, warm %s | cold %s, warm %s |\n", cell("shm_read", 1), cell("mpi_read", 1), ad("read", 1), cell("argo8_read_cold", 1), cell("argo8_read_warm", 1), cell("argo1_read_cold", 1), cell("argo1_read_warm", 1)
        printf "| remote write miss | %s | %s |%s cold %s, warm %s | cold %s, warm %s |\n", cell("shm_write", 1), cell("mpi_write", 1), ad("write", 1), cell("argo8_write_cold", 1), cell("argo8_write_warm", 1), cell("argo1_write_cold", 1), cell("argo1_write_warm", 1)
        printf "| handoff of a counter spun on by 2 nodes | %s | %s |%s barrier per handoff %s; atomics relaxed %s, acquire/release %s | barrier %s |\n", cell("shm_handoff", 1), cell("mpi_handoff", 1), ad("handoff", 1), cell("argo8_handoff_barrier", 1), cell("argo8_handoff_atomic", 1), cell("argo8_handoff_acqrel", 1), cell("argo1_handoff_barrier", 1)
        printf "| the same, a barrier per handoff | %s | %s |%s (above) | |\n", cell("shm_handoff_bar", 1), cell("mpi_handoff_bar", 1), ad("handoff_bar", 1)
        printf "| the same, the counter a runtime atomic (dsm_atomic_add) | %s | %s |%s (atomics above) | |\n", cell("shm_handoff_atom", 1), cell("mpi_handoff_atom", 1), ad("handoff_atom", 1)
        printf "| matmul %d, 2 nodes, ms (native %s) | %s | %s |%s %s | |\n", msize, cell("native_matmul", 1000), cell("shm_matmul", 1000), cell("mpi_matmul", 1000), ad("matmul", 1000), cell("argo_matmul", 1000)
        printf "| probe: round trip | %s | %s |%s MPI Send/Recv %s, MPI_Get of a page %s | |\n", cell("shm_rtt", 1), cell("mpi_rtt", 1), ad("rtt", 1), cell("argo8_rtt", 1), cell("argo8_get", 1)
        if (cnt["argo_wrong"]) print "ArgoDSM counter check: WRONG"
    }' "$tmp/rows"
