#!/bin/sh
# mn_profile.sh - the dsm-profile/2 file (doc/profile-format.md) of a 2-node
# program whose sharing is known (tests/mn_profile.c), and dsmprof on it:
#   pair     false sharing: transfers counted, share of coherence misses, the
#            written byte ranges [0,8) at node 0 and [2048,2056) at node 1;
#            overwritten in turn, never read: write_shared, not migratory
#   counter  true sharing only (no false-sharing transfer); migratory
#   table    exact miss kinds and causes: 24 cold (8 first touches, and node
#            1's 8 upgrades of the copies its own cold reads brought: first
#            writes, not coherence), 8 invalidation (node 0); read_table and
#            write_table attributed 16 misses each, as pairs with "table"
#   unnamed  binned by its allocation site: make_unnamed (mn_profile.c:LINE)
#   every structure: causes add up to its misses; schema, nodes, block size
# and: the exit summary (at most 15 lines), DSM_PROFILE=off writes nothing,
# the default dsm-profile.json, dsmprof report/--structure/csv/diff, and the
# one-line errors with exit status 2 for a missing file, non-JSON and a
# wrong schema; a FIFO as DSM_PROFILE refused with one line, left a FIFO
# and the run ending normally.  Group ids: tests/mn_patterns on 3 nodes, whose three
# blocks touched in order ("trio") must share one group id, named by one of
# them; every listed block has an integer group id, -1 or a block number.
top=${top_builddir:-.}
srcdir=${srcdir:-.}
dsmrun=${DSMRUN:-$top/dsmrun}
prog=$top/tests/mn_profile
patprog=$top/tests/mn_patterns
dsmprof=$top/dsmprof
case $prog in /*) ;; *) prog=$(pwd)/$prog ;; esac
case $patprog in /*) ;; *) patprog=$(pwd)/$patprog ;; esac
case $dsmprof in /*) ;; *) dsmprof=$(pwd)/$dsmprof ;; esac
case $dsmrun in /*) ;; *) dsmrun=$(pwd)/$dsmrun ;; esac
for f in "$dsmrun" "$prog" "$patprog" "$dsmprof"; do
    [ -x "$f" ] || { echo "mn_profile.sh: $f is not built" >&2; exit 99; }
done
command -v python3 >/dev/null 2>&1 || { echo "mn_profile.sh: python3 not found (scripts/debian-packages)" >&2; exit 99; }
src=$srcdir/tests/mn_profile.c
line=$(grep -n '/\* UNNAMED_SITE \*/' "$src" | head -1 | cut -d: -f1)
to=${TIMEOUT:-timeout}
command -v "$to" >/dev/null 2>&1 || to=
dir=$(mktemp -d "${TMPDIR:-/tmp}/mn_profile.XXXXXX") || exit 99
trap 'rm -rf "$dir"' EXIT
fail=0
say() { echo "FAIL: $*"; fail=1; }

# run [VAR=value...]: in $dir/run, output in $dir/out, status in $rc
run() {
    rm -rf "$dir/run"
    mkdir "$dir/run"
    (cd "$dir/run" && env DSM_HOMES=blocked "$@" ${to:+$to -k 10 150} \
        "$dsmrun" -n 2 --timeout 120 "$prog") >"$dir/out" 2>&1
    rc=$?
}

# 1. the profile
run DSM_PROFILE="$dir/p.json"
if [ $rc -ne 0 ] || [ ! -s "$dir/p.json" ]; then
    cat "$dir/out"
    say "run with DSM_PROFILE=$dir/p.json: exit status $rc, profile $( [ -s "$dir/p.json" ] && echo written || echo missing)"
    exit 1
fi
python3 - "$dir/p.json" "$line" <<'EOF' || fail=1
import json, sys
p = json.load(open(sys.argv[1]))
line = int(sys.argv[2])
bad = []
def check(what, got, want):
    if got != want:
        bad.append("%s is %r, expected %r" % (what, got, want))
check("schema", p["schema"], "dsm-profile/2")
check("nodes", p["nodes"], 2)
bs = p["block_size"]
check("wall_seconds > 0", p["wall_seconds"] > 0, True)
S = {s["name"]: s for s in p["structures"]}
kinds = ["stacheReadMisses", "homeReadMisses", "stacheWriteRO", "homeWriteRO",
         "stacheWriteInv", "homeWriteInv"]
def misses(m): return sum(m[k] for k in kinds)
for name in ["pair", "counter", "table"]:
    if name not in S:
        bad.append("no structure %r (have %r)" % (name, sorted(S)))
if not bad:
    for s in p["structures"]:
        c = s["causes"]
        check("%s: cold+invalidation+upgrade" % s["name"],
              c["cold"] + c["invalidation"] + c["upgrade"], misses(s["metrics"]))
        check("%s: per_node metrics" % s["name"], len(s["metrics"]["per_node"]), 2)
        check("%s: pattern counts" % s["name"], sum(s["patterns"].values()), s["blocks"])
    pair, counter, table = S["pair"], S["counter"], S["table"]
    fs = pair["false_sharing"]
    rounds = 20
    # each round moves the block to the other writer: 2*rounds-1 transfers,
    # less the one out of the home's first epoch, which is not diffed (the
    # home twins a block once it has seen a remote writer: profile-format.md)
    check("pair: false-sharing transfers", fs["count"], 2 * rounds - 2)
    check("pair: true-sharing transfers", fs["true_sharing_transfers"], 0)
    check("pair: share", round(fs["share"], 3), round(fs["count"] / fs["coherence_misses"], 3))
    check("pair: share at most 1", fs["share"] <= 1, True)
    check("pair: written ranges", sorted((w["node"], w["ranges"], w["ranges_total"])
                                         for w in fs["top_blocks"][0]["writers"]),
          [(0, [[0, 8]], 1), (1, [[2048, 2056]], 1)])
    check("pair: sharing pattern", pair["sharing_pattern"], "write_shared")
    et = pair.get("element_type", {})
    check("pair: element type", (et.get("name"), et.get("size"),
                                 [(f["name"], f["offset"], f["size"]) for f in et.get("fields", [])]),
          ("pair_fields", 2056, [("a", 0, 8), ("gap", 8, 2040), ("b", 2048, 8)]))
    check("counter: no element type (a long)", "element_type" in counter, False)
    check("counter: sharing pattern", counter["sharing_pattern"], "migratory")
    check("pair: top block transfers", fs["top_blocks"][0]["transfers"], 2 * rounds - 2)
    check("pair: blocks listed", len(pair["block_list"]), 1)
    check("counter: false sharing", counter["false_sharing"]["count"], 0)
    check("counter: true sharing > 0", counter["false_sharing"]["true_sharing_transfers"] > 0, True)
    c = table["causes"]
    check("table: blocks", table["blocks"], 8)
    check("table: bytes", table["bytes"], 8 * bs)
    check("table: cold", c["cold"], 24)
    check("table: cold_first_touch", c["cold_first_touch"], 8)
    check("table: invalidation", c["invalidation"], 8)
    check("table: upgrade", c["upgrade"], 0)
    check("table: node 0 causes", [c["per_node"][0][k] for k in ("cold", "invalidation", "upgrade")], [8, 8, 0])
    check("table: node 1 causes", [c["per_node"][1][k] for k in ("cold", "invalidation", "upgrade")], [16, 0, 0])
    m = table["metrics"]
    check("table: read misses at node 1",
          m["per_node"][1]["stacheReadMisses"] + m["per_node"][1]["homeReadMisses"], 8)
    check("table: upgrades at node 1",
          m["per_node"][1]["stacheWriteRO"] + m["per_node"][1]["homeWriteRO"], 8)
    check("table: false sharing", table["false_sharing"]["count"], 0)
    un = [s for s in p["structures"] if s["kind"] == "site"]
    check("site structures", len(un), 1)
    if un:
        u = un[0]
        check("unnamed: name", u["name"], "make_unnamed (mn_profile.c:%d)" % line)
        check("unnamed: site", (u["site"]["function"], u["site"]["file"], u["site"]["line"]),
              ("make_unnamed", "mn_profile.c", line))
        check("unnamed: path goes on to main", u["site"]["path"][1].startswith("main ("), True)
        check("unnamed: blocks", u["blocks"], 4)
        check("unnamed: misses", misses(u["metrics"]), 8)
        check("unnamed: read_only blocks", u["patterns"]["read_only"], 4)
    P = {x["name"]: x for x in p["procedures"]}
    for f, k, n in [("read_table", "read_misses", 16), ("write_table", "write_misses", 8),
                    ("write_table", "upgrades", 8)]:
        check("procedure %s %s" % (f, k), P.get(f, {}).get(k), n)
    check("read_table's file", P.get("read_table", {}).get("file"), "mn_profile.c")
    pairs = {(x["procedure"], x["structure"]): x for x in p["pairs"]}
    check("pair (read_table, table) misses", pairs.get(("read_table", "table"), {}).get("misses"), 16)
    check("pair (write_table, table) misses", pairs.get(("write_table", "table"), {}).get("misses"), 16)
    check("per_node barriers", [n["barriers"] for n in p["per_node"]], [p["per_node"][0]["barriers"]] * 2)
    check("per_node lock_acquires", [n["lock_acquires"] for n in p["per_node"]], [20, 20])
for b in bad:
    print("FAIL: profile: " + b)
sys.exit(1 if bad else 0)
EOF

# 2. the exit summary
n=$(grep -c '^dsm profile:' "$dir/out")
[ "$n" -ge 2 ] && [ "$n" -le 15 ] || say "exit summary has $n lines (want 2..15): $(cat "$dir/out")"
grep -q '^dsm profile:   pair .*write_shared  false sharing$' "$dir/out" || say "exit summary does not show pair with false sharing: $(cat "$dir/out")"

# 3. DSM_PROFILE=off: no file, no summary; unset: dsm-profile.json
run DSM_PROFILE=off
[ $rc -eq 0 ] || say "DSM_PROFILE=off: exit status $rc"
[ -z "$(ls -A "$dir/run")" ] || say "DSM_PROFILE=off wrote $(ls -A "$dir/run")"
grep -q '^dsm profile:' "$dir/out" && say "DSM_PROFILE=off printed a summary"
run
[ $rc -eq 0 ] && [ -s "$dir/run/dsm-profile.json" ] || say "default: no dsm-profile.json in the working directory"
# a FIFO at the path: not replaced by a regular file, not written into (the
# runtime would then block reading it back), one line, a normal exit
mkfifo "$dir/fifo.json"
run DSM_PROFILE="$dir/fifo.json"
[ $rc -eq 0 ] || say "DSM_PROFILE=a FIFO: exit status $rc: $(cat "$dir/out")"
[ -p "$dir/fifo.json" ] || say "DSM_PROFILE=a FIFO: the FIFO was replaced"
grep -q "cannot write the profile DSM_PROFILE=$dir/fifo.json: is a FIFO, not a regular file" "$dir/out" \
    || say "DSM_PROFILE=a FIFO: no line saying why: $(cat "$dir/out")"
cp "$dir/run/dsm-profile.json" "$dir/q.json" 2>/dev/null

# 4. dsmprof
"$dsmprof" report "$dir/p.json" > "$dir/rep" 2>&1 || say "dsmprof report failed: $(cat "$dir/rep")"
for want in '^By structure' '^  pair ' '^By procedure' '^  read_table  *mn_profile.c:' '^By (procedure, structure)' '^Per node'; do
    grep -q "$want" "$dir/rep" || say "dsmprof report: no line matching /$want/"
done
"$dsmprof" report "$dir/p.json" --structure pair > "$dir/rep" 2>&1 || say "dsmprof report --structure failed: $(cat "$dir/rep")"
grep -q 'node 0 wrote bytes \[0,8)' "$dir/rep" && grep -q 'node 1 wrote bytes \[2048,2056)' "$dir/rep" ||
    say "dsmprof report --structure pair: offsets missing: $(cat "$dir/rep")"
grep -q 'misses by cause: cold' "$dir/rep" || say "dsmprof report --structure pair: no causes"
"$dsmprof" advice "$dir/p.json" --threshold-structure-min=0 > "$dir/adv" 2>&1 || say "dsmprof advice failed"
grep -q 'fields of struct pair_fields (2056 bytes) written: node 0: a; node 1: b' "$dir/adv" &&
    grep -q 'the colliding fields of struct pair_fields: a (node 0), b (node 1)' "$dir/adv" ||
    say "dsmprof advice does not name pair's colliding fields: $(cat "$dir/adv")"
"$dsmprof" csv "$dir/p.json" > "$dir/csv" 2>&1 || say "dsmprof csv failed"
for v in structures procedures pairs nodes blocks false_sharing groups; do
    grep -q "^# $v\$" "$dir/csv" || say "dsmprof csv: no table $v"
done
got=$("$dsmprof" csv "$dir/p.json" --view structures | awk -F, '$1 == "\"table\"" { print $16 "/" $18 "/" $19 }')
[ "$got" = "24/8/0" ] || say "dsmprof csv structures: table cold/invalidation/upgrade is $got, expected 24/8/0"
got=$("$dsmprof" csv "$dir/p.json" --view false_sharing | grep -c '^"pair",')
[ "$got" = 2 ] || say "dsmprof csv false_sharing: $got rows for pair, expected 2"
if [ -s "$dir/q.json" ]; then
    "$dsmprof" diff "$dir/p.json" "$dir/q.json" > "$dir/diff" 2>&1 || say "dsmprof diff failed: $(cat "$dir/diff")"
    grep -q '^  pair ' "$dir/diff" || say "dsmprof diff: no row for pair"
fi

# 5. bad input: one line, exit status 2
bad_input() { # bad_input WHAT FILE...
    what=$1
    shift
    out=$("$dsmprof" report "$@" 2>&1)
    st=$?
    [ $st -eq 2 ] || say "dsmprof on $what: exit status $st, expected 2"
    [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] || say "dsmprof on $what: not one line: $out"
    printf '%s\n' "$out" | grep -q "^dsmprof: " || say "dsmprof on $what: $out"
}
bad_input "a missing file" "$dir/nonexistent.json"
echo 'this is not json' > "$dir/bad.json"
bad_input "non-JSON" "$dir/bad.json"
echo '{"schema": "dsm-stats/9", "structures": []}' > "$dir/schema.json"
bad_input "a wrong schema" "$dir/schema.json"
bad_input "an unknown structure" "$dir/p.json" --structure no_such_thing
"$dsmprof" --help | grep -q '^Usage: dsmprof report' || say "dsmprof --help"
"$dsmprof" frobnicate "$dir/p.json" >/dev/null 2>&1
[ $? -eq 1 ] || say "dsmprof with an unknown command: exit status not 1"

# 6. group ids per block (block_list[].group_id), from a program with a group
(cd "$dir" && env DSM_PROFILE="$dir/g.json" DSM_PROFILE_SUMMARY=off ${to:+$to -k 10 150} \
    "$dsmrun" -n 3 --timeout 120 "$patprog" 20) > "$dir/gout" 2>&1 ||
    say "mn_patterns with a profile: exit status $?: $(cat "$dir/gout")"
trio=$(awk '$1 == "structure" && $2 == "trio" { $1 = $2 = $3 = ""; print }' "$dir/gout")
python3 - "$dir/g.json" $trio <<'EOF' || fail=1
import json, sys
p = json.load(open(sys.argv[1]))
trio = [int(x) for x in sys.argv[2:]]
bad = []
if len(trio) != 3:
    bad.append("mn_patterns printed no trio blocks: %r" % trio)
blocks = {}
for s in p["structures"]:
    for b in s["block_list"] or []:
        g = b.get("group_id")
        if not isinstance(g, int) or g < -1:
            bad.append("%s block %d: group_id %r" % (s["name"], b["index"], g))
        blocks[b["index"]] = b
if trio and not bad:
    gs = [blocks.get(k, {}).get("group_id") for k in trio]
    if len(set(gs)) != 1 or gs[0] not in trio:
        bad.append("trio blocks %r have group ids %r, expected one id among them" % (trio, gs))
    # a group, and apart from it their sharing pattern: node 1 writes, node 2 reads
    if [blocks.get(k, {}).get("pattern") for k in trio] != ["producer_consumer"] * 3:
        bad.append("trio blocks are not all producer_consumer: %r"
                   % [blocks.get(k, {}).get("pattern") for k in trio])
    if [blocks.get(k, {}).get("in_group") for k in trio] != [True] * 3:
        bad.append("trio blocks are not all in a group")
    ids = [g["id"] for g in p["groups"]]
    if gs[0] not in ids:
        bad.append("the trio's group %r is not among the profile's groups %r" % (gs[0], ids))
for b in bad:
    print("FAIL: group ids: " + b)
sys.exit(1 if bad else 0)
EOF

[ $fail -eq 0 ] && echo "mn_profile: profile and dsmprof as expected"
exit $fail
