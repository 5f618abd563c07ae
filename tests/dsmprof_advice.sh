#!/bin/sh
# dsmprof_advice.sh - the `dsmprof advice` and `dsmprof html` command lines
# (profile/dsmprof_cmds.c, through dsmprof): thresholds from
# options and DSM_ADVICE_* (options win), --first, and one-line errors with
# exit status 2 on bad input, 1 on bad usage (as dsmprof's other commands).  The advisor's findings themselves are checked
# by tests/advice_unit.
top=${top_builddir:-.}
src=${srcdir:-.}
prog=$top/dsmprof
data=$src/tests/data/advice_sample.json
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; fail=1; }

"$prog" advice "$data" > "$tmp/out" 2>&1 || bad "advice exit $?"
grep -q '^thresholds: memory-blocking 10%' "$tmp/out" && grep -q '^2. FalseSharing (structure part)' "$tmp/out" \
    && ok "advice: thresholds and findings printed" || { bad "advice output:"; cat "$tmp/out"; }
"$prog" advice "$data" --threshold-false-sharing=70 --threshold-imbalance 30 > "$tmp/out" 2>&1
grep -q FalseSharing "$tmp/out" || grep -q LoadImbalance "$tmp/out" \
    && bad "--threshold-false-sharing=70 / --threshold-imbalance 30 not applied" \
    || ok "threshold options applied (both spellings)"
grep -q 'false-sharing 70%' "$tmp/out" && ok "changed threshold printed" || bad "changed threshold not printed"
DSM_ADVICE_IMBALANCE=30 "$prog" advice "$data" > "$tmp/out" 2>&1
grep -q LoadImbalance "$tmp/out" && bad "DSM_ADVICE_IMBALANCE=30 not applied" || ok "DSM_ADVICE_IMBALANCE applied"
DSM_ADVICE_IMBALANCE=30 "$prog" advice "$data" --threshold-imbalance=5 > "$tmp/out" 2>&1
grep -q LoadImbalance "$tmp/out" && ok "option wins over the variable" || bad "option did not win over DSM_ADVICE_IMBALANCE"
line=$("$prog" advice "$data" --first)
case $line in
    "FalseSharing (structure part): "*"pad each 24-byte element"*) ok "--first: $line" ;;
    *) bad "--first gave: $line" ;;
esac

expect() { # expect STATUS WHAT PATTERN CMD...: that exit status and a line on stderr matching PATTERN
    want=$1 what=$2 pat=$3; shift 3
    "$@" > /dev/null 2> "$tmp/err"; rc=$?
    if [ $rc -eq "$want" ] && [ "$(wc -l < "$tmp/err")" -ge 1 ] && grep -q "$pat" "$tmp/err"; then
        ok "$what: exit $rc, $(head -1 "$tmp/err")"
    else
        bad "$what: exit $rc, stderr:"; cat "$tmp/err"
    fi
}
echo '{"schema": "dsm-stats/1", "nodes": 2}' > "$tmp/other.json"
echo '{"schema": "dsm-profile/2", "nodes": 2, "wall_seconds": 1' > "$tmp/trunc.json"
echo '{"schema": "dsm-profile/2", "wall_seconds": 1, "structures": []}' > "$tmp/nonodes.json"
echo '{"schema": "dsm-profile/1", "nodes": 2, "wall_seconds": 1, "structures": []}' > "$tmp/old.json"
for cmd in advice html report; do
    expect 2 "$cmd, a profile of the older version" \
        'schema is "dsm-profile/1", expected "dsm-profile/2": a DSM profile of another version, which this dsmprof does not read' \
        "$prog" $cmd "$tmp/old.json"
done
for cmd in advice html; do
    expect 2 "$cmd, missing file" "nosuch.json" "$prog" $cmd "$tmp/nosuch.json"
    expect 2 "$cmd, other schema" 'schema is "dsm-stats/1", expected "dsm-profile/2"' "$prog" $cmd "$tmp/other.json"
    expect 2 "$cmd, truncated JSON" "trunc.json" "$prog" $cmd "$tmp/trunc.json"
    expect 2 "$cmd, no nodes" 'nonodes.json: nodes: missing' "$prog" $cmd "$tmp/nonodes.json"
    expect 1 "$cmd, bad threshold" "not a percentage" "$prog" $cmd "$data" --threshold-refine=abc
    expect 1 "$cmd, unknown threshold" "unknown threshold" "$prog" $cmd "$data" --threshold-cpu=3
    expect 1 "$cmd, bad variable" "DSM_ADVICE_REFINE=x" env DSM_ADVICE_REFINE=x "$prog" $cmd "$data"
    expect 1 "$cmd, no file" "Usage: dsmprof $cmd FILE" "$prog" $cmd
done
"$prog" html "$data" -o "$tmp/p.html" && grep -q '<svg id="chart-structures"' "$tmp/p.html" \
    && ok "html -o writes the page" || bad "html -o"
"$prog" html "$data" | grep -q '</html>' && ok "html without -o writes to stdout" || bad "html to stdout"
exit $fail
