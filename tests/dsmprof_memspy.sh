#!/bin/sh
# dsmprof_memspy.sh - `dsmprof memspy` on a fixture dsm-sim/1 file
# (tests/data/memspy_sample.json, written by profile/simprof_json.c: a
# blocked matrix multiply whose Y evicts itself, per-processor slots in one
# line falsely shared, 10% time sampling).  Checks the rankings, the causes,
# true/false sharing, causes of replacement with the self-caused share, the
# sampled estimates, --bin and --top, and the errors on bad input and usage.
top=${top_builddir:-.}
src=${srcdir:-.}
prog=$top/dsmprof
data=$src/tests/data/memspy_sample.json
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; fail=1; }
has() { # has WHAT PATTERN: a line of $tmp/out matches the (extended) PATTERN
    if grep -Eq -- "$2" "$tmp/out"; then ok "$1"; else bad "$1: no line matching '$2'"; cat "$tmp/out"; fi
}

"$prog" memspy "$data" > "$tmp/out" 2>&1 || bad "memspy exit $?"
has "header names program, machine, processors" '^MemSpy statistics of fixture \(mm and slots\) on the uniform machine, 4 processors$'
has "overall misses, read/write, upgrades" '^  misses 1557 \(read 1087, write 470\), upgrades 15$'
has "overall causes with true/false sharing" 'causes: cold 23\.6%, replacement 70\.6%, invalidation 5\.1% \(true 10, false 70\), unknown 0\.6%'
# the first row of each ranking is the largest stall
sed -n '/^Procedure-data pairs/{n;n;p;}' "$tmp/out" | grep -Eq '^  block / Y +64\.2% +1010 +1010 +0 +0\.0% +99\.0% +0\.0% +1\.0%$' \
    && ok "pairs ranked: block / Y first" || bad "pairs: block / Y is not first"
sed -n '/^Data bins/{n;n;p;}' "$tmp/out" | grep -Eq '^  Y +71\.9% +1130 ' \
    && ok "bins ranked: Y first" || bad "bins: Y is not first"
sed -n '/^Procedures (/{n;n;p;}' "$tmp/out" | grep -Eq '^  block +70\.6% ' \
    && ok "procedures ranked: block first" || bad "procedures: block is not first"
has "unknown procedure and no-bin row" '^  \(unknown\) / \(no bin\) '
has "false sharing of the slots" '^  free_lists +80 +10 +70 +87\.5%$'
has "Y's replacements: self-caused share" '^  Y: 1000 replacement misses, 95\.0% self-caused$'
has "Y evicted by Y first" '^      evicted by Y +950 +95\.0%$'
has "sampling: samples, length, ratio" '^  10 samples of 10000 cycles every 100000 cycles; sampling ratio 0\.100'
has "sampling: Eq. 6.1 inputs and unknown causes" 'known misses, 0 unknown references, 10 misses of unknown cause$'
has "sampling: full-run estimate" '^  full run estimate: misses 15570 \+- 0, stall 786000 cycles$'
has "sampling: cause shares with bounds" '^  Y +11300 \+- 0 +565000 +cold 11\.06% \+- 0\.44% replacement 88\.94% \+- 0\.44%'

"$prog" memspy "$data" --bin Y > "$tmp/out" 2>&1 || bad "--bin exit $?"
has "--bin: stall and misses share" '^  memory stall 56500 cycles \(71\.9% of all\), misses 1130 \(72\.6% of all\), upgrades 0$'
has "--bin: read/write" '^  read misses 1010 \(89\.4%\), write misses 120 \(10\.6%\)$'
has "--bin: causes" 'causes of misses: cold 120 \(10\.6%\), replacement 1000 \(88\.5%\), invalidation 0 \(0\.0%\), unknown 10 \(0\.9%\)'
has "--bin: procedures touching it" '^      block +stall +50500 +misses +1010 '
has "--bin: causes of replacement" '^  Y: 1000 replacement misses, 95\.0% self-caused$'

"$prog" memspy --top 1 "$data" > "$tmp/out" 2>&1 || bad "--top exit $?"
n=$(sed -n '/^Data bins/,/^$/p' "$tmp/out" | grep -c '^  [^ ]')
[ "$n" -eq 2 ] && ok "--top 1: one row (and the header)" || bad "--top 1 gave $n lines"

"$prog" --help | grep -q 'dsmprof memspy FILE' && ok "dsmprof --help lists memspy" || bad "dsmprof --help does not list memspy"

expect() { # expect STATUS WHAT PATTERN CMD...: that exit status and one stderr line matching PATTERN
    want=$1 what=$2 pat=$3; shift 3
    "$@" > /dev/null 2> "$tmp/err"; rc=$?
    if [ $rc -eq "$want" ] && grep -q -- "$pat" "$tmp/err"; then
        ok "$what: exit $rc, $(head -1 "$tmp/err")"
    else
        bad "$what: exit $rc (want $want), stderr:"; cat "$tmp/err"
    fi
}
echo '{"schema": "dsm-profile/1", "structures": []}' > "$tmp/other.json"
echo 'not json' > "$tmp/bad.json"
expect 2 "missing file" "$tmp/none.json: No such file" "$prog" memspy "$tmp/none.json"
expect 2 "not JSON" "bad.json: not valid JSON" "$prog" memspy "$tmp/bad.json"
expect 2 "other schema" 'schema is "dsm-profile/1", expected "dsm-sim/1"' "$prog" memspy "$tmp/other.json"
expect 2 "unknown bin" "no bin named 'W'" "$prog" memspy "$data" --bin W
expect 1 "no file" "no file given" "$prog" memspy
expect 1 "two files" "one file only" "$prog" memspy "$data" "$data"
expect 1 "bad --top" "--top 'x': expected a number" "$prog" memspy "$data" --top x
expect 1 "unknown option" "Usage: dsmprof memspy" "$prog" memspy "$data" --frobnicate
exit $fail
