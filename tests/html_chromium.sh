#!/bin/sh
# html_chromium.sh - `dsmprof html` in a real browser: headless Chromium
# loads pages rendered from (1) the profile of a real run (jacobi on 4
# nodes: its timeslices and group ids draw the timeline and the group marks)
# and (2) tests/data/html_timeslices.json (a hand-made sample with both),
# and checks in the
# DOM after scripts ran that every chart is there (by id), that the block
# map's script marked a selection, and that nothing is fetched from the
# network; then saves screenshots (tests/html_chromium*.png, kept for a look)
# and checks they are not blank.  Skips (77) when chromium is not installed.
top=${top_builddir:-.}
src=${srcdir:-.}
dsmrun=${DSMRUN:-$top/dsmrun}
chromium=${CHROMIUM:-/usr/bin/chromium}
[ -x "$chromium" ] || chromium=$(command -v chromium 2>/dev/null)
if [ -z "$chromium" ] || [ ! -x "$chromium" ]; then
    echo "SKIP: chromium is not installed (Debian package chromium)"
    exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
render=$top/dsmprof

browse() { # browse OUT-FLAG... URL: one headless Chromium, its own profile dir
    timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --user-data-dir="$(mktemp -d "$tmp/chr.XXXXXX")" "$@" 2> "$tmp/chromium.err"
}

check_page() { # check_page NAME PROFILE
    name=$1 prof=$2
    if ! "$render" html "$prof" -o "$tmp/$name.html" 2> "$tmp/$name.err"; then
        echo "FAIL $name: dsmprof html failed:"; cat "$tmp/$name.err"; fail=1; return
    fi
    # self-contained: no src/href pointing anywhere but into the page
    if grep -Eq '(src|href)="(https?:)?//' "$tmp/$name.html" || grep -Eqi '<(link|img|iframe)[ >]' "$tmp/$name.html"; then
        echo "FAIL $name: the page refers to an outside resource"; fail=1
    else
        echo "ok   $name: self-contained ($(wc -c < "$tmp/$name.html") bytes)"
    fi
    url="file://$(cd "$tmp" && pwd)/$name.html"
    if ! browse --dump-dom "$url" > "$tmp/$name.dom"; then
        echo "FAIL $name: chromium --dump-dom failed:"; tail -5 "$tmp/chromium.err"; fail=1; return
    fi
    for id in advice chart-structures chart-nodes chart-structure-nodes chart-procedures blockmap timeline; do
        if grep -q "id=\"$id\"" "$tmp/$name.dom"; then
            echo "ok   $name: #$id in the DOM"
        else
            echo "FAIL $name: no element #$id in the DOM"; fail=1
        fi
    done
    nrect=$(grep -o '<rect class="b"' "$tmp/$name.dom" | wc -l)
    nmark=$(grep -o 'class="mark"' "$tmp/$name.dom" | wc -l)
    if [ "$nrect" -gt 0 ] && [ "$nmark" -gt 0 ]; then
        echo "ok   $name: block map of $nrect blocks, script selected the hottest ($nmark marked)"
    else
        echo "FAIL $name: block map blocks $nrect, marks $nmark (did the script run?)"; fail=1
    fi
    # the sample has known findings; a real run may have none, but then says so
    if grep -q '<div class="finding' "$tmp/$name.dom" || { [ "$name" = run ] && grep -q 'No hypothesis holds' "$tmp/$name.dom"; }; then
        echo "ok   $name: advice section filled"
    else
        echo "FAIL $name: no advice in the page"; fail=1
    fi
    png=$top/tests/html_chromium_$name.png
    rm -f "$png"
    if ! browse --screenshot="$png" --window-size=1200,1600 "$url" > /dev/null; then
        echo "FAIL $name: chromium --screenshot failed:"; tail -5 "$tmp/chromium.err"; fail=1; return
    fi
    size=$(wc -c < "$png" 2>/dev/null || echo 0)
    # a blank 1200x1600 page compresses to a few kilobytes; charts and text do not
    if [ "$size" -gt 30000 ]; then
        echo "ok   $name: screenshot $png ($size bytes)"
    else
        echo "FAIL $name: screenshot $png is $size bytes"; fail=1
    fi
}

# (1) a real run
if DSM_PROFILE=$tmp/run.json timeout 150 "$dsmrun" -n 4 --timeout 120 "$top/apps/jacobi" 256 20 \
        > "$tmp/run.out" 2>&1 && [ -s "$tmp/run.json" ]; then
    check_page run "$tmp/run.json"
    # the runtime's own timeslices and group ids drive the timeline and the marks
    grep -q '<polyline' "$tmp/run.dom" && grep -q 'Counts per interval of 100 ms' "$tmp/run.dom" \
        && echo "ok   run: timeline drawn from the profile's timeslices" \
        || { echo "FAIL run: no timeline from the run's timeslices"; fail=1; }
    grep -q 'data-g=' "$tmp/run.dom" && grep -q 'of group' "$tmp/run.dom" \
        && echo "ok   run: group ids drive the block map's marks" \
        || { echo "FAIL run: group ids not used by the block map"; fail=1; }
else
    echo "FAIL run: jacobi on 4 nodes wrote no profile:"; cat "$tmp/run.out"; fail=1
fi
# (2) timeslices and group ids
check_page sample "$src/tests/data/html_timeslices.json"
grep -q 'data-g=' "$tmp/sample.dom" && grep -q 'of group' "$tmp/sample.dom" \
    && echo "ok   sample: group ids drive the marking" \
    || { echo "FAIL sample: group ids not used by the block map"; fail=1; }
grep -q '<polyline' "$tmp/sample.dom" && echo "ok   sample: timeslice timeline drawn" \
    || { echo "FAIL sample: no timeline lines from the timeslices"; fail=1; }
exit $fail
