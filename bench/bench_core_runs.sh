#!/bin/sh
# bench_core_runs.sh - bench/bench_core run as several whole processes:
# the same binary can fall into a slow mode for a whole run (which threads
# share a core, whether a waiter's spin was turned off), which the rounds
# inside one run do not show.  Prints, for each operation, the median over
# the runs of each run's median, the spread between runs (slowest run /
# fastest), the median limit probe beside it and their ratio.
#   bench_core_runs.sh [-n RUNS] [-b BLOCKS] [-a 'ENV=V ...'] [-B 'ENV=V ...'] [TOP_BUILDDIR]
#     -n  runs of each configuration (default 7; at least 7 for the targets)
#     -a  environment of configuration A (default: none, the defaults)
#     -B  a second configuration: A and B alternate, run by run (paired on a
#         noisy machine), and the table gets B's columns and B/A
#     -x PROG / -X PROG   the bench_core binary of A / of B (default the
#         build's: a copy of an older build against the new one)
# The probes of a fault and of the home's write right taken back (wr_taken,
# bench_core.c) get rows of their own; old binaries (-x) print no wr_taken.
# read_busy: the read miss while the home computes (not parked in a barrier:
# dsm/park.h); old binaries print none (zeros).  bar_hand, atom_hand: the
# barrier and atomic-counter handoffs; lock, rlock: a lock taken by its
# manager's node and by the other; barrier: dsm_barrier back to back.
# Target (doc/protocol.md, "Latency on few cores"): the read miss's spread
# between runs within 1.5, its median within 1.5 times the limit probe.
runs=7 blocks=1000 envA="" envB="" haveB=0 progA="" progB=""
while [ $# -gt 0 ]; do
    case $1 in
        -n) runs=$2; shift 2 ;;
        -b) blocks=$2; shift 2 ;;
        -a) envA=$2; shift 2 ;;
        -B) envB=$2; haveB=1; shift 2 ;;
        -x) progA=$2; shift 2 ;;
        -X) progB=$2; haveB=1; shift 2 ;;
        -*) echo "bench_core_runs.sh: unknown option $1" >&2; exit 2 ;;
        *) break ;;
    esac
done
top=${1:-.}
progA=${progA:-$top/bench/bench_core} progB=${progB:-$top/bench/bench_core}
case $runs in ''|*[!0-9]*) echo "bench_core_runs.sh: -n wants a number, not '$runs'" >&2; exit 2 ;; esac
[ "$runs" -ge 1 ] || { echo "bench_core_runs.sh: -n wants at least 1" >&2; exit 2; }
for f in "$top/dsmrun" "$progA" "$progB"; do
    [ -x "$f" ] || { echo "bench_core_runs.sh: $f is not built (make bench)" >&2; exit 2; }
done
tmp=$(mktemp -d) || exit 1
# BENCH_ROWS=FILE keeps each run's figures ("conf op us probe" lines)
trap 'rm -rf "$tmp"' EXIT INT TERM

# one run: "conf op us probe" lines (op without spaces)
one() {
    conf=$1 envs=$2 prog=$3
    # shellcheck disable=SC2086
    if ! out=$(env $envs timeout -k 5 120 "$top/dsmrun" -n 2 --timeout 100 \
            "$prog" "$blocks" 2>&1); then
        echo "bench_core_runs.sh: a run of configuration $conf failed:" >&2
        printf '%s\n' "$out" | sed 's/^/    /' >&2
        exit 1
    fi
    printf '%s\n' "$out" | awk -v c="$conf" '
        /^probe: protection fault/ { print c, "fault", $4, 0 }
        /^probe: write right taken/ { print c, "wr_taken", $5, 0 }
        /^probe: message round trip/ { print c, "rtt", $5, 0 }
        /^remote read miss/  { print c, "read", $4, $5 }
        /^read miss, home computing/ { print c, "read_busy", $5, $6 }
        /^remote write miss/ { print c, "write", $4, $5 }
        /^upgrade/           { print c, "upgrade", $2, $3 }
        /^migratory handoff/ { print c, "migratory", $3, $4 }
        /^barrier handoff/   { print c, "bar_hand", $3, 0 }
        /^atomic-counter handoff/ { print c, "atom_hand", $3, 0 }
        /^local lock \+ unlock/ { print c, "lock", $5, 0 }
        /^remote lock \+ unlock/ { print c, "rlock", $5, 0 }
        /^barrier  /         { print c, "barrier", $2, 0 }' >>"$tmp/rows"
}
i=0
while [ $i -lt "$runs" ]; do
    one A "$envA" "$progA" || exit 1
    [ $haveB = 1 ] && { one B "$envB" "$progB" || exit 1; }
    i=$((i + 1))
done

echo "bench_core over $runs runs (each a median of 7 rounds of $blocks operations); spread = slowest run / fastest"
[ -n "$envA" ] && echo "A: $envA"
[ "$progA" != "$top/bench/bench_core" ] && echo "A runs $progA"
[ $haveB = 1 ] && echo "B: ${envB:-defaults}"
[ "$progB" != "$top/bench/bench_core" ] && echo "B runs $progB"
awk -v haveB=$haveB '
    function med(a, n,   i, j, t) {
        for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j-1] > a[j]; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t }
        return n % 2 ? a[(n+1)/2] : (a[n/2] + a[n/2+1]) / 2
    }
    { k = $1 SUBSEP $2; n[k]++; us[k, n[k]] = $3; pr[k, n[k]] = $4 }
    END {
        nops = split("fault wr_taken rtt read read_busy write upgrade migratory bar_hand atom_hand lock rlock barrier", ops, " ")
        if (haveB) printf "%-10s %9s %7s %9s %6s | %9s %7s %6s | %6s\n", "operation", "A us", "spread", "probe us", "ratio", "B us", "spread", "ratio", "B/A"
        else printf "%-10s %9s %9s %9s %7s %9s %6s\n", "operation", "median us", "min", "max", "spread", "probe us", "ratio"
        for (o = 1; o <= nops; o++) {
            for (c = 0; c <= haveB; c++) {
                cf = c ? "B" : "A"; k = cf SUBSEP ops[o]; m = n[k]
                if (!m) { M[c] = P[c] = S[c] = LO[c] = HI[c] = 0; continue } # an old binary: no such row
                lo = 1e18; hi = 0
                for (i = 1; i <= m; i++) {
                    v[i] = us[k, i] + 0; p[i] = pr[k, i] + 0
                    if (v[i] < lo) lo = v[i]; if (v[i] > hi) hi = v[i]
                }
                M[c] = med(v, m); P[c] = med(p, m); S[c] = lo > 0 ? hi / lo : 0; LO[c] = lo; HI[c] = hi
            }
            if (haveB)
                printf "%-10s %9.2f %7.2f %9.2f %6.2f | %9.2f %7.2f %6.2f | %6.2f\n", ops[o], M[0], S[0], P[0],
                       (P[0] > 0 ? M[0] / P[0] : 0), M[1], S[1], (P[1] > 0 ? M[1] / P[1] : 0), (M[0] > 0 ? M[1] / M[0] : 0)
            else
                printf "%-10s %9.2f %9.2f %9.2f %7.2f %9.2f %6.2f\n", ops[o], M[0], LO[0], HI[0], S[0], P[0],
                       (P[0] > 0 ? M[0] / P[0] : 0)
            if (ops[o] == "read") {
                rs = S[0]; rr = P[0] > 0 ? M[0] / P[0] : 0; rsB = S[1]; rrB = P[1] > 0 ? M[1] / P[1] : 0
            }
        }
        printf "target (A): read miss spread between runs <= 1.5: %s (%.2f); median ratio to the limit probe <= 1.5: %s (%.2f)\n",
               (rs <= 1.5 ? "met" : "NOT met"), rs, (rr <= 1.5 ? "met" : "NOT met"), rr
        if (haveB)
            printf "target (B): read miss spread between runs <= 1.5: %s (%.2f); median ratio to the limit probe <= 1.5: %s (%.2f)\n",
                   (rsB <= 1.5 ? "met" : "NOT met"), rsB, (rrB <= 1.5 ? "met" : "NOT met"), rrB
    }' "$tmp/rows"
[ -n "$BENCH_ROWS" ] && cp "$tmp/rows" "$BENCH_ROWS"
exit 0
