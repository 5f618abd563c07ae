#!/bin/sh
# mn_patterns.sh - the sharing pattern the augmented protocol reports for
# data structures whose sharing is known (tests/mn_patterns.c), on 3, 4 and
# 8 nodes, read from the DSM_STATS file ("pattern BLOCK SHARING ..." lines).
top=${top_builddir:-.}
dsmrun=${DSMRUN:-$top/dsmrun}
prog=$top/tests/mn_patterns
# the matrix's mode axis: mode=block runs the checked twin (tests/block.mk)
[ "${DSM_TEST_MODE:-page}" = block ] && prog=$top/tests/blk_mn_patterns
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
for n in 3 4 8; do
    if ! DSM_STATS=$tmp/stats.$n timeout 150 "$dsmrun" -n $n --timeout 120 \
            "$prog" 20 > "$tmp/out.$n" 2>&1; then
        echo "FAIL: mn_patterns on $n nodes failed:"; cat "$tmp/out.$n"; fail=1; continue
    fi
    grep -q "mn_patterns: values OK" "$tmp/out.$n" || { echo "FAIL: values wrong on $n nodes"; fail=1; }
    grep '^structure ' "$tmp/out.$n" > "$tmp/structs.$n"
    [ -s "$tmp/structs.$n" ] || { echo "FAIL: no structures listed on $n nodes"; fail=1; }
    while read -r _ name expect blocks; do
        for b in $blocks; do
            got=$(awk -v b="$b" '$1 == "pattern" && $2 == b { print $3 }' "$tmp/stats.$n")
            line=$(awk -v b="$b" '$1 == "pattern" && $2 == b' "$tmp/stats.$n")
            if [ "$got" = "$expect" ]; then
                echo "ok   $n nodes: $name block $b: $got ($line)"
            else
                echo "FAIL $n nodes: $name block $b: expected $expect, got '${got:-no pattern line}' ($line)"
                fail=1
            fi
        done
    done < "$tmp/structs.$n"
done
exit $fail
