#!/bin/sh
# mn_timeslices.sh - the profile's timeslices (doc/profile-format.md) from a
# 3-node program with two phases of misses separated by a pause in
# which node 0 sleeps and the others wait at a barrier (tests/mn_timeslices.c):
#   - misses in the slices of each phase, none in the slices inside the
#     pause, whose barrier wait is that of the 2 waiting nodes
#   - slices add up to the run's totals: misses (the six kinds), barrier
#     wait exactly, memoryBlockTime within 1%; per_node has every node
#   - DSM_TIMESLICE_MS=50 gives 50 ms slices; DSM_TIMESLICE_MS=1 on a run of
#     more than 1024 ms (a 1200 ms pause) gives 2 ms slices, or 4, 8... on a
#     slow machine (a node keeps at most 1024 slices, then the interval
#     doubles); a bad value stops the job with a message naming the variable
top=${top_builddir:-.}
dsmrun=${DSMRUN:-$top/dsmrun}
prog=$top/tests/mn_timeslices
case $prog in /*) ;; *) prog=$(pwd)/$prog ;; esac
case $dsmrun in /*) ;; *) dsmrun=$(pwd)/$dsmrun ;; esac
for f in "$dsmrun" "$prog"; do
    [ -x "$f" ] || { echo "mn_timeslices.sh: $f is not built" >&2; exit 99; }
done
command -v python3 >/dev/null 2>&1 || { echo "mn_timeslices.sh: python3 not found (scripts/debian-packages)" >&2; exit 99; }
dir=$(mktemp -d "${TMPDIR:-/tmp}/mn_timeslices.XXXXXX") || exit 99
trap 'rm -rf "$dir"' EXIT
fail=0

check() { # check MS DOUBLED PAUSE_MS [VAR=value...]: one run, its profile checked with
         # slices of MS, doubled at least once if DOUBLED is 1
    ms=$1 doubled=$2 pause=$3
    shift 3
    (cd "$dir" && env DSM_PROFILE="$dir/p.json" DSM_PROFILE_SUMMARY=off "$@" \
        timeout 150 "$dsmrun" -n 3 --timeout 120 "$prog" 200 $pause) > "$dir/out" 2>&1
    rc=$?
    if [ $rc -ne 0 ] || [ "$(grep -c 'mn_timeslices: node .* OK' "$dir/out")" -ne 3 ]; then
        echo "FAIL: run ($*): exit status $rc:"; cat "$dir/out"; fail=1; return
    fi
    python3 - "$dir/p.json" "$ms" "$doubled" $(awk '$1 == "pause" { print $2, $3 }' "$dir/out") <<'PY' || fail=1
import json, sys
p = json.load(open(sys.argv[1]))
ms, doubled = int(sys.argv[2]), sys.argv[3] == "1"
t0, t1 = float(sys.argv[4]), float(sys.argv[5])
bad = []
ts = p.get("timeslices")
iv = ts["interval_seconds"]
sl = ts["slices"]
k = round(iv * 1000 / ms)
if abs(iv - k * ms / 1000.0) > 1e-9 or k & (k - 1) or (k >= 2) != doubled:
    bad.append("interval_seconds %r, expected %g ms%s" % (iv, ms, " times 2, 4, 8..." if doubled else ""))
if len(sl) > 1024 or len(sl) < (512 if doubled else 1):
    bad.append("%d slices" % len(sl))
n = p["nodes"]
for i, s in enumerate(sl):
    if abs(s["start"] - i * iv) > 1e-9 or len(s["per_node"]) != n:
        bad.append("slice %d: start %r, %d per_node entries" % (i, s["start"], len(s["per_node"])))
        break
    for k in ("misses", "memoryBlockTime", "barrier_wait"):
        if s[k] != sum(x[k] for x in s["per_node"]):
            bad.append("slice %d: %s is not the sum over nodes" % (i, k))
# the pause: slices wholly inside it (30 ms margins: other nodes reach the barrier later) have no misses and the
# barrier wait of the n-1 nodes waiting for node 0
inside = [i for i in range(len(sl)) if i * iv >= t0 + 0.03 and (i + 1) * iv <= t1 - 0.03]
before = [i for i in range(len(sl)) if (i + 1) * iv <= t0]
after = [i for i in range(len(sl)) if i * iv >= t1]
first_pause = int((t0) / iv)
last_pause = int((t1) / iv)
if len(inside) < 2:
    bad.append("pause %.3f..%.3f s covers %d whole slices, expected >= 2" % (t0, t1, len(inside)))
for i in inside:
    if sl[i]["misses"]:
        bad.append("slice %d (%.2f s, inside the pause) has %d misses" % (i, i * iv, sl[i]["misses"]))
    w = sl[i]["barrier_wait"] / 1e9
    if not (0.9 * (n - 1) * iv <= w <= (n - 1) * iv + 1e-6):
        bad.append("slice %d (inside the pause): barrier wait %.4f s, expected about %.4f s"
                   % (i, w, (n - 1) * iv))
# misses on both sides of the pause (the slices it starts and ends in count too)
m1 = sum(sl[i]["misses"] for i in range(0, min(first_pause + 1, len(sl))))
m2 = sum(sl[i]["misses"] for i in range(last_pause, len(sl)))
if m1 == 0 or m2 == 0:
    bad.append("misses before the pause %d, after it %d: expected both > 0" % (m1, m2))
# the slices add up to the totals of the run
kinds = ["stacheReadMisses", "homeReadMisses", "stacheWriteRO", "homeWriteRO",
         "stacheWriteInv", "homeWriteInv"]
for node in range(n):
    pn = p["per_node"][node]
    got = sum(s["per_node"][node]["misses"] for s in sl)
    want = sum(pn["metrics"][k] for k in kinds)
    if got != want:
        bad.append("node %d: slices hold %d misses, the run %d" % (node, got, want))
    got = sum(s["per_node"][node]["barrier_wait"] for s in sl)
    if got != pn["barrier_wait"]:
        bad.append("node %d: slices hold %d ns of barrier wait, the run %d" % (node, got, pn["barrier_wait"]))
    got = sum(s["per_node"][node]["memoryBlockTime"] for s in sl)
    want = pn["memoryBlockTime"]
    if abs(got - want) > 0.01 * want + 1000:
        bad.append("node %d: slices hold %d ns of memoryBlockTime, the run %d" % (node, got, want))
for b in bad:
    print("FAIL: timeslices (DSM_TIMESLICE_MS %d): %s" % (ms, b))
if not bad:
    print("ok   timeslices (%g ms): %d slices, pause %.3f..%.3f s: %d slices inside it without "
          "misses, %d misses before, %d after" % (iv * 1000, len(sl), t0, t1, len(inside), m1, m2))
sys.exit(1 if bad else 0)
PY
}

check 100 0 500
# block mode: the checked twin (tests/block.mk) at 64-byte blocks, once
if [ -x "$top/tests/blk_mn_timeslices" ]; then
    page_prog=$prog prog=$(cd "$(dirname "$prog")" && pwd)/blk_mn_timeslices
    check 100 0 500 DSM_BLOCK_SIZE=64
    prog=$page_prog
else
    echo "skip block mode: tests/blk_mn_timeslices is not built (no LLVM)"
fi
check 50 0 300 DSM_TIMESLICE_MS=50
check 1 1 1200 DSM_TIMESLICE_MS=1

for v in 0 abc 10x -5 3600001; do
    out=$(cd "$dir" && DSM_PROFILE=off DSM_TIMESLICE_MS=$v timeout 60 "$dsmrun" -n 2 --timeout 30 "$prog" 2>&1)
    rc=$?
    if [ $rc -ne 0 ] && printf '%s\n' "$out" | grep -q "DSM_TIMESLICE_MS=$v is not"; then
        echo "ok   DSM_TIMESLICE_MS=$v refused: $(printf '%s\n' "$out" | head -1)"
    else
        echo "FAIL: DSM_TIMESLICE_MS=$v: exit status $rc, output: $out"; fail=1
    fi
done
exit $fail
