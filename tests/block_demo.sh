#!/bin/sh
# block_demo.sh - block mode's demonstration (apps/pageslots.c): two nodes
# increment their own 8-byte slots, each in its own 64-byte line of one
# page, for a fixed time with no barrier, peeking at the neighbour's slot
# a few times.  In page mode the page ping-pongs between the writers; in
# block mode at 64-byte blocks every slot is its own block and nothing
# moves after the first write but the peeks.
#
# The slots' coherence misses (stacheReadMisses + homeReadMisses +
# stacheWriteRO + homeWriteRO + stacheWriteInv + homeWriteInv over the
# blocks of the "structure pageslots.slots FIRST LAST" line, from DSM_STATS)
# are printed for both, and the test fails unless
#   - page mode shows the ping-pong: at least 50 misses (thousands on an
#     idle machine), and
#   - block mode at 64 B removes it: at most 4 per node (first writes,
#     node 0's final check) plus 3 per peek (the read, the neighbour's
#     next write, its home's share), and page mode has at least 4 times as
#     many (a loaded machine slows page mode's transfers to milliseconds;
#     the phase lasts a second so that they still add up).
# Both results must be "pageslots: result OK".  The runs' profiles must say
# their mode and block size ("mode": "page" / "block", "block_size"), and so
# must the exit summary and dsmprof report's header.
. "${srcdir:-.}/tests/block_env.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/block_demo.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
dsmrun=${DSMRUN:-$top/dsmrun}
to=${TIMEOUT:-timeout}
command -v "$to" >/dev/null 2>&1 || to=
peeks=2
nodes=2

# run TAG BLOCK PROGRAM: one job on two nodes; output in $tmp/TAG.out
run() {
    tag=$1 bs=$2 prog=$3
    if ! DSM_BLOCK_SIZE=$bs DSM_STATS=$tmp/$tag.stats DSM_PROFILE=$tmp/$tag.json $to 150 "$dsmrun" -n $nodes \
            --timeout 120 "$prog" --ms=1000 --peeks=$peeks > "$tmp/$tag.out" 2>&1 ||
        ! grep -q "pageslots: result OK" "$tmp/$tag.out"; then
        echo "FAIL: $tag: pageslots failed:"
        cat "$tmp/$tag.out"
        exit 1
    fi
    grep "pageslots: [0-9]" "$tmp/$tag.out"
}

# misses TAG: the slots' coherence misses
misses() {
    set -- "$1" $(awk '$1 == "structure" && $2 == "pageslots.slots" { print $3, $4 }' "$tmp/$1.out")
    awk -F'\t' -v f="$2" -v l="$3" '
        $1 == "block" && $2 >= f && $2 <= l &&
        ($3 == "stacheReadMisses" || $3 == "homeReadMisses" || $3 == "stacheWriteRO" ||
         $3 == "homeWriteRO" || $3 == "stacheWriteInv" || $3 == "homeWriteInv") { n += $4 }
        END { print n + 0 }' "$tmp/$1.stats"
}

run page 4096 "$top/apps/pageslots"
run block64 64 "$top/apps/blk_pageslots"
page=$(misses page)
block=$(misses block64)
bound=$((4 * nodes + 3 * peeks * nodes))
echo "block_demo: slots' coherence misses: page mode (4 KiB) $page, block mode (64 B) $block" \
    "(bound $bound)"
st=0
if [ "$page" -lt 50 ]; then
    echo "FAIL: page mode showed no ping-pong ($page misses < 50): the demonstration proves nothing"
    st=1
fi
if [ "$block" -gt "$bound" ] || [ $((block * 4)) -gt "$page" ]; then
    echo "FAIL: block mode at 64 B did not remove the ping-pong ($block misses)"
    st=1
fi
[ $st = 0 ] && echo "ok: the page ping-pongs, the 64-byte blocks do not"

# the mode and the block size in the profile, the summary and the report
for c in "page page 4096" "block64 block 64"; do
    set -- $c
    tag=$1 mode=$2 bs=$3
    if grep -Eq "\"mode\": ?\"$mode\"" "$tmp/$tag.json" &&
        grep -Eq "\"block_size\": ?$bs[,} ]" "$tmp/$tag.json"; then
        echo "ok: $tag: the profile says mode $mode, block_size $bs"
    else
        echo "FAIL: $tag: the profile does not say mode $mode, block_size $bs:"
        head -c 300 "$tmp/$tag.json"
        st=1
    fi
    line=$(grep "^dsm profile: $nodes nodes" "$tmp/$tag.out")
    case $line in
    *"$mode mode ($bs-byte blocks)"*) echo "ok: $tag: summary: $line" ;;
    *) echo "FAIL: $tag: the summary does not say $mode mode, $bs-byte blocks: $line"; st=1 ;;
    esac
    head=$("$top/dsmprof" report "$tmp/$tag.json" 2>&1 | head -1)
    case $head in
    *"$mode mode, $bs-byte blocks"*) echo "ok: $tag: dsmprof report: $head" ;;
    *) echo "FAIL: $tag: dsmprof report's header does not say $mode mode, $bs-byte blocks: $head"; st=1 ;;
    esac
done
exit $st
