#!/bin/sh
# quickstep_paper.sh - QuickStep's validation (QuickStep, Chapter 4 and
# section 2.4) on the simulated Alewife, through dsmrun --machine=alewife
# --quickstep=doc/quickstep/alewife.qs and dsmprof quickstep, with
# tests/qs_bench (Appendix A's programs):
#   bench1 40 10000, 16 processors   cached read ratio 60.5% +- 0.5 on every
#                                    processor (Table 4.1; 59.9 allowed: a
#                                    start-up read of private memory)
#   bench5 40 10000, 16 processors   4000 remote accesses on every processor
#                                    but 0, none cached; RREQ and RDATA
#                                    histograms: each processor's 4000 at its
#                                    hop distance from node 0, in all
#                                    8000/12000/16000/12000/8000/4000 at 1-6
#                                    hops (Figs. 4.2, 4.3); on 64 nodes
#                                    (bench5 40 100) the 8 x 8 mesh's
#                                    distances 1-14
#   bench11 10 1000, 8 processors    timesliced remote accesses: none in the
#                                    first two slices (start, first local
#                                    loop), then the first remote loop, a
#                                    slice without any (the second local
#                                    loop), then the second remote loop, 100
#                                    each (Fig. 4.4), and the HTML page maps
#                                    them (dsmprof quickstep --html)
#   proc1 10 200, 16 processors      Checkgr2:Check2 = 10 pid, Checkgr2 =
#                                    10 pid + 2, Checkgr3 = {1, 200 - 10 pid,
#                                    1} (Tables 2.1, 2.2)
# and: two runs of the allocator (8 events) are merged, repeatable byte for
# byte; a bad configuration file and a bad raw file are refused naming file
# and line; dsm_checkpoint refuses an id out of range.
top=${top_builddir:-.}
srcdir=${srcdir:-.}
dsmrun=$top/dsmrun
dsmprof=$top/dsmprof
bench=$top/tests/qs_bench
config=$srcdir/doc/quickstep/alewife.qs
for f in "$dsmrun" "$dsmprof" "$bench"; do
    [ -x "$f" ] || { echo "quickstep_paper.sh: $f is not built" >&2; exit 99; }
done
to=${TIMEOUT:-timeout}
command -v "$to" >/dev/null 2>&1 || to=
dir=$(mktemp -d "${TMPDIR:-/tmp}/quickstep_paper.XXXXXX") || exit 99
trap 'rm -rf "$dir"' EXIT
export DSM_PROFILE=off DSM_SIM_PROFILE=off
status=0
fail() { echo "FAIL: $*"; status=1; }

qs() { # PROCS STATS OUT PROGRAM ARGS... [with $slice]
    procs=$1 stats=$2 out=$3
    shift 3
    if ! ${to:+$to -k 5 120} "$dsmrun" --machine=alewife -n "$procs" \
        --quickstep="$config:$stats" --quickstep-out="$out" ${slice:+--timeslice=$slice} \
        "$bench" "$@" >"$dir/log" 2>&1; then
        cat "$dir/log"
        fail "dsmrun --quickstep=$stats $*"
        return 1
    fi
}

# The rows of record NAME in a raw file: "VALUES... INDEX TIMESTAMP".
rows() { # RAW NAME
    awk -v name="$2" '
        /^(Cnt|Hist)Record "/ { inrec = (index($0, "\"" name "\"") > 0); hdr = 1; next }
        /^EndRecord/ { inrec = 0; next }
        inrec && hdr { hdr = 0; next }
        inrec { print }' "$1"
}

# --- bench1: Table 4.1 --------------------------------------------------------
qs 16 Cache_Statistics.Cached_Read_Ratio "$dir/b1.raw" bench1 40 10000 && {
    # the loop's 10000 reads, 6000 of them cached, plus a few start-up reads
    # of private memory (argv; the paper's bench1 clears the counters right
    # before its loop, A.2's clear_counters, which a simulated run cannot)
    n=$(rows "$dir/b1.raw" Cache_Statistics.Cached_Read_Ratio |
        awk '$1 >= 6000 && $1 <= 6010 && $2 >= 10000 && $2 <= 10010 && $3 >= 59.9 && $3 <= 61.0 { n++ } END { print n + 0 }')
    [ "$n" = 16 ] || { rows "$dir/b1.raw" Cache_Statistics.Cached_Read_Ratio;
                       fail "bench1: cached read ratio in 60.5 +- 0.5 on $n of 16 processors"; }
    echo "bench1: cached read ratio on processor 0: $(rows "$dir/b1.raw" \
        Cache_Statistics.Cached_Read_Ratio | awk '$4 == 0 { print $3 }')% (paper 60.73)"
}

# --- bench5: remote accesses, Figs. 4.2 and 4.3 -------------------------------
qs 16 Cache_Statistics.Cached_Remote_Global_Data_Accesses,Network.RREQ_Distances,Network.RDATA_Distances \
    "$dir/b5.raw" bench5 40 10000 && {
    bad=$(rows "$dir/b5.raw" Cache_Statistics.Cached_Remote_Global_Data_Accesses |
        awk '$1 != 0 || ($4 == 0 && $2 != 0) || ($4 != 0 && $2 != 4000) { print $4 }')
    [ -z "$bad" ] || fail "bench5: remote accesses not 4000 (0 cached) on processors $bad"
    # hops from node 0 as section 4.2.2 lists them
    for rec in Network.RREQ_Distances Network.RDATA_Distances; do
        bad=$(rows "$dir/b5.raw" $rec | awk '
            BEGIN { split("0 1 1 2 2 3 3 4 2 3 3 4 4 5 5 6", h, " ") }
            { p = $17; want = p ? h[p + 1] : -1
              for (b = 0; b < 16; b++) if ($(b + 1) != (b == want ? 4000 : 0)) { print p; next } }')
        [ -z "$bad" ] || fail "bench5: $rec: processors $bad not 4000 packets at their distance"
        all=$("$dsmprof" quickstep --stat=$rec "$dir/b5.raw" | awk '$1 == "All" { print $3, $4, $5, $6, $7, $8 }')
        [ "$all" = "8000 12000 16000 12000 8000 4000" ] ||
            fail "bench5: $rec by hops 1-6: $all, not 8000 12000 16000 12000 8000 4000"
        echo "bench5: $rec at 1-6 hops: $all"
    done
}

# the 64-node mesh (Fig. 4.1's extension): RDATA from node 0 to the 63 others
# of an 8 x 8 mesh, 40 each, by hops 1-14
qs 64 Network.RDATA_Distances "$dir/b64.raw" bench5 40 100 && {
    all=$("$dsmprof" quickstep "$dir/b64.raw" | awk '$1 == "All" { $1 = $2 = $NF = ""; print }' | tr -s ' ' | sed 's/^ //; s/ $//')
    [ "$all" = "80 120 160 200 240 280 320 280 240 200 160 120 80 40" ] ||
        fail "bench5 on 64 nodes: RDATA by hops 1-14: $all"
}

# --- bench11: timeslices, Fig. 4.4 -------------------------------------------
# The slice is half the first local loop (900 stores of 3 cycles: the store
# and its instructions, hit_cycles), so that
# loop fills a whole slice whatever the start-up takes.
slice=1350 qs 8 Cache_Statistics.Cached_Remote_Global_Data_Accesses "$dir/b11.raw" bench11 10 1000 && {
    shape=$(rows "$dir/b11.raw" Cache_Statistics.Cached_Remote_Global_Data_Accesses | awk '
        { v[$4, $5] = $2; if ($5 + 1 > ns) ns = $5 + 1; if ($4 + 1 > np) np = $4 + 1 }
        END {
            for (p = 0; p < np; p++) {
                # runs of slices with and without remote accesses
                s = ""; last = -1; first = -1; sum = 0; sums = ""
                for (k = 0; k < ns; k++) {
                    on = v[p, k] > 0
                    if (on && first < 0) first = k
                    if (on != last) { s = s on; if (last == 1) { sums = sums sum " "; sum = 0 } }
                    sum += v[p, k]; last = on
                }
                if (last == 1) sums = sums sum
                print p, first, s, sums
            } }')
    echo "$shape" | awk '$1 == 0 && $3 != "0" { exit 1 }' || fail "bench11: remote accesses on node 0"
    # (a last slice without remote accesses is the shutdown's private work)
    bad=$(echo "$shape" | awk '$1 != 0 && !($2 == 2 && ($3 == "0101" || $3 == "01010") && $4 == 100 && $5 == 100) { print $1 }')
    [ -z "$bad" ] || { echo "$shape"; fail "bench11: processors $bad: remote accesses not in slices 3.., a gap, then 100 more"; }
    "$dsmprof" quickstep --html="$dir/b11.html" "$dir/b11.raw" >/dev/null &&
        grep -q '<svg' "$dir/b11.html" && grep -q 'processor 7, timeslice 2: [1-9]' "$dir/b11.html" &&
        grep -q 'processor 0, timeslice 2: 0<' "$dir/b11.html" ||
        fail "bench11: the HTML page has no processor x timeslice map of the remote accesses"
    echo "bench11: processor 7: first remote slice $(echo "$shape" | awk '$1 == 7 { print $2 + 1 }') (paper 3), runs none/remote/none/remote (paper 3, 5-6)"
}
slice=

# --- Proc1's checkpoints: Tables 2.1, 2.2 -----------------------------------------
qs 16 Checkpoints.Checkgr2,Checkpoints.Checkgr2:Check2,Checkpoints.Checkgr3 "$dir/c.raw" proc1 10 200 && {
    bad=$(rows "$dir/c.raw" Checkpoints.Checkgr2 | awk '$1 != 10 * $2 + 2 { print $2 }')
    [ -z "$bad" ] || fail "Checkgr2 is not 10 pid + 2 on processors $bad"
    bad=$(rows "$dir/c.raw" Checkpoints.Checkgr2:Check2 | awk '$1 != 10 * $2 { print $2 }')
    [ -z "$bad" ] || fail "Checkgr2:Check2 is not 10 pid on processors $bad"
    bad=$(rows "$dir/c.raw" Checkpoints.Checkgr3 | awk '$1 != 1 || $2 != 200 - 10 * $17 || $3 != 1 { print $17 }')
    [ -z "$bad" ] || fail "Checkgr3 is not 1, 200 - 10 pid, 1 on processors $bad"
    n=$(rows "$dir/c.raw" Checkpoints.Checkgr3 | wc -l)
    [ "$n" -eq 16 ] || fail "Checkgr3: $n rows, not 16"
}

# timesliced: every slice's histogram summed is the overall one
slice=100 qs 16 Checkpoints.Checkgr3 "$dir/cs.raw" proc1 10 200 && {
    bad=$(rows "$dir/cs.raw" Checkpoints.Checkgr3 | awk '
        { a[$17] += $1; b[$17] += $2; c[$17] += $3; if ($18 > ns) ns = $18 }
        END { if (ns < 2) print "one slice"
              for (p = 0; p < 16; p++) if (a[p] != 1 || b[p] != 200 - 10 * p || c[p] != 1) print p }')
    [ -z "$bad" ] || fail "Checkgr3 timesliced: processors $bad"
}
slice=

# --- the allocator: 8 events, 2 runs, repeatable -----------------------------------
qs 4 Cache_Statistics "$dir/g1.raw" bench1 40 1000 && qs 4 Cache_Statistics "$dir/g2.raw" bench1 40 1000 && {
    grep -q '4 statistics in 2 runs' "$dir/log" || { cat "$dir/log"; fail "Cache_Statistics: not 2 runs"; }
    cmp -s "$dir/g1.raw" "$dir/g2.raw" || fail "two runs of the same program differ"
    n=$(grep -c '^CntRecord' "$dir/g1.raw")
    [ "$n" = 4 ] || fail "Cache_Statistics: $n records, not 4"
    grep -q '^CntRecord ".*Remote_Global.*" run 2$' "$dir/g1.raw" || fail "remote-global not in run 2"
}

# --- errors --------------------------------------------------------------------------
printf 'Name "x"\nCounterMasks #x201EFF20\nCounterOperation Value 0\nHeaderStrings "a"\nBogus 1\nEndRecord\nEndOfFile\n' >"$dir/bad.qs"
"$dsmrun" --machine=alewife -n 2 --quickstep="$dir/bad.qs" "$bench" bench1 40 10 >"$dir/out" 2>&1
rc=$?
[ $rc -eq 2 ] && grep -q "bad.qs:5: unknown keyword 'Bogus'" "$dir/out" ||
    { cat "$dir/out"; fail "a bad configuration file: status $rc"; }
"$dsmrun" --machine=flash -n 2 --quickstep="$config" "$bench" bench1 40 10 >"$dir/out" 2>&1
[ $? -eq 2 ] && grep -q "needs --machine=alewife" "$dir/out" || { cat "$dir/out"; fail "--quickstep on flash"; }
"$dsmrun" --machine=alewife,hop=x -n 2 --quickstep="$config" "$bench" bench1 40 10 >"$dir/out" 2>&1
[ $? -eq 2 ] && grep -q "option 'hop=x'" "$dir/out" && ! grep -q "quickstep run" "$dir/out" ||
    { cat "$dir/out"; fail "--quickstep with a bad machine option"; }
"$dsmrun" --machine=alewife -n 65 --quickstep="$config" "$bench" bench1 40 10 >"$dir/out" 2>&1
[ $? -eq 2 ] && grep -q "1 .. 64" "$dir/out" || { cat "$dir/out"; fail "--quickstep on 65 nodes"; }
printf 'Name "x"\nCounterMasks #x10000020\nCounterOperation Value 0\nHeaderStrings "a"\nTimeFlag 0\nEndRecord\nEndOfFile\n' >"$dir/flag0.qs"
"$dsmrun" --machine=alewife -n 2 --quickstep="$dir/flag0.qs" --timeslice=1000 \
    "$bench" proc1 10 200 >"$dir/out" 2>&1
[ $? -eq 2 ] && grep -q "TimeFlag 0" "$dir/out" || { cat "$dir/out"; fail "--timeslice with a TimeFlag 0 statistic"; }
printf 'CntRecord "x" run 1\n"a" Index Timestamp\n1 0 0\n2 1\nEndRecord\n' >"$dir/bad.raw"
"$dsmprof" quickstep "$dir/bad.raw" >"$dir/out" 2>&1
rc=$?
[ $rc -eq 2 ] && grep -q "bad.raw:4:" "$dir/out" || { cat "$dir/out"; fail "a bad raw file: status $rc"; }
"$dsmrun" --machine=alewife -n 2 "$bench" checkpoint 4096 0 >"$dir/out" 2>&1
rc=$?
[ $rc -ne 0 ] && grep -q "dsm_checkpoint: checkpoint 4096 is out of range 0 .. 4095" "$dir/out" ||
    { cat "$dir/out"; fail "dsm_checkpoint(4096) simulated: status $rc"; }
"$dsmrun" -n 2 "$bench" checkpoint -1 0 >"$dir/out" 2>&1
rc=$?
[ $rc -ne 0 ] && grep -q "dsm_checkpoint: checkpoint -1 is out of range" "$dir/out" ||
    { cat "$dir/out"; fail "dsm_checkpoint(-1) on the DSM: status $rc"; }
"$dsmrun" -n 2 "$bench" proc1 10 200 >"$dir/out" 2>&1 || { cat "$dir/out"; fail "checkpoints on the DSM"; }
exit $status
