#!/bin/sh
# dsmprof_origin.sh - `dsmprof origin` on the fixture tests/data/origin_run.json
# (a run of "fft" on 4 processors of --machine=origin, Hub samples every
# 100 us, router samples every 200 us) and on a live run: the thread, node and link tables (like sninfo),
# --dump's timestamped samples (like sndump: one line per node and sample,
# then per link and sample), --node, --html's page of charts, and clear errors: a file with no origin
# section (exit 2), a node the run does not have and a bad option (exit 1);
# live runs: first touch against the program's placement of fft's data.
top=${top_builddir:-.}
src=${srcdir:-.}
dsmprof=$top/dsmprof
dsmrun=${DSMRUN:-$top/dsmrun}
data=$src/tests/data
[ -x "$dsmprof" ] || { echo "dsmprof_origin.sh: $dsmprof is not built" >&2; exit 99; }
dir=$(mktemp -d "${TMPDIR:-/tmp}/dsmprof_origin.XXXXXX") || exit 99
trap 'rm -rf "$dir"' EXIT
fail=0

expect() { # STATUS PATTERN ARGS...
    want=$1 pattern=$2
    shift 2
    "$dsmprof" origin "$@" >"$dir/out" 2>&1
    rc=$?
    if [ "$rc" -ne "$want" ]; then
        echo "FAIL: dsmprof origin $*: exit $rc, expected $want"; cat "$dir/out"; fail=1
    elif ! grep -Eq -- "$pattern" "$dir/out"; then
        echo "FAIL: dsmprof origin $*: no line matching /$pattern/"; cat "$dir/out"; fail=1
    else
        echo "ok: dsmprof origin $* -> $rc, /$pattern/"
    fi
}

run=$data/origin_run.json
expect 0 '^  2 nodes \(2 processors each\), 1 routers, R10000 at 195 MHz' "$run"
expect 0 'Hub samples every 0\.100 ms \(19\), router samples every 0\.200 ms \(10\)' "$run"
# processor 0: 1452 misses, 73.2% local; the transaction mix sums to the misses
expect 0 '^ +0 +0 +1452 +73\.2% ' "$run"
expect 0 '^ +0 +[0-9.]+% .* [0-9.]+ +[0-9.]+% +[0-9.]+% +[0-9.]+%$' "$run"
expect 0 'node 0 -> router 0' "$run"
"$dsmprof" origin "$run" | awk '$1 ~ /^[0-9]+$/ && NF == 16 {
        if ($9 + $10 + $11 + $12 != $3) { print "mix of proc " $1 " does not sum to its misses"; bad = 1 } }
    END { exit bad }' || { echo "FAIL: transaction mix"; fail=1; }
# --dump: 2 nodes x 19 Hub samples, timestamps in ms
"$dsmprof" origin --dump "$run" >"$dir/dump" 2>&1 || { echo "FAIL: --dump"; fail=1; }
n=$(grep -Ec '^[0-9.]+ node ' "$dir/dump")
[ "$n" -eq 38 ] && echo "ok: --dump has 38 Hub sample lines" ||
    { echo "FAIL: --dump has $n Hub sample lines, expected 38"; cat "$dir/dump"; fail=1; }
expect 0 '^1\.800 node 1 ' --dump "$run"
expect 0 '^0\.200 link [0-9]+ ' --dump "$run"
expect 0 '^0\.000 node 1 ' --node 1 "$run"
# --html: one page, a memory chart per node, SysAD and NI charts, a chart per link
"$dsmprof" origin --html "$dir/page.html" "$run" >"$dir/out" 2>&1 || { echo "FAIL: --html"; cat "$dir/out"; fail=1; }
charts=$(grep -c '<svg' "$dir/page.html")
links=$(grep -c '"link":' "$run")
want=$((2 * 3 + links))
[ "$charts" -eq "$want" ] && grep -q 'aria-label="node 1 memory"' "$dir/page.html" &&
    grep -q '<polyline' "$dir/page.html" && echo "ok: --html has $charts charts" ||
    { echo "FAIL: --html has $charts charts, expected $want"; fail=1; }
expect 1 'dsmprof origin: /nonexistent/dir/p.html' --html /nonexistent/dir/p.html "$run"
# errors
expect 2 'no "origin" section' "$data/fp_run.json"
expect 1 'has no node 7 \(2 nodes\)' --node 7 "$run"
expect 1 'unknown option --frobnicate' --frobnicate "$run"
expect 1 'no file given'

# a live run: every processor's local ratio and the nodes' utilisation
if [ -x "$dsmrun" ] && [ -x "$top/apps/fft" ]; then
    DSM_PROFILE=off DSM_SIM_PROFILE=$dir/live.json ${TIMEOUT:+$TIMEOUT 60} \
        "$dsmrun" --machine=origin,hub_sample_us=50 -n 8 "$top/apps/fft" >"$dir/run" 2>&1 ||
        { echo "FAIL: the live run"; cat "$dir/run"; fail=1; }
    expect 0 '^  4 nodes \(2 processors each\), 2 routers' "$dir/live.json"
    expect 0 'router 0 -> router 1' "$dir/live.json"
    grep -q '"placement":"first_touch"' "$dir/live.json" || grep -q '"placement": *"first_touch"' "$dir/live.json" &&
        echo "ok: the file records the placement" || { echo "FAIL: no placement in the file"; fail=1; }
    # placement is what the profiler shows: fft initialised by processor 0
    # (--serial-init) puts every page it touches on node 0 under first touch
    # (IRIX's default): node 0 moves several times the bytes of any other node
    # and processor 2 misses mostly remotely; with the program's placement
    # (each band on its node) the nodes are within a factor 2 of each other
    for pl in first_touch program; do
        DSM_PROFILE=off DSM_SIM_PROFILE=$dir/$pl.json ${TIMEOUT:+$TIMEOUT 60} \
            "$dsmrun" --machine=origin,placement=$pl -n 8 "$top/apps/fft" --m=14 --serial-init \
            >"$dir/run" 2>&1 || { echo "FAIL: the $pl run"; cat "$dir/run"; fail=1; }
        "$dsmprof" origin "$dir/$pl.json" >"$dir/$pl.txt" 2>&1
    done
    awk -v pl=first_touch '/^Nodes/ { on = 1; next } /^Links/ { on = 0 }
        on && $1 ~ /^[0-9]+$/ { mb[$1] = $6 }
        /^Threads/ { th = 1; next } /^$/ { th = 0 }
        th && $1 == 2 { local2 = $4 + 0 }
        END { bad = local2 >= 40
              for (n = 1; n < 4; n++) if (mb[0] < 5 * mb[n]) bad = 1
              printf "%s: node 0 %s MB/s, nodes 1-3 %s %s %s, processor 2 %s%% local\n",
                     pl, mb[0], mb[1], mb[2], mb[3], local2
              exit bad }' "$dir/first_touch.txt" &&
        echo "ok: first touch puts serially initialised data on node 0" ||
        { echo "FAIL: first touch"; fail=1; }
    awk -v pl=program '/^Nodes/ { on = 1; next } /^Links/ { on = 0 }
        on && $1 ~ /^[0-9]+$/ { mb[$1] = $6; sum += $6; n++ }
        /^Threads/ { th = 1; next } /^$/ { th = 0 }
        th && $1 == 2 { local2 = $4 + 0 }
        END { mean = sum / n; bad = local2 <= 50
              for (i = 0; i < n; i++) if (mb[i] < mean / 2 || mb[i] > 2 * mean) bad = 1
              printf "%s: nodes %s %s %s %s MB/s, processor 2 %s%% local\n",
                     pl, mb[0], mb[1], mb[2], mb[3], local2
              exit bad }' "$dir/program.txt" &&
        echo "ok: the program's placement spreads the data over the nodes" ||
        { echo "FAIL: program placement"; fail=1; }
fi
exit $fail
