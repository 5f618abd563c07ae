#!/bin/sh
# origin_fft.sh - the Origin profiler paper's FFT memory-utilisation traces
# (its section 4.2) on --machine=origin with the Hub sampled every 5 us
# (the paper's runs lasted seconds and were sampled every 10 ms; ours last
# about a millisecond), placement=program (each processor's rows in its
# node's memory, as SPLASH-2's FFT places them), each a check that can fail:
#   Fig. 6  8 threads on 4 nodes, --serial-init (processor 0 initialises the
#           data, as SPLASH-2's main thread does) and 256 KB caches so the
#           data does not stay in processor 0's cache: node 0's memory gets
#           busy first, then node 1's, 2's and 3's; the measured section
#           (the forward FFT) shows three transpose peaks (runs of at least
#           20 samples over 30% mean utilisation after a 5-sample moving
#           average) with a drop under 5% on every node between them
#   Fig. 7  16 threads on 8 nodes, --stagger=0 (every processor starts at
#           column 0): in the second transpose a hot spot moves from node to
#           node: the busiest node at 90% or more, its number growing with
#           time (correlation > 0.8, at least 6 nodes in turn), the median
#           node at least 40 points below it
#   Fig. 8  --stagger=1 (SPLASH-2's basic stagger): the second transpose
#           loads the nodes evenly, mostly under 80% (90% of the node
#           samples), max - min under 30 points on average
#   Fig. 9  --stagger=2 (binary-scrambled order): printed beside the others,
#           its section time within 15% of the basic stagger's
#   Figs. 8-9 with system activity (preempt_us, preempt_ns: the paper's
#           "preempted by system activity"), at two rates and lengths
#           (1 ms / 10 us and 250 us / 5 us): the basic stagger's load gets
#           less even than without (mean max - min over the three
#           transposes' samples at least 10 points more), the scrambled
#           stagger's still less even than the basic one's (5 points more,
#           and fewer node samples under 80%); section times printed
# The traces' numbers are printed for doc/simulation.md.
top=${top_builddir:-.}
dsmrun=${DSMRUN:-$top/dsmrun}
fft=$top/apps/fft
[ -x "$dsmrun" ] || { echo "origin_fft.sh: $dsmrun is not built" >&2; exit 99; }
[ -x "$fft" ] || { echo "origin_fft.sh: $fft is not built" >&2; exit 99; }
command -v python3 >/dev/null 2>&1 || { echo "origin_fft.sh: python3 not found (scripts/debian-packages)" >&2; exit 99; }
to=${TIMEOUT:-timeout}
command -v "$to" >/dev/null 2>&1 || to=
dir=$(mktemp -d "${TMPDIR:-/tmp}/origin_fft.XXXXXX") || exit 99
trap 'rm -rf "$dir"' EXIT
export DSM_PROFILE=off
status=0

run() { # NAME PROCS MACHINE-OPTIONS FFT-ARGS...
    name=$1 procs=$2 opts=$3
    shift 3
    DSM_SIM_PROFILE=$dir/$name.json ${to:+$to -k 5 120} "$dsmrun" \
        --machine=origin,placement=program,hub_sample_us=5$opts -n "$procs" "$fft" --m=14 "$@" \
        >"$dir/$name.out" 2>&1
    if [ $? -ne 0 ] || ! grep -q "fft: result OK" "$dir/$name.out"; then
        cat "$dir/$name.out"; echo "FAIL: $name did not run"; status=1
    fi
}
run fig6 8 ,cache_size=262144 --serial-init
run fig7 16 "" --stagger=0
run fig8 16 "" --stagger=1
run fig9 16 "" --stagger=2
for pre in 1000,10000 250,5000; do
    o=",preempt_us=${pre%,*},preempt_ns=${pre#*,}"
    run "fig8p${pre%,*}" 16 "$o" --stagger=1
    run "fig9p${pre%,*}" 16 "$o" --stagger=2
done
[ $status -eq 0 ] || exit 1

python3 - "$dir" <<'PY' || status=1
import json, sys
d = sys.argv[1]
fail = 0
def check(ok, what):
    global fail
    print(("ok: " if ok else "FAIL: ") + what)
    fail |= not ok

def load(name):
    doc = json.load(open("%s/%s.json" % (d, name)))
    o, sec = doc["origin"], doc["section"]
    ns_per_cycle = 1000.0 / o["cpu_mhz"]
    hs = o["hub_samples"]
    return dict(t=hs["times_ns"], mu=hs["memory_utilisation"], p=hs["period_ns"],
                b=sec["begin_cycles"] * ns_per_cycle, e=sec["end_cycles"] * ns_per_cycle,
                cycles=sec["cycles"])

def section(r):
    return [k for k, t in enumerate(r["t"]) if t >= r["b"] and t + r["p"] <= r["e"]]

def peaks(r, ks, level=0.3, width=5, length=20, agg=None):
    n = len(r["mu"])
    agg = agg or (lambda v: sum(v) / len(v))
    mean = [agg([r["mu"][i][k] for i in range(n)]) for k in ks]
    smooth = [sum(mean[max(0, j - width // 2):j + width // 2 + 1]) /
              len(mean[max(0, j - width // 2):j + width // 2 + 1]) for j in range(len(mean))]
    runs, cur = [], []
    for j, v in enumerate(smooth):
        if v >= level:
            cur.append(ks[j])
        else:
            if len(cur) >= length:
                runs.append(cur)
            cur = []
    if len(cur) >= length:
        runs.append(cur)
    return runs

# Fig. 6
r = load("fig6")
n = len(r["mu"])
first = [next((k for k in range(len(r["t"])) if r["mu"][i][k] > 0.2), None) for i in range(n)]
print("fig6: first busy sample of nodes 0-3 (5 us each):", first)
check(None not in first and all(first[i] < first[i + 1] for i in range(n - 1)) and
      r["t"][first[-1]] < r["b"], "Fig. 6: the initialisation reaches node 0, then 1, 2, 3")
ks = section(r)
pk = peaks(r, ks)
print("fig6: transpose peaks (sample ranges):", [(p[0], p[-1]) for p in pk])
check(len(pk) == 3, "Fig. 6: three transpose peaks in the forward FFT (%d)" % len(pk))
drops = all(any(max(r["mu"][i][k] for i in range(n)) < 0.05 for k in range(a[-1] + 1, b[0]))
            for a, b in zip(pk, pk[1:]))
check(len(pk) == 3 and drops, "Fig. 6: a drop under 5% on every node between the peaks")

def second_transpose(name, **kw):
    r = load(name)
    pk = peaks(r, section(r), **kw)
    return r, (pk[1] if len(pk) >= 2 else []), len(pk)

# Fig. 7
r, ks, npk = second_transpose("fig7", level=0.5, agg=max)  # one busy node at a time
n = len(r["mu"])
hot = [(k, max(range(n), key=lambda i: r["mu"][i][k])) for k in ks
       if max(r["mu"][i][k] for i in range(n)) >= 0.9]
def corr(xs, ys):
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    sxx = sum((x - mx) ** 2 for x in xs) ** 0.5
    syy = sum((y - my) ** 2 for y in ys) ** 0.5
    return sxy / (sxx * syy) if sxx and syy else 0
c = corr([k for k, _ in hot], [i for _, i in hot]) if len(hot) > 2 else 0
gap = sorted(max(r["mu"][i][k] for i in range(n)) - sorted(r["mu"][i][k] for i in range(n))[n // 2]
             for k, _ in hot)
gap = gap[len(gap) // 2] if gap else 0
print("fig7: %d peaks; second transpose: %d samples, %d with a node at >= 90%%, hot nodes %s, "
      "correlation %.2f, median gap to the median node %.0f points"
      % (npk, len(ks), len(hot), sorted(set(i for _, i in hot)), c, 100 * gap))
check(c > 0.8 and len(set(i for _, i in hot)) >= 6, "Fig. 7: the hot spot moves from node to node")
check(gap >= 0.4, "Fig. 7: the hot node far above the others")

# Fig. 8 and 9
for name, fig in (("fig8", "Fig. 8"), ("fig9", "Fig. 9")):
    r, ks, npk = second_transpose(name)
    n = len(r["mu"])
    vals = [r["mu"][i][k] for k in ks for i in range(n)]
    under = sum(v < 0.8 for v in vals) / len(vals) if vals else 0
    spread = sum(max(r["mu"][i][k] for i in range(n)) - min(r["mu"][i][k] for i in range(n))
                 for k in ks) / len(ks) if ks else 1
    mean = sum(vals) / len(vals) if vals else 0
    last = ks[-(len(ks) // 5):] if len(ks) >= 5 else ks  # the paper: uneven at the end
    end = sum(max(r["mu"][i][k] for i in range(n)) - min(r["mu"][i][k] for i in range(n))
              for k in last) / len(last) if last else 0
    print("%s: %d peaks; second transpose: %d samples, mean utilisation %.0f%%, %.0f%% of node "
          "samples under 80%%, mean max-min %.0f points (%.0f in the last fifth), section %d cycles"
          % (name, npk, len(ks), 100 * mean, 100 * under, 100 * spread, 100 * end, r["cycles"]))
    if name == "fig8":
        basic = r["cycles"]
        check(under >= 0.9, "Fig. 8: the basic stagger's load mostly under 80%")
        check(spread < 0.3, "Fig. 8: the basic stagger loads the nodes evenly")
    else:
        check(abs(r["cycles"] - basic) <= 0.15 * basic,
              "Fig. 9: the scrambled stagger within 15% of the basic one")
print("fig7 section %d cycles (unoptimised)" % load("fig7")["cycles"])

# Figs. 8-9 with system activity: the nodes' spread over all three
# transposes' samples (peak finding picks the second one less surely when
# processors fall behind)
def evenness(name):
    r = load(name)
    ks = [k for p in peaks(r, section(r)) for k in p]
    n = len(r["mu"])
    vals = [r["mu"][i][k] for k in ks for i in range(n)]
    spread = sum(max(r["mu"][i][k] for i in range(n)) - min(r["mu"][i][k] for i in range(n))
                 for k in ks) / len(ks) if ks else 0
    under = sum(v < 0.8 for v in vals) / len(vals) if vals else 1
    pre = [t.get("preempted_ns", 0) for t in json.load(open("%s/%s.json" % (d, name)))["origin"]["threads"]]
    print("%s: transposes' samples %d, mean max-min %.0f points, %.0f%% of node samples under "
          "80%%, section %d cycles, %.1f us preempted per thread"
          % (name, len(ks), 100 * spread, 100 * under, r["cycles"], sum(pre) / len(pre) / 1000))
    return spread, under, r["cycles"]
quiet, _, _ = evenness("fig8")
for pre in ("1000", "250"):
    b, bu, bc = evenness("fig8p" + pre)
    s9, su, sc = evenness("fig9p" + pre)
    print("preempt_us=%s: scrambled/basic section %.3f" % (pre, sc / bc))
    check(b >= quiet + 0.10, "Figs. 8-9, preempt_us=%s: system activity unevens the basic stagger" % pre)
    check(s9 >= b + 0.05 and su < bu,
          "Figs. 8-9, preempt_us=%s: the scrambled stagger less even than the basic one" % pre)
sys.exit(1 if fail else 0)
PY
exit $status
