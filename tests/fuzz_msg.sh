#!/bin/sh
# fuzz_msg.sh - build the libFuzzer target tests/fuzz_msg.c (clang,
# -fsanitize=fuzzer,address) against dsm/msg.c and run it for a bounded
# time: FUZZ_SECONDS (default 10: the make check smoke; `make fuzz` gives
# 60).  Skips (77) where clang or libFuzzer is missing.  A crash input is
# left in $top_builddir/tests/fuzz-crash-* for replay.
top=${top_builddir:-.}
src=${srcdir:-.}
secs=${FUZZ_SECONDS:-10}
cc=${FUZZ_CC:-clang}
command -v "$cc" >/dev/null 2>&1 || { echo "no $cc: fuzz_msg skipped"; exit 77; }
exe=$top/tests/fuzz_msg
corpus=$(mktemp -d "${TMPDIR:-/tmp}/fuzz_msg.XXXXXX") || exit 99
trap 'rm -rf "$corpus"' EXIT
# config.h (HAVE_*) is in the build directory; engine headers in protocol/
if ! "$cc" -std=gnu11 -g -O1 -fsanitize=fuzzer,address -DHAVE_CONFIG_H -I"$top" \
        -I"$src/include" -I"$src/protocol" -I"$src/dsm" -o "$exe" \
        "$src/tests/fuzz_msg.c" "$src/dsm/msg.c" "$src/protocol/names.c" 2>"$corpus/cc.err"; then
    if grep -qi "fuzzer\|sanitizer\|cannot find\|No such file" "$corpus/cc.err"; then
        echo "$cc cannot build a libFuzzer target here: fuzz_msg skipped"
        sed 's/^/    /' "$corpus/cc.err" | head -5
        exit 77
    fi
    cat "$corpus/cc.err"
    exit 99
fi
# seeds: a valid GETS and a valid DATA_S for node 0 of 2, 4 KiB blocks
# (16 bytes of limits, then header + payload), so the fuzzer starts from
# accepted messages and mutates them
printf '\001\000\377\000\000\000\000\377\003\000\000\000\000\000\000\000' > "$corpus/lim"
hdr() { # type len: a header to node 0 from node 1, block 5
    printf '1MSD'; printf "\\$(printf %03o "$1")\\000"; printf '\000\000'
    printf '\001\000\000\000\000\000\000\000\005\000\000\000'
    printf "$(printf '\\%03o\\%03o' $(($2 % 256)) $(($2 / 256)))\\000\\000"
    head -c 24 /dev/zero
}
{ cat "$corpus/lim"; hdr 1 0; } > "$corpus/gets"
{ cat "$corpus/lim"; hdr 4 4096; head -c 4096 /dev/zero; } > "$corpus/data"
echo "fuzz_msg: $secs s of libFuzzer on dsm_msg_decode + dsm_msg_validate"
"$exe" -max_total_time="$secs" -max_len=8192 -artifact_prefix="$top/tests/fuzz-crash-" \
    -print_final_stats=1 "$corpus" >"$corpus/log" 2>&1
rc=$?
grep -E "^#|stat::|ERROR|SUMMARY|Done|abort" "$corpus/log" | tail -12
if [ $rc -ne 0 ]; then
    echo "FAIL: libFuzzer exited with status $rc (crash input: $top/tests/fuzz-crash-*)"
    tail -40 "$corpus/log"
    exit 1
fi
exit 0
