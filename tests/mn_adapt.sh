#!/bin/sh
# mn_adapt.sh - the adaptive protocol in the runtime (tests/mn_adapt.c on 2
# nodes): with DSM_ADAPT=on the results are exact, the home granted reads of
# the migratory counter exclusive (the profile's per_node metric
# adaptExclusiveReads > 0), the read-shared table fell back to shared
# grants (adaptFallbacks > 0), the consumer's reads of a produced buffer
# left the producer a read copy or, at the producer's barrier, were pushed
# to the consumer (adaptDowngrades + adaptPushes > 0), the migratory
# counter was flushed home at the unlocks (adaptFlushes > 0), and dsmprof report
# says what the adaptation did and saved; with DSM_ADAPT off (the default)
# the counts are 0.  On 3 nodes with DSM_ADAPT=on, the group the last
# readers read after node 0 is bulk-fetched (adaptBulkCopies > 0) and every
# value is exact.  With DSM_PREFETCH=8 too, on 2 and 3 nodes: blocks are
# brought along (adaptBulkCopies > 0) and every value is exact.  A
# 16-block produced buffer is pushed at the producer's barriers, a 100-block
# one never (a release pushes at most 64 blocks, or none).
top=${top_builddir:-.}
dsmrun=${DSMRUN:-$top/dsmrun}
prog=$top/tests/mn_adapt
dsmprof=$top/dsmprof
for f in "$dsmrun" "$prog" "$dsmprof"; do
    [ -x "$f" ] || { echo "mn_adapt.sh: $f is not built" >&2; exit 99; }
done
command -v python3 >/dev/null 2>&1 || { echo "mn_adapt.sh: python3 not found (scripts/debian-packages)" >&2; exit 99; }
dir=$(mktemp -d "${TMPDIR:-/tmp}/mn_adapt.XXXXXX") || exit 99
trap 'rm -rf "$dir"' EXIT
fail=0

counts() { # PROFILE -> "exclusive fallbacks", summed over the nodes
    python3 -c '
import json, sys
p = json.load(open(sys.argv[1]))
m = [n["metrics"] for n in p["per_node"]]
print(*(sum(x[k] for x in m) for k in ("adaptExclusiveReads", "adaptFallbacks", "adaptDowngrades",
                                        "adaptPushes", "adaptFlushes")))' "$1"
}

for adapt in on off; do
    out=$dir/out.$adapt
    if ! DSM_ADAPT=$adapt DSM_PROFILE=$dir/p.$adapt.json DSM_PROFILE_SUMMARY=off \
            "$dsmrun" -n 2 --timeout 60 "$prog" > "$out" 2>&1; then
        echo "FAIL: DSM_ADAPT=$adapt: the run failed:"; cat "$out"; fail=1; continue
    fi
    cat "$out"
    [ "$(grep -c 'counter 80 (expected 80), table sum 40320 (expected 40320), consumed \([0-9]*\) (expected \1)' "$out")" = 2 ] ||
        { echo "FAIL: DSM_ADAPT=$adapt: wrong results"; fail=1; }
    set -- $(counts "$dir/p.$adapt.json")
    echo "DSM_ADAPT=$adapt: $1 reads granted exclusive, $2 fallbacks to shared grants, $3 producers downgraded, $4 pushes, $5 flushes"
    if [ "$adapt" = on ]; then
        [ "$1" -gt 0 ] || { echo "FAIL: no read of the migratory counter was granted exclusive"; fail=1; }
        [ "$2" -gt 0 ] || { echo "FAIL: the read-shared table never fell back to shared grants"; fail=1; }
        [ $(($3 + $4)) -gt 0 ] || { echo "FAIL: the buffer's producer was neither downgraded nor pushed to the consumer"; fail=1; }
        [ "$4" -gt 0 ] || { echo "FAIL: the buffer's producer never pushed at its barrier"; fail=1; }
        [ "$5" -gt 0 ] || { echo "FAIL: the migratory counter was never flushed home at an unlock"; fail=1; }
        "$dsmprof" report "$dir/p.on.json" > "$dir/report" 2>&1
        grep -E '^Adaptive protocol: [1-9][0-9]* reads of migratory blocks granted exclusive' "$dir/report" ||
            { echo "FAIL: dsmprof report has no line on the adaptation:"; head -5 "$dir/report"; fail=1; }
        grep -E '^  at releases: [1-9][0-9]* producers.* [1-9][0-9]* migratory blocks flushed home' "$dir/report" ||
            { echo "FAIL: dsmprof report does not say what the releases pushed and flushed:"; head -5 "$dir/report"; fail=1; }
        grep -E '^  bulk fetch: [0-9]+ read misses of grouped blocks brought [0-9]+ more blocks' "$dir/report" ||
            { echo "FAIL: dsmprof report does not say what the bulk fetches did:"; head -5 "$dir/report"; fail=1; }
    else
        [ "$1 $2 $3 $4 $5" = "0 0 0 0 0" ] || { echo "FAIL: DSM_ADAPT=off adapted ($1, $2, $3, $4, $5)"; fail=1; }
    fi
done
# the limit on a release's pushes (ADAPT_PUSH_MAX, 64): a 16-block buffer
# is pushed at the producer's barriers, a 100-block one never (its
# consumer's reads downgrade the producer instead), both consumed exactly
for blocks in 16 100; do
    out=$dir/out.buf$blocks
    if ! DSM_ADAPT=on DSM_PROFILE=$dir/p.buf$blocks.json DSM_PROFILE_SUMMARY=off \
            "$dsmrun" -n 2 --timeout 60 "$prog" buffer=$blocks > "$out" 2>&1; then
        echo "FAIL: buffer=$blocks: the run failed:"; cat "$out"; fail=1; continue
    fi
    cat "$out"
    grep -q "node 1: $blocks-block buffer consumed \([0-9]*\) (expected \1)" "$out" ||
        { echo "FAIL: buffer=$blocks: wrong results"; fail=1; }
    set -- $(counts "$dir/p.buf$blocks.json")
    echo "DSM_ADAPT=on, a $blocks-block buffer: $3 producers downgraded, $4 pushes"
    if [ "$blocks" -le 64 ]; then
        [ "$4" -gt 0 ] || { echo "FAIL: the $blocks-block buffer was never pushed"; fail=1; }
    else
        [ "$4" = 0 ] || { echo "FAIL: the $blocks-block buffer was pushed ($4 pushes) past the limit of 64"; fail=1; }
        [ "$3" -gt 0 ] || { echo "FAIL: the $blocks-block buffer's producer was never downgraded"; fail=1; }
    fi
done
# the group on 3 nodes: its last reader's misses bring it along
out=$dir/out.group
if DSM_ADAPT=on DSM_PROFILE=$dir/p.group.json DSM_PROFILE_SUMMARY=off \
        "$dsmrun" -n 3 --timeout 60 "$prog" > "$out" 2>&1; then
    cat "$out"
    [ "$(grep -c 'group values read wrong 0$' "$out")" = 3 ] ||
        { echo "FAIL: 3 nodes: wrong results"; fail=1; }
    copies=$(python3 -c '
import json, sys
print(sum(n["metrics"]["adaptBulkCopies"] for n in json.load(open(sys.argv[1]))["per_node"]))' "$dir/p.group.json")
    echo "DSM_ADAPT=on, 3 nodes: $copies blocks bulk-fetched with a group"
    [ "$copies" -gt 0 ] || { echo "FAIL: no block of the group was bulk-fetched"; fail=1; }
else
    echo "FAIL: DSM_ADAPT=on, 3 nodes: the run failed:"; cat "$out"; fail=1
fi
# the prefetch (DSM_PREFETCH=8), 2 and 3 nodes: cold reads bring the next
# blocks of their home along, from its own copies too, and every value
# stays exact
for n in 2 3; do
    out=$dir/out.prefetch$n
    if DSM_ADAPT=on DSM_PREFETCH=8 DSM_PROFILE=$dir/p.prefetch$n.json DSM_PROFILE_SUMMARY=off \
            "$dsmrun" -n $n --timeout 60 "$prog" > "$out" 2>&1; then
        if [ $n = 2 ]; then
            [ "$(grep -c 'counter 80 (expected 80), table sum 40320 (expected 40320), consumed \([0-9]*\) (expected \1)' "$out")" = 2 ] ||
                { echo "FAIL: DSM_PREFETCH=8, 2 nodes: wrong results"; cat "$out"; fail=1; }
        else
            [ "$(grep -c 'group values read wrong 0$' "$out")" = 3 ] ||
                { echo "FAIL: DSM_PREFETCH=8, 3 nodes: wrong results"; cat "$out"; fail=1; }
        fi
        copies=$(python3 -c '
import json, sys
print(sum(n["metrics"]["adaptBulkCopies"] for n in json.load(open(sys.argv[1]))["per_node"]))' "$dir/p.prefetch$n.json")
        echo "DSM_ADAPT=on DSM_PREFETCH=8, $n nodes: $copies blocks brought along"
        [ "$copies" -gt 0 ] || { echo "FAIL: DSM_PREFETCH=8, $n nodes: nothing prefetched"; fail=1; }
    else
        echo "FAIL: DSM_PREFETCH=8, $n nodes: the run failed:"; cat "$out"; fail=1
    fi
done
[ $fail = 0 ] && echo "mn_adapt.sh: PASS"
exit $fail
