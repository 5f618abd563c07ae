#!/bin/sh
# fuzz_records.sh - build the libFuzzer target tests/fuzz_records.c (clang,
# -fsanitize=fuzzer,address) against profile/records.c, profile/aggregate.c
# and what they use, and run it for a bounded time: FUZZ_SECONDS (default
# 10: the make check smoke; `make fuzz-records` gives 60).  Seeded with a
# valid node's records (tests/aggregate_unit writes them with --seed).
# Skips (77) where clang, libFuzzer or json-c's pkg-config is missing.  A
# crash input is left in $top_builddir/tests/fuzz-records-crash-* for replay.
top=${top_builddir:-.}
src=${srcdir:-.}
secs=${FUZZ_SECONDS:-10}
cc=${FUZZ_CC:-clang}
command -v "$cc" >/dev/null 2>&1 || { echo "no $cc: fuzz_records skipped"; exit 77; }
json=$(pkg-config --cflags --libs json-c 2>/dev/null) || { echo "no json-c pkg-config: fuzz_records skipped"; exit 77; }
exe=$top/tests/fuzz_records
corpus=$(mktemp -d "${TMPDIR:-/tmp}/fuzz_records.XXXXXX") || exit 99
trap 'rm -rf "$corpus"' EXIT
# profile/ and protocol/ only: the pure layers, no dsm/ on the include path
# shellcheck disable=SC2086
if ! "$cc" -std=gnu11 -g -O1 -fsanitize=fuzzer,address -I"$src/protocol" -I"$src/profile" \
        -o "$exe" "$src/tests/fuzz_records.c" "$src/profile/records.c" \
        "$src/profile/aggregate.c" "$src/profile/runs.c" "$src/profile/profile_write.c" "$src/profile/pfile.c" \
        "$src/profile/ptext.c" "$src"/protocol/engine.c \
        "$src"/protocol/table.c "$src"/protocol/names.c "$src"/protocol/augment.c \
        "$src"/protocol/sharers.c "$src"/protocol/sharers_list.c "$src"/protocol/counters.c \
        $json 2>"$corpus/cc.err"; then
    if grep -qi "fuzzer\|sanitizer\|cannot find\|No such file" "$corpus/cc.err"; then
        echo "$cc cannot build a libFuzzer target here: fuzz_records skipped"
        sed 's/^/    /' "$corpus/cc.err" | head -5
        exit 77
    fi
    cat "$corpus/cc.err"
    exit 99
fi
# seeds: each node's records of the unit test's 3-node job, behind a job
# header (3 nodes, shipped by node n, 65 blocks)
seeds=$top/tests/aggregate_unit
if [ -x "$seeds" ]; then
    for n in 0 1 2; do
        { printf "\\002\\$(printf %03o $n)\\100\\000"; "$seeds" --seed $n; } > "$corpus/node$n" ||
            rm -f "$corpus/node$n"
    done
fi
echo "fuzz_records: $secs s of libFuzzer on profile_records_parse + profile_aggregate"
"$exe" -max_total_time="$secs" -max_len=8192 -artifact_prefix="$top/tests/fuzz-records-crash-" \
    -print_final_stats=1 "$corpus" >"$corpus/log" 2>&1
rc=$?
grep -E "^#|stat::|ERROR|SUMMARY|Done|abort" "$corpus/log" | tail -12
if [ $rc -ne 0 ]; then
    echo "FAIL: libFuzzer exited with status $rc (crash input: $top/tests/fuzz-records-crash-*)"
    tail -40 "$corpus/log"
    exit 1
fi
exit 0
