#!/bin/sh
# mn_counts.sh - exact Figure 3 counts in the DSM_STATS file (doc/metrics.md)
# for sharing whose coherence events are known (tests/mn_counts.c), on 2 and
# 4 nodes:
#   read      node 1 reads 100 blocks homed at node 0 once each: stacheReadMisses
#             is 100 at node 1, homeReadMisses 0 there, both 0 at node 0
#   homeread  the home reads its 100 blocks 3 times: homeReadMisses 100
#   write     writes to invalid and read-only blocks, at the home and remote:
#             homeWriteInv, stacheWriteInv, homeWriteRO, stacheWriteRO 100 each
#   inv       invRO 100 at every reader, invRW 100 at the recalled writer,
#             Acks 100 * readers at the home
#   sync      targetBarrier and lockAcquires per node
# and, in every file: totals over blocks == per-node totals == job totals for
# every per-block metric on every node, memoryBlockTime covers the misses,
# pattern records gathered from the home.  Also DSM_COUNTERS=off, and the
# errors for bad DSM_COUNTERS / DSM_STATS values.
top=${top_builddir:-.}
dsmrun=${DSMRUN:-$top/dsmrun}
prog=$top/tests/mn_counts
# the matrix's mode axis: mode=block runs the checked twin (tests/block.mk)
[ "${DSM_TEST_MODE:-page}" = block ] && prog=$top/tests/blk_mn_counts
for f in "$dsmrun" "$prog"; do
    [ -x "$f" ] || { echo "mn_counts.sh: $f is not built" >&2; exit 99; }
done
to=${TIMEOUT:-timeout}
command -v "$to" >/dev/null 2>&1 || to=
dir=$(mktemp -d "${TMPDIR:-/tmp}/mn_counts.XXXXXX") || exit 99
trap 'rm -rf "$dir"' EXIT
fail=0

run() { # run NODES MODE [VAR=value...]: the stats file is $dir/st, output $dir/out
    n=$1 mode=$2
    shift 2
    rm -f "$dir/st"
    env DSM_STATS="$dir/st" DSM_HOMES=blocked "$@" ${to:+$to -k 10 150} \
        "$dsmrun" -n "$n" --timeout 120 "$prog" "$mode" >"$dir/out" 2>&1
    rc=$?
    if [ $rc -ne 0 ] || [ ! -s "$dir/st" ]; then
        cat "$dir/out"
        echo "FAIL: $mode on $n nodes: exit status $rc, stats file ${dir}/st $( [ -s "$dir/st" ] && echo written || echo missing)"
        fail=1
        return 1
    fi
    return 0
}

# node N METRIC -> value;  total METRIC -> value
nodev() { awk -F'\t' -v n="$1" -v m="$2" '$1 == "node" && $2 == n && $3 == m { print $4; f = 1 } END { if (!f) print "missing" }' "$dir/st"; }
totalv() { awk -F'\t' -v m="$1" '$1 == "total" && $2 == m { print $3; f = 1 } END { if (!f) print "missing" }' "$dir/st"; }
# sum of a per-block metric over a group's blocks (block lines: all nodes)
groupv() {
    set -- $(awk -v g="$1" '$1 == "group" && $2 == g { print $3, $4 }' "$dir/out") "$2"
    awk -F'\t' -v lo="$1" -v cnt="$2" -v m="$3" \
        '$1 == "block" && $3 == m && $2 >= lo && $2 < lo + cnt { s += $4 } END { print s + 0 }' "$dir/st"
}

expect() { # expect WHAT GOT WANT
    if [ "$2" != "$3" ]; then
        echo "FAIL: $label: $1 is $2, expected $3"
        fail=1
    fi
}

scalars=" targetBarrier targetBarrierWall lockAcquires lockWaitWall Polls PollMsgs rtSentMsgs rtRecvMsgs rtSelfMsgs rtMsgBytes transportBufMsgs adaptExclusiveReads adaptFallbacks adaptDowngrades adaptPushes adaptPushedCopies adaptFlushes adaptBulkFetches adaptBulkCopies "

# Checks every stats file must pass.
consistent() {
    head -1 "$dir/st" | grep -Eq "^# dsm-stats/1 nodes=$n block_size=[0-9]+$" ||
        { echo "FAIL: $label: bad header: $(head -1 "$dir/st")"; fail=1; }
    awk -F'\t' -v n="$n" -v scalars="$scalars" '
        /^#/ { next }
        $1 == "total" { total[$2] = $3; metrics[$2] = 1; next }
        $1 == "node" { node[$2, $3] = $4; sumnode[$3] += $4; next }
        $1 == "block" { blk[$3] += $4; next }
        $1 == "nodeblock" { nb[$2, $4] += $5; nbb[$4] += $5
                            if (index(scalars, " " $4 " ")) { print "nodeblock line for per-node metric " $4; bad = 1 }
                            next }
        $1 == "pattern" { next }
        { print "unknown line: " $0; bad = 1 }
        END {
            nm = 0
            for (m in metrics) {
                nm++
                if (sumnode[m] != total[m]) { print m ": sum over nodes " sumnode[m] " != total " total[m]; bad = 1 }
                if (index(scalars, " " m " ")) continue
                if (blk[m] + 0 != total[m]) { print m ": sum of block lines " blk[m] + 0 " != total " total[m]; bad = 1 }
                if (nbb[m] + 0 != total[m]) { print m ": sum of nodeblock lines " nbb[m] + 0 " != total " total[m]; bad = 1 }
                for (i = 0; i < n; i++)
                    if (nb[i, m] + 0 != node[i, m] + 0) {
                        print m ": node " i " sum over blocks " nb[i, m] + 0 " != per-node total " node[i, m] + 0; bad = 1
                    }
            }
            if (nm != 48) { print nm " metrics in the totals, expected 48"; bad = 1 }
            for (i = 0; i < n; i++) {
                w = node[i, "stacheReadMissWall"] + node[i, "homeReadMissWall"] + node[i, "stacheWriteROWall"] + \
                    node[i, "homeWriteROWall"] + node[i, "stacheWriteInvWall"] + node[i, "homeWriteInvWall"]
                if (node[i, "memoryBlockTime"] < w) { print "node " i ": memoryBlockTime < the miss walls"; bad = 1 }
                if (node[i, "pageFaultWall"] < node[i, "memoryBlockTime"]) { print "node " i ": pageFaultWall < memoryBlockTime"; bad = 1 }
            }
            exit bad
        }' "$dir/st" > "$dir/why" || { sed "s/^/FAIL: $label: /" "$dir/why"; fail=1; }
}

for n in 2 4; do
    label="read, $n nodes"
    if run $n read; then
        consistent
        expect "stacheReadMisses at node 1" "$(nodev 1 stacheReadMisses)" 100
        expect "homeReadMisses at node 1" "$(nodev 1 homeReadMisses)" 0
        expect "stacheReadMisses at node 0" "$(nodev 0 stacheReadMisses)" 0
        expect "homeReadMisses at node 0" "$(nodev 0 homeReadMisses)" 0
        expect "pageFaults at node 1" "$(nodev 1 pageFaults)" 100
        expect "stacheReadMisses of group r" "$(groupv r stacheReadMisses)" 100
        expect "RecvMsgs at node 0 (GETS)" "$(nodev 0 RecvMsgs)" 100
        expect "bulkDataTransfers at node 0 (DATA_S)" "$(nodev 0 bulkDataTransfers)" 100
        expect "bulkDataTransfers at node 1" "$(nodev 1 bulkDataTransfers)" 0
        expect "SentMsgs total" "$(totalv SentMsgs)" 200
        expect "total invalidations" "$(totalv invRO)/$(totalv invRW)" 0/0
        [ $n -gt 2 ] && expect "pageFaults at node 2" "$(nodev 2 pageFaults)" 0
        expect "pattern records of group r from home 0" \
            "$(awk -F'\t' '$1 == "pattern" && $2 < 100 && $10 == "home=0" && $11 == "requests=1"' "$dir/st" | wc -l | tr -d ' ')" 100
    fi

    label="homeread, $n nodes"
    if run $n homeread; then
        consistent
        expect "homeReadMisses at node 0" "$(nodev 0 homeReadMisses)" 100
        expect "stacheReadMisses total" "$(totalv stacheReadMisses)" 0
        expect "pageFaults at node 0" "$(nodev 0 pageFaults)" 100
        expect "SelfMsgs at node 0 (GETS + DATA_S to itself)" "$(nodev 0 SelfMsgs)" 200
        expect "SentMsgs total" "$(totalv SentMsgs)" 0
    fi

    label="write, $n nodes"
    if run $n write; then
        consistent
        expect "homeWriteInv at node 0" "$(nodev 0 homeWriteInv)" 100
        expect "homeWriteRO at node 0" "$(nodev 0 homeWriteRO)" 100
        expect "homeReadMisses at node 0" "$(nodev 0 homeReadMisses)" 100
        expect "stacheWriteInv at node 1" "$(nodev 1 stacheWriteInv)" 100
        expect "stacheWriteRO at node 1" "$(nodev 1 stacheWriteRO)" 100
        expect "stacheReadMisses at node 1" "$(nodev 1 stacheReadMisses)" 100
        for m in stacheWriteInv stacheWriteRO homeWriteInv homeWriteRO; do
            expect "$m at the other node" "$(nodev 1 $m)$(nodev 0 $m)" \
                "$(case $m in stache*) echo 1000 ;; *) echo 0100 ;; esac)"
        done
        expect "homeWriteInv of group hi" "$(groupv hi homeWriteInv)" 100
        expect "stacheWriteInv of group si" "$(groupv si stacheWriteInv)" 100
        expect "homeWriteRO of group hr" "$(groupv hr homeWriteRO)" 100
        expect "stacheWriteRO of group sr" "$(groupv sr stacheWriteRO)" 100
        expect "total invalidations" "$(totalv invRO)/$(totalv invRW)" 0/0
    fi

    label="inv, $n nodes"
    if run $n inv; then
        consistent
        i=1
        while [ $i -lt $n ]; do
            expect "invRO at node $i" "$(nodev $i invRO)" 100
            i=$((i + 1))
        done
        expect "invRO at node 0" "$(nodev 0 invRO)" 0
        expect "invRW at node 1" "$(nodev 1 invRW)" 100
        expect "invRW total" "$(totalv invRW)" 100
        expect "invRO of group ro" "$(groupv ro invRO)" $((100 * (n - 1)))
        expect "invRW of group rw" "$(groupv rw invRW)" 100
        expect "Acks at node 0" "$(nodev 0 Acks)" $((100 * (n - 1)))
        expect "homeWriteInv at node 0" "$(nodev 0 homeWriteInv)" 100
        expect "homeReadMisses at node 0" "$(nodev 0 homeReadMisses)" 100
    fi

    label="sync, $n nodes"
    if run $n sync; then
        consistent
        b=$(awk '$1 == "barriers" { print $2 }' "$dir/out")
        l=$(awk '$1 == "locks" { print $2 }' "$dir/out")
        i=0
        while [ $i -lt $n ]; do
            expect "targetBarrier at node $i" "$(nodev $i targetBarrier)" "$b"
            expect "lockAcquires at node $i" "$(nodev $i lockAcquires)" "$l"
            i=$((i + 1))
        done
        expect "pageFaults total" "$(totalv pageFaults)" 0
    fi
done

label="DSM_COUNTERS=off"
if run 2 read DSM_COUNTERS=off; then
    expect "counters line" "$(sed -n 2p "$dir/st" | cut -d' ' -f2)" counters=off
    expect "non-zero totals" "$(awk -F'\t' '$1 == "total" && $3 != 0' "$dir/st" | wc -l | tr -d ' ')" 0
fi

label="bad settings"
out=$(DSM_COUNTERS=maybe "$dsmrun" -n 2 "$prog" read 2>&1)
[ $? -ne 0 ] || { echo "FAIL: $label: DSM_COUNTERS=maybe was accepted"; fail=1; }
echo "$out" | grep -q "DSM_COUNTERS=maybe" || { echo "FAIL: $label: no message naming DSM_COUNTERS: $out"; fail=1; }
out=$(DSM_STATS="$dir/no/such/dir/st" "$dsmrun" -n 2 --timeout 60 "$prog" read 2>&1)
[ $? -ne 0 ] || { echo "FAIL: $label: a DSM_STATS path that cannot be written was accepted"; fail=1; }
echo "$out" | grep -q "DSM_STATS=$dir/no/such/dir/st" || { echo "FAIL: $label: no message naming DSM_STATS: $out"; fail=1; }

[ $fail -eq 0 ] && echo "mn_counts: all counts exact"
exit $fail
