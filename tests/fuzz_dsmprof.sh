#!/bin/sh
# fuzz_dsmprof.sh - build the libFuzzer target tests/fuzz_dsmprof.c (clang,
# -fsanitize=fuzzer,address) against dsmprof's commands (profile/) and run
# it for a bounded time: FUZZ_SECONDS (default 5: the make check smoke;
# `make fuzz` gives 60), seeded with the samples in tests/data.  Skips (77)
# where clang or libFuzzer is missing.  A crash input is left in
# $top_builddir/tests/fuzz-dsmprof-crash-* for replay
# (tests/fuzz_dsmprof CRASHFILE).
top=${top_builddir:-.}
src=${srcdir:-.}
secs=${FUZZ_SECONDS:-5}
cc=${FUZZ_CC:-clang}
command -v "$cc" >/dev/null 2>&1 || { echo "no $cc: fuzz_dsmprof skipped"; exit 77; }
exe=$top/tests/fuzz_dsmprof
corpus=$(mktemp -d "${TMPDIR:-/tmp}/fuzz_dsmprof.XXXXXX") || exit 99
trap 'rm -rf "$corpus"' EXIT
json=$(pkg-config --cflags --libs json-c 2>/dev/null) || json="-I/usr/include/json-c -ljson-c"
p=$src/profile
# shellcheck disable=SC2086
if ! "$cc" -std=gnu11 -g -O1 -fsanitize=fuzzer,address -I"$p" -I"$src/protocol" -o "$exe" \
        "$src/tests/fuzz_dsmprof.c" "$p/dsmprof.c" "$p/dsmprof_report.c" "$p/dsmprof_cmds.c" \
        "$p/html.c" "$p/dsmprof_sim.c" "$p/dsmprof_flashpoint.c" "$p/dsmprof_quickstep.c" \
        "$p/dsmprof_origin.c" "$p/origin_html.c" "$p/advice.c" "$p/pschema.c" \
        "$p/pschema_defs.c" "$p/ptext.c" "$p/pfile.c" $json -lm 2>"$corpus/cc.err"; then
    if grep -qi "fuzzer\|sanitizer\|cannot find\|No such file" "$corpus/cc.err"; then
        echo "$cc cannot build a libFuzzer target here: fuzz_dsmprof skipped"
        sed 's/^/    /' "$corpus/cc.err" | head -5
        exit 77
    fi
    cat "$corpus/cc.err"
    exit 99
fi
mkdir "$corpus/seeds"
cp "$src"/tests/data/*.json "$corpus/seeds/"
printf '{"schema":"dsm-profile/2","nodes":1,"wall_seconds":1,"structures":[{"name":"part"}]}' \
    > "$corpus/seeds/minimal_profile.json"
printf '{"schema":"dsm-sim/1","totals":{},"by_bin":[{"name":"Y"}],"pairs":[]}' \
    > "$corpus/seeds/minimal_sim.json"
echo "fuzz_dsmprof: $secs s of libFuzzer on every dsmprof command"
# -close_fd_mask=2: the commands' one-line errors would flood the log;
# libFuzzer and AddressSanitizer keep their own copy of stderr
"$exe" -max_total_time="$secs" -max_len=32768 -timeout=10 -close_fd_mask=2 \
    -artifact_prefix="$top/tests/fuzz-dsmprof-crash-" -print_final_stats=1 \
    "$corpus" "$corpus/seeds" >"$corpus/log" 2>&1
rc=$?
grep -E "^#|stat::|ERROR|SUMMARY|Done|abort|fuzz_dsmprof:" "$corpus/log" | tail -12
if [ $rc -ne 0 ]; then
    echo "FAIL: libFuzzer exited with status $rc (crash input: $top/tests/fuzz-dsmprof-crash-*)"
    tail -40 "$corpus/log"
    exit 1
fi
exit 0
