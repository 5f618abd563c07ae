#!/bin/sh
# apps_native.sh - the issue-6 applications run natively (no launcher: one
# node) at their default sizes, and their handling of bad options.
#  1. apps/fft, lu, radix, ocean, mm, slots with no arguments: exit 0 and
#     "NAME: result OK".  mm also with --memspy (the paper's 293 / 56) and
#     slots with --pad=128 (the restructured, padded slots).
#  2. A bad option (unknown, out of range, or violating the app's rule) makes
#     the program exit 2 with one line naming the option, on every app.
top=${top_builddir:-.}
export DSM_PROFILE=off
out=$(mktemp "${TMPDIR:-/tmp}/apps_native.XXXXXX") || exit 99
trap 'rm -f "$out"' EXIT
status=0

# run EXPECTED_STATUS REGEX APP ARGS...: the exit status and a line of the
# output (stdout and stderr) must match.
run() {
    want=$1 regex=$2 app=$3
    shift 3
    prog=$top/apps/$app
    [ -x "$prog" ] || { echo "apps_native.sh: $prog is not built" >&2; exit 99; }
    "$prog" "$@" >"$out" 2>&1
    rc=$?
    cat "$out"
    if [ $rc -ne "$want" ]; then
        echo "=== FAIL: $app $*: exit status $rc, expected $want"
        status=1
    elif ! grep -Eq -e "$regex" "$out"; then
        echo "=== FAIL: $app $*: no line matches /$regex/"
        status=1
    else
        echo "=== ok: $app $*"
    fi
}

for app in fft lu radix ocean mm slots; do
    run 0 "^$app: result OK" $app
done
run 0 "^mm: result OK" mm --memspy
run 0 "^mm: 1 procs, 293x293, block 56" mm --memspy
run 0 "^slots: result OK" slots --pad=128

run 2 "fft: --m=5 must be even" fft --m=5
run 2 "lu: option --n needs an integer in 1\.\.16384, got 'x'" lu --n=x
run 2 "radix: --radix=100 is not a power of two" radix --radix=100
run 2 "ocean: unknown option '--size=4'" ocean --size=4
run 2 "mm: unexpected argument '293'" mm 293
run 2 "slots: --pad=6 is not a multiple of 4" slots --pad=6
run 0 "--iters=N" slots --help
exit $status
