#!/bin/sh
# origin_snbench.sh - the profiler paper's Figs. 4 and 5 through the whole
# tool chain: tests/origin_snbench (the snbench kernels, a dsmcc-built
# program) on dsmrun --machine=origin with first-touch placement, Hub and
# router samples every 20 us; the medians of the samples inside the measured
# section (the loops) are checked, as the paper reads its traces:
#   Fig. 4  one reader summing a local 6 MB array: about 280 MB/s (+-10%) at
#           66% memory utilisation (+-5 points)
#   Fig. 4  two readers on node 0, 2 MB arrays each: about 412 MB/s (+-10%)
#           at 85% (+-5 points), what the multiplexed SysAD bus leaves them
#   Fig. 5  memory on node 0, bw-read readers on nodes 1-3 (both processors
#           of each: ours block on a miss where the R10000 keeps four in
#           flight): memory at 97% or more, 620 MB/s (+-5%), node 0's
#           outgoing link 85-100%, incoming 8.5-12.5%, their ratio 8.5-9.5
#           (one request packet per nine reply packets)
top=${top_builddir:-.}
dsmrun=${DSMRUN:-$top/dsmrun}
prog=$top/tests/origin_snbench
[ -x "$dsmrun" ] || { echo "origin_snbench.sh: $dsmrun is not built" >&2; exit 99; }
[ -x "$prog" ] || { echo "origin_snbench.sh: $prog is not built" >&2; exit 99; }
command -v python3 >/dev/null 2>&1 || { echo "origin_snbench.sh: python3 not found (scripts/debian-packages)" >&2; exit 99; }
to=${TIMEOUT:-timeout}
command -v "$to" >/dev/null 2>&1 || to=
dir=$(mktemp -d "${TMPDIR:-/tmp}/origin_snbench.XXXXXX") || exit 99
trap 'rm -rf "$dir"' EXIT
export DSM_PROFILE=off
status=0

run() { # NAME PROCS ARGS...
    name=$1 procs=$2
    shift 2
    DSM_SIM_PROFILE=$dir/$name.json ${to:+$to -k 5 120} "$dsmrun" \
        --machine=origin,hub_sample_us=20,router_sample_us=20 -n "$procs" "$prog" "$@" \
        >"$dir/$name.out" 2>&1
    if [ $? -ne 0 ] || ! grep -q "origin_snbench: result OK" "$dir/$name.out" ||
        grep -q "wrong sum" "$dir/$name.out"; then
        cat "$dir/$name.out"; echo "FAIL: $name did not run"; status=1
    fi
}
run fig4 2 reduce 0 6 0
run fig4b 2 reduce 0 2 0 1
run fig5 8 bwread 0 6 2 3 4 5 6 7
[ $status -eq 0 ] || exit 1

python3 - "$dir" <<'PY' || status=1
import json, sys
d = sys.argv[1]
fail = 0
def check(ok, what):
    global fail
    print(("ok: " if ok else "FAIL: ") + what)
    fail |= not ok
def medians(name, node, links=()):
    doc = json.load(open("%s/%s.json" % (d, name)))
    o, sec = doc["origin"], doc["section"]
    ns = 1000.0 / o["cpu_mhz"]
    b, e = sec["begin_cycles"] * ns, sec["end_cycles"] * ns
    hs, rs = o["hub_samples"], o["router_samples"]
    p = hs["period_ns"]
    ks = [k for k, t in enumerate(hs["times_ns"]) if t >= b and t + p <= e]
    med = lambda v: sorted(v)[len(v) // 2] if v else 0
    mu = med([hs["memory_utilisation"][node][k] for k in ks])
    mb = med([hs["mb_per_s"][node][k] for k in ks])
    ids = rs["links"]
    lk = [med([rs["utilisation"][ids.index(l)][k] for k in ks if k < len(rs["times_ns"])])
          if l in ids else 0 for l in links]
    return len(ks), mu, mb, lk
n, mu, mb, _ = medians("fig4", 0)
print("fig4 1P: %d samples, %.0f MB/s (paper 280), memory %.1f%% (paper 66%%)" % (n, mb, 100 * mu))
check(n > 10 and 252 <= mb <= 308, "Fig. 4: one reader's MB/s")
check(0.61 <= mu <= 0.71, "Fig. 4: one reader's memory utilisation")
n, mu, mb, _ = medians("fig4b", 0)
print("fig4 2P: %d samples, %.0f MB/s (paper 412), memory %.1f%% (paper 85%%)" % (n, mb, 100 * mu))
check(n > 10 and 371 <= mb <= 453, "Fig. 4: two readers' MB/s")
check(0.80 <= mu <= 0.90, "Fig. 4: two readers' memory utilisation")
n, mu, mb, (out, inc) = medians("fig5", 0, (0, 1))
print("fig5: %d samples, %.0f MB/s (paper 620-623), memory %.1f%% (paper 100%%), outgoing link "
      "%.1f%% (paper ~95%%), incoming %.1f%% (paper ~10.5%%)" % (n, mb, 100 * mu, 100 * out, 100 * inc))
check(n > 10 and 589 <= mb <= 651, "Fig. 5: 620 MB/s from node 0's memory")
check(mu >= 0.97, "Fig. 5: memory pegged at 100%")
check(0.85 <= out <= 1.0 and 0.085 <= inc <= 0.125, "Fig. 5: outgoing and incoming link")
check(inc > 0 and 8.5 <= out / inc <= 9.5, "Fig. 5: the 9:1 packet ratio")
sys.exit(1 if fail else 0)
PY
exit $status
