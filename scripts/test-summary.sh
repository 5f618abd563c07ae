#!/bin/sh
# test-summary.sh - the closing line of a test run, from automake's harness.
#   ./scripts/test-summary.sh [BUILDDIR [MAKE_STATUS]]
# Reads BUILDDIR/test-suite.log (the counts and the failing tests the
# harness wrote for this run: make check, make check-quick, or a run of
# chosen TESTS); without it, the :test-result: lines of the *.trs files
# under BUILDDIR (tests/*.trs, the matrix's tests/matrix/*.trs).
# Counts: passed = PASS; failed = FAIL + XPASS + ERROR; SKIP and XFAIL are
# shown apart when there are any.  Names the failing tests, then prints
#     N passed, N failed[, N skipped][, N expected failures]
# as the last line and exits 1 if anything failed, else 0.  A non-zero
# MAKE_STATUS with no failing test counted is one failure (the harness or
# the build broke).
set -u

dir=${1:-.}
make_rc=${2:-0}
log="$dir/test-suite.log"

count_log() {   # value of "# NAME: N" in the header of test-suite.log
    sed -n "s/^# $1: *\([0-9][0-9]*\) *\$/\1/p" "$log" | head -n 1
}

pass=0 fail=0 skip=0 xfail=0 xpass=0 error=0
trs_list=$(find "$dir" -name .git -prune -o -name '*.trs' -type f -print 2>/dev/null | sort)
if [ -f "$log" ]; then
    pass=$(count_log PASS); fail=$(count_log FAIL); skip=$(count_log SKIP)
    xfail=$(count_log XFAIL); xpass=$(count_log XPASS); error=$(count_log ERROR)
elif [ -n "$trs_list" ]; then
    # shellcheck disable=SC2086
    results=$(cat $trs_list | sed -n 's/^:test-result: *\([A-Z]*\).*/\1/p')
    for r in $results; do
        case $r in
            PASS) pass=$((pass + 1)) ;;
            FAIL) fail=$((fail + 1)) ;;
            SKIP) skip=$((skip + 1)) ;;
            XFAIL) xfail=$((xfail + 1)) ;;
            XPASS) xpass=$((xpass + 1)) ;;
            ERROR) error=$((error + 1)) ;;
        esac
    done
fi
passed=${pass:-0}
failed=$(( ${fail:-0} + ${xpass:-0} + ${error:-0} ))
skip=${skip:-0}
xfail=${xfail:-0}

if [ -f "$log" ]; then
    # the harness's sections: "FAIL: tests/matrix/counter.mpi" underlined
    # with "=" (a log copied below may hold "FAIL: ..." lines of its own)
    awk 'prev ~ /^(FAIL|XPASS|ERROR): / && $0 ~ /^=+$/ && length($0) == length(prev) {
             split(prev, w, ": "); print prev " (log: " w[2] ".log)" }
         { prev = $0 }' "$log"
else
    for trs in $trs_list; do
        r=$(sed -n -E 's/^:test-result: *(FAIL|XPASS|ERROR).*/\1/p' "$trs" | head -n 1)
        t=${trs#./}
        [ -n "$r" ] && echo "$r: ${t%.trs} (log: ${t%.trs}.log)"
    done
fi

if [ ! -f "$log" ] && [ -z "$trs_list" ]; then
    if [ "$make_rc" -ne 0 ]; then
        echo "note: no test ran: make check failed before the harness started (did a test program not build?)"
    else
        echo "note: no test results found in $dir"
    fi
fi
if [ "$make_rc" -ne 0 ] && [ "$failed" -eq 0 ]; then
    echo "note: make exited with status $make_rc although no test failed: counted as one failure"
    failed=1
fi

line="$passed passed, $failed failed"
[ "$skip" -gt 0 ] && line="$line, $skip skipped"
[ "$xfail" -gt 0 ] && line="$line, $xfail expected failures"
echo "$line"
[ "$failed" -eq 0 ]
