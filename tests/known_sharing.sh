#!/bin/sh
# known_sharing.sh - every verdict of the profile on a program whose sharing
# is known (tests/known_sharing.c says what each structure does), phased and
# interleaved, on the shm transport (dsmrun) and the mpi transport (mpirun,
# when there), in page mode (4 KiB blocks) and block mode (64-byte blocks,
# the dsmcc --dsm build, when there).  From the JSON, for each structure:
# the sharing pattern of every block it uses and of the structure, the group
# (the "group" structure's blocks in one group listed in "groups"), false
# sharing (only "slots": node k wrote exactly [8k, 8k+8); "ring" and the
# others none: padding would not save a miss) with a share of at most 1,
# no coherence miss on "private"; dsmprof advice: FalseSharing for slots
# only, with the per-node slot advice; and the groups in dsmprof's report,
# csv and html.  KNOWN_SHARING_ROUNDS sets the rounds (default 8).
top=${top_builddir:-.}
srcdir=${srcdir:-.}
dsmprof=$top/dsmprof
command -v python3 >/dev/null 2>&1 || { echo "known_sharing.sh: python3 not found (scripts/debian-packages)" >&2; exit 99; }
for f in "$top/tests/known_sharing" "$dsmprof"; do
    [ -x "$f" ] || { echo "known_sharing.sh: $f is not built" >&2; exit 99; }
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/known_sharing.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0
rounds=${KNOWN_SHARING_ROUNDS:-8}

transports=shm
command -v "${MPIRUN:-mpirun}" >/dev/null 2>&1 && transports="shm mpi"
modes="4096:$top/tests/known_sharing"
[ -x "$top/tests/blk_known_sharing" ] && modes="$modes 64:$top/tests/blk_known_sharing"
case $modes in *" 64:"*) ;; *) echo "block mode not built (no LLVM): page mode only" ;; esac
# KNOWN_SHARING_ONLY="shm 4096" narrows the matrix (for a quick look)
if [ -n "${KNOWN_SHARING_ONLY:-}" ]; then
    transports=${KNOWN_SHARING_ONLY% *}
    for m in $modes; do
        [ "${m%%:*}" = "${KNOWN_SHARING_ONLY#* }" ] && modes=$m
    done
fi

check() { # check JSON OUT WHAT [counters-off]
    python3 - "$1" "$2" "$3" "${4:-}" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
what = sys.argv[3]
counters_off = sys.argv[4] == "counters-off" # no counts: the causes are all zero
used = {}
for line in open(sys.argv[2]):
    f = line.split()
    if f and f[0] == "structure":
        used[f[1]] = [int(x) for x in f[2:]]
bad = []
S = {s["name"]: s for s in p["structures"]}
expect = {"counter": "migratory", "buffer1": "producer_consumer", "buffer3": "producer_consumer",
          "table": "read_only", "private": "private", "slots": "migratory", "ring": "migratory",
          "overwrite": "write_shared", "group": "producer_consumer"}
if sorted(used) != sorted(expect):
    bad.append("the program listed %r" % sorted(used))
for name, want in sorted(expect.items()):
    s = S.get(name)
    if s is None:
        bad.append("%s: not in the profile" % name)
        continue
    blocks = {b["index"]: b for b in s["block_list"] or []}
    got = [blocks.get(k, {}).get("pattern") for k in used.get(name, [])]
    if got != [want] * len(got) or not got:
        bad.append("%s: block patterns %r, expected %s" % (name, got, want))
    if s["sharing_pattern"] != want:
        bad.append("%s: sharing_pattern %s, expected %s" % (name, s["sharing_pattern"], want))
    fs = s["false_sharing"]
    if not 0 <= fs["share"] <= 1:
        bad.append("%s: false_sharing.share %r" % (name, fs["share"]))
    if name == "slots":
        if fs["count"] < 1 or fs["true_sharing_transfers"] != 0:
            bad.append("slots: %d false-, %d true-sharing transfers (want > 0, 0)"
                       % (fs["count"], fs["true_sharing_transfers"]))
        top = fs["top_blocks"][0] if fs["top_blocks"] else {"writers": []}
        w = sorted((x["node"], x["ranges"], x["ranges_total"]) for x in top["writers"])
        want_w = [(k, [[8 * k, 8 * k + 8]], 1) for k in range(4)]
        if w != want_w:
            bad.append("slots: writers %r, expected %r" % (w, want_w))
    elif fs["count"] != 0:
        bad.append("%s: %d false-sharing transfers claimed (padding would save nothing)"
                   % (name, fs["count"]))
    if name in ("ring", "counter", "overwrite") and fs["true_sharing_transfers"] < 1:
        bad.append("%s: no true-sharing transfer" % name)
    if name == "private" and not counters_off:
        c = s["causes"]
        if c["invalidation"] + c["upgrade"] != 0 or c["cold"] < 4:
            bad.append("private: causes cold %d, invalidation %d, upgrade %d (want only cold)"
                       % (c["cold"], c["invalidation"], c["upgrade"]))
# the group structure's blocks travel together: one group, listed
g = used.get("group", [])
ids = {S["group"]["block_list"] and next((b["group_id"] for b in S["group"]["block_list"]
                                         if b["index"] == k), None) for k in g}
ins = [next((b["in_group"] for b in S["group"]["block_list"] if b["index"] == k), None) for k in g]
if len(ids) != 1 or ins != [True] * 3:
    bad.append("group: group ids %r, in_group %r (want one group)" % (ids, ins))
else:
    gid = ids.pop()
    gs = [x for x in p["groups"] if x["id"] == gid]
    if not gs:
        bad.append("group: its group %r is not listed in groups" % gid)
    else:
        members = {k for m in gs[0]["members"] if m["structure"] == "group"
                   for k in range(m["first_block"], m["first_block"] + m["blocks"])}
        if not set(g) <= members or gs[0]["fetched_together"] < 1 or gs[0]["gain"] < 0:
            bad.append("group: group %r members %r, fetched together %d" % (gid, sorted(members),
                       gs[0]["fetched_together"]))
for b in bad:
    print("FAIL %s: %s" % (what, b))
if not bad:
    print("ok   %s: 9 structures' patterns, group, false/true sharing and written bytes" % what)
sys.exit(1 if bad else 0)
PY
}

for t in $transports; do
    for m in $modes; do
        bs=${m%%:*} prog=${m#*:}
        case $prog in /*) ;; *) prog=$(pwd)/$prog ;; esac
        for mode in phased interleaved; do
            what="$t, ${bs}-byte blocks, $mode"
            json=$tmp/p.$t.$bs.$mode.json out=$tmp/out.$t.$bs.$mode
            if [ "$t" = mpi ]; then
                run="env DSM_TEST_TRANSPORT=mpi sh $srcdir/tests/mpirun_dsm.sh"
            else
                run=$top/dsmrun
            fi
            if ! env DSM_PROFILE="$json" DSM_PROFILE_SUMMARY=off DSM_BLOCK_SIZE=$bs \
                    timeout -k 10 200 $run -n 4 --timeout 180 "$prog" $mode "$rounds" > "$out" 2>&1 ||
                    [ "$(grep -c '^known_sharing: node [0-3] OK' "$out")" -ne 4 ]; then
                echo "FAIL $what: the run failed:"; cat "$out"; fail=1; continue
            fi
            check "$json" "$out" "$what" || fail=1
            # the advisor: false sharing named for slots alone, with the slot fix
            "$dsmprof" advice "$json" --threshold-structure-min=0 > "$tmp/adv" 2>&1 ||
                { echo "FAIL $what: dsmprof advice: $(cat "$tmp/adv")"; fail=1; continue; }
            # the views: the report's, csv's and the page's groups name the group structure
            "$dsmprof" report "$json" > "$tmp/rep" 2>&1 &&
                grep -q '^Groups (blocks fetched together' "$tmp/rep" &&
                "$dsmprof" csv "$json" --view groups | grep -q ',"group",' &&
                "$dsmprof" html "$json" | grep -q '<section id="groups">' &&
                "$dsmprof" report "$json" --structure slots | grep -q 'sharing pattern migratory' ||
                { echo "FAIL $what: dsmprof views without the groups or the sharing pattern"; fail=1; }
            fsl=$(grep -o 'FalseSharing (structure [a-z0-9]*)' "$tmp/adv" | sort -u | tr '\n' ' ')
            if [ "$fsl" = "FalseSharing (structure slots) " ] &&
                    grep -q "give each node's slot of slots a block of its own" "$tmp/adv"; then
                echo "ok   $what: advice: false sharing in slots only, pad each slot"
            else
                echo "FAIL $what: advice names false sharing in: '$fsl'"; cat "$tmp/adv"; fail=1
            fi
        done
    done
done
# without counters (DSM_COUNTERS=off: every count zero) the reads that judge
# true sharing are still recorded: the ring is still no false sharing
json=$tmp/p.nocounters.json out=$tmp/out.nocounters
if env DSM_COUNTERS=off DSM_PROFILE="$json" DSM_PROFILE_SUMMARY=off \
        timeout -k 10 200 "$top/dsmrun" -n 4 --timeout 180 "$top/tests/known_sharing" phased "$rounds" \
        > "$out" 2>&1 && [ "$(grep -c '^known_sharing: node [0-3] OK' "$out")" -eq 4 ]; then
    check "$json" "$out" "shm, 4096-byte blocks, phased, DSM_COUNTERS=off" counters-off || fail=1
else
    echo "FAIL DSM_COUNTERS=off: the run failed:"; cat "$out"; fail=1
fi
# a node preempted between its readings of the clock and of the time-stamp
# counter at dsm_init converted every time of its profile by as much: its
# reads then looked older than the epoch whose bytes they read, and ring
# transfers were called false sharing (2 in a CI run under load).  The odd
# nodes' first reading stalls 2 ms here (DSM_TEST_CLOCK_STALL_US); dsm/futex.c
# (clock_pair) keeps the closest of several readings.  With one reading
# and a 1 ms stall, 9 to 15 of the ring's transfers were called false
# sharing in each of 6 runs.
json=$tmp/p.stall.json out=$tmp/out.stall
if env DSM_TEST_CLOCK_STALL_US=2000 DSM_PROFILE="$json" DSM_PROFILE_SUMMARY=off \
        timeout -k 10 200 "$top/dsmrun" -n 4 --timeout 180 "$top/tests/known_sharing" interleaved "$rounds" \
        > "$out" 2>&1 && [ "$(grep -c '^known_sharing: node [0-3] OK' "$out")" -eq 4 ]; then
    check "$json" "$out" "shm, 4096-byte blocks, interleaved, odd nodes' clock reading stalled" || fail=1
else
    echo "FAIL DSM_TEST_CLOCK_STALL_US: the run failed:"; cat "$out"; fail=1
fi
exit $fail
