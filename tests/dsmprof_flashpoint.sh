#!/bin/sh
# dsmprof_flashpoint.sh - `dsmprof flashpoint RUN CONTROL` on fixtures
# (tests/data/fp_run.json, fp_far.json: FP-NoProc runs of "fft"; fp_control.json:
# its control run): the three tables with their numbers, --check passing
# (exit 0) and failing (exit 3), and a clear error with exit status 1 (usage)
# or 2 (bad input) for a swapped pair, mismatched runs, a missing file, a
# file that is not JSON and a file without a flashpoint section.
top=${top_builddir:-.}
src=${srcdir:-.}
dsmprof=$top/dsmprof
data=$src/tests/data
[ -x "$dsmprof" ] || { echo "dsmprof_flashpoint.sh: $dsmprof is not built" >&2; exit 99; }
dir=$(mktemp -d "${TMPDIR:-/tmp}/dsmprof_fp.XXXXXX") || exit 99
trap 'rm -rf "$dir"' EXIT
fail=0

# expect STATUS PATTERN ARGS...: exit status and a line of stdout+stderr
expect() {
    want=$1 pattern=$2
    shift 2
    "$dsmprof" flashpoint "$@" >"$dir/out" 2>&1
    rc=$?
    if [ "$rc" -ne "$want" ]; then
        echo "FAIL: dsmprof flashpoint $*: exit $rc, expected $want"; cat "$dir/out"; fail=1
    elif ! grep -Eq -- "$pattern" "$dir/out"; then
        echo "FAIL: dsmprof flashpoint $*: no line matching /$pattern/"; cat "$dir/out"; fail=1
    else
        echo "ok: dsmprof flashpoint $* -> $rc, /$pattern/"
    fi
}

run=$data/fp_run.json control=$data/fp_control.json far=$data/fp_far.json
# Table 1: 16030 read misses against 16000 (+0.2%); per-bin shares
expect 0 'Read misses total +16000 +16030 +0\.2%' "$run" "$control"
expect 0 'trans +12700 +48\.8% +12770 +49\.1% +\+0\.2' "$run" "$control"
# Table 2: parallel time 5% slower, read latency 118.6 -> 127.2
expect 0 'Parallel section time +1000000 +1050000 +5\.0%' "$run" "$control"
expect 0 'Read latency average +118\.6 +127\.2' "$run" "$control"
# Table 3: the top bin by control misses is x; trans's invalidation share
expect 0 'Rank 1 data bin: x' "$run" "$control"
expect 0 'Invalidation Misses +59\.0% +59\.1%' "$run" "$control"
expect 0 'Rank 2 data bin' "$run" "$control" --top 2
if grep -q 'Rank 3' "$dir/out"; then echo "FAIL: --top 2 shows a third bin"; fail=1; fi
# --check
expect 0 'CHECK PASSED' "$run" "$control" --check=3,7,10
expect 3 'CHECK FAILED: all misses 28680 against 26000' "$far" "$control" --check=3,7,10
expect 3 'CHECK FAILED: bin trans.s share of read_miss_local differs by \+16\.2' "$far" "$control" --check=3,7,10
expect 3 'CHECK FAILED: parallel time' "$far" "$control" --check=3,7,10
expect 0 'CHECK PASSED' "$far" "$control" --check=30,20,25
# the paper's relative 7% on the shares of the top bins (Table 3)
expect 0 'CHECK PASSED: top 2 bins. shares within 7\.0% relative' "$run" "$control" --check=3,7,10,7 --top 2
expect 3 'CHECK FAILED: bin trans.s share of read_miss_local is 64\.5% against 48\.3% in the control: \+33\.5% relative' "$far" "$control" --check=30,20,25,7 --top 2
# Table 2 in 10 ns system cycles needs the runs' cpu_ratio
sed 's/"latency_unit": "processor cycles",/&"cpu_ratio": 2,/' "$run" >"$dir/run2.json"
sed 's/"latency_unit": "processor cycles",/&"cpu_ratio": 2,/' "$control" >"$dir/ctl2.json"
expect 0 'Read latency average +59\.3 +63\.6' "$dir/run2.json" "$dir/ctl2.json" --system-cycles
expect 2 'system-cycles: the files do not give one cpu_ratio' "$run" "$control" --system-cycles
# errors
expect 2 'fp_mode is noproc; the control run must be' "$control" "$run"
sed 's/"processors": 4/"processors": 8/g' "$control" >"$dir/p8.json"
expect 2 'ran on 4 processors but .* on 8' "$run" "$dir/p8.json"
sed 's/"program": "fft"/"program": "lu"/' "$control" >"$dir/lu.json"
expect 2 "run of 'fft' but .* of 'lu'" "$run" "$dir/lu.json"
expect 2 'nothere.json: No such file or directory' "$run" "$dir/nothere.json"
echo 'not json {' >"$dir/bad.json"
expect 2 'bad.json: not valid JSON' "$run" "$dir/bad.json"
echo '{"schema": "dsm-sim/1", "program": "fft"}' >"$dir/nofp.json"
expect 2 'no "flashpoint" section' "$run" "$dir/nofp.json"
sed 's/"flashpoint\/1"/"flashpoint\/9"/' "$control" >"$dir/v9.json"
expect 2 'flashpoint.schema is "flashpoint/9", expected "flashpoint/1"' "$run" "$dir/v9.json"
expect 1 'expected two files' "$run"
expect 1 'check=1,2: expected MISS_PCT' "$run" "$control" --check=1,2
expect 1 'check=1,2,3,-4: expected MISS_PCT' "$run" "$control" --check=1,2,3,-4
expect 1 "--top '0': expected a number from 1 to 1000000" "$run" "$control" --top=0
exit $fail
