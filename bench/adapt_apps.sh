#!/bin/sh
# adapt_apps.sh - the adaptive protocol against the plain one on every
# workload of apps/: whole `dsmrun` runs, the two settings alternated run by
# run (A B, then B A in the next round, so a drift of the machine's speed
# falls on both), the ratio B/A taken pair by pair and its median printed
# beside the medians of the times.  Issue 15's target: no app slower by more
# than 3% with DSM_ADAPT=on (ratio <= 1.03).  Every run must succeed (each
# app checks its own result); a failed run stops the script with its output.
#   bench/adapt_apps.sh [-n ROUNDS] [-N NODES] [-a 'ENV=V ...'] [-b 'ENV=V ...']
#                       [-o APP] [TOP_BUILDDIR]
#     -n  rounds (pairs) per app (default 7)      -N  nodes (default 2)
#     -a  configuration A (default DSM_ADAPT=off)
#     -b  configuration B (default DSM_ADAPT=on)
#     -o  only the apps whose command line starts with APP (repeatable)
#     -c  control: each round also runs A a second time (A2), and the table
#         adds A2/A, the noise of the comparison; a B/A above 1.03 whose
#         distance from 1 the A2/A's reaches is "not judged (noise)" 
# Both run with DSM_PROFILE=off (the profile's own cost is not the protocol's).
# Times: each program's timed section as it prints it (the whole run's wall
# time for a program that prints none: mp3d).
rounds=7 nodes=2 envA="DSM_ADAPT=off" envB="DSM_ADAPT=on" only="" control=0
while [ $# -gt 0 ]; do
    case $1 in
        -n) rounds=$2; shift 2 ;;
        -N) nodes=$2; shift 2 ;;
        -a) envA=$2; shift 2 ;;
        -b) envB=$2; shift 2 ;;
        -o) only="$only|$2"; shift 2 ;;
        -c) control=1; shift ;;
        -*) echo "adapt_apps.sh: unknown option $1" >&2; exit 2 ;;
        *) break ;;
    esac
done
top=${1:-.}
for v in "$rounds" "$nodes"; do
    case $v in ''|*[!0-9]*|0) echo "adapt_apps.sh: -n and -N want positive numbers, not '$v'" >&2; exit 2 ;; esac
done
[ -x "$top/dsmrun" ] || { echo "adapt_apps.sh: $top/dsmrun is not built (make)" >&2; exit 2; }

# The workloads: the SPLASH-style kernels and the examples, sized so that
# their timed sections run 0.2-1 s on 2 nodes of a quiet 2-core machine
# (at the sizes before 2026-11-29, 0.005-0.09 s on that day's VM, the
# start-up and the scheduler's noise were most of what was compared).
apps='jacobi 1024 100
matmul 512 32
matmul 512 32 bands
fft --m=18
lu --n=384 --b=16
radix --keys=2097152 --radix=16 --bits=16
ocean --n=1026 --iters=20
mm --n=384 --b=16
slots --iters=2000000
sor zgrid 256 10
mp3d mp3d 20000 10'

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

now() { date +%s.%N; }

# one run: prints its wall seconds; exits the script if the run failed
one() {
    envs=$1; shift
    t0=$(now)
    # shellcheck disable=SC2086
    if ! env DSM_PROFILE=off $envs timeout -k 5 120 "$top/dsmrun" -n "$nodes" \
            --timeout 100 "$@" </dev/null >"$tmp/out" 2>&1; then
        echo "adapt_apps.sh: '$envs $*' failed:" >&2
        sed 's/^/    /' "$tmp/out" >&2
        exit 1
    fi
    t1=$(now)
    # the program's own timed section where it prints one (the last number
    # before a final " s"), else the run's wall time
    timed=$(sed -n 's/.*[ :]\([0-9][0-9.]*\) s$/\1/p' "$tmp/out" | tail -1)
    if [ -n "$timed" ]; then
        echo "$timed"
    else
        echo "$t0 $t1" | awk '{ printf "%.4f\n", $2 - $1 }'
    fi
}

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.4f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
range() { sort -g | awk 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%.3f-%.3f", lo, hi }'; }

echo "adapt_apps.sh: $rounds rounds, $nodes nodes, A: $envA, B: $envB; load: $(cut -d' ' -f1-3 /proc/loadavg)"
if [ $control = 1 ]; then
    printf '%-40s %9s %9s %8s %13s %8s %13s  %s\n' "app" "A s" "B s" "B/A" "B/A range" "A2/A" "A2/A range" "target B/A <= 1.03"
else
    printf '%-40s %9s %9s %8s %13s  %s\n' "app" "A s" "B s" "B/A" "B/A range" "target B/A <= 1.03"
fi
printf '%s\n' "$apps" | while IFS= read -r app; do
    if [ -n "$only" ]; then
        keep=0
        for o in $(echo "${only#|}" | tr '|' ' '); do
            case $app in "$o"*) keep=1 ;; esac
        done
        [ $keep = 1 ] || continue
    fi
    : >"$tmp/a"; : >"$tmp/b"; : >"$tmp/r"; : >"$tmp/c"
    # shellcheck disable=SC2086
    set -- $app
    prog=$1; shift
    r=1
    while [ $r -le "$rounds" ]; do
        if [ $((r % 2)) = 1 ]; then
            a=$(one "$envA" "$top/apps/$prog" "$@") || exit 1
            b=$(one "$envB" "$top/apps/$prog" "$@") || exit 1
        else
            b=$(one "$envB" "$top/apps/$prog" "$@") || exit 1
            a=$(one "$envA" "$top/apps/$prog" "$@") || exit 1
        fi
        if [ $control = 1 ]; then
            a2=$(one "$envA" "$top/apps/$prog" "$@") || exit 1
            echo "$a $a2" | awk '{ printf "%.4f\n", $2 / $1 }' >>"$tmp/c"
        fi
        echo "$a" >>"$tmp/a"; echo "$b" >>"$tmp/b"
        echo "$a $b" | awk '{ printf "%.4f\n", $2 / $1 }' >>"$tmp/r"
        r=$((r + 1))
    done
    ma=$(median <"$tmp/a") mb=$(median <"$tmp/b") mr=$(median <"$tmp/r")
    verdict=$(echo "$mr" | awk '{ print ($1 <= 1.03) ? "met" : "NOT met" }')
    if [ $control = 1 ]; then
        mc=$(median <"$tmp/c")
        verdict=$(echo "$mr $mc" | awk '{ d = $2 - 1; if (d < 0) d = -d
            print ($1 <= 1.03) ? "met" : ($1 - 1 <= d) ? "not judged (noise)" : "NOT met" }')
        printf '%-40s %9.3f %9.3f %8.3f %13s %8.3f %13s  %s\n' "$app" "$ma" "$mb" "$mr" "$(range <"$tmp/r")" \
            "$mc" "$(range <"$tmp/c")" "$verdict"
    else
        printf '%-40s %9.3f %9.3f %8.3f %13s  %s\n' "$app" "$ma" "$mb" "$mr" "$(range <"$tmp/r")" "$verdict"
    fi
done || exit 1
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
