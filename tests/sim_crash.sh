#!/bin/sh
# sim_crash.sh - a crash on a simulated processor names it: tests/sim_crash
# crashes on processor 2 of 4 (dsmrun --machine=uniform -n 4), and before
# the process dies stderr has one line
#   dsm: simulated processor 2 (in FUNC): SIGNAL[ at ADDR]
# and the exit status is that of the signal (128 + its number):
#   segv      NULL store in store_through: SIGSEGV at 0x0
#   fpe       division by zero in divide: SIGFPE
#   abort     abort() called from give_up: SIGABRT
#   overflow  processor 2's stack overflows in recurse: SIGSEGV, the
#             handler runs on its own stack
# Run by `make check` from the build directory.
set -u
builddir=${top_builddir:-.}
DSMRUN=${DSMRUN:-$builddir/dsmrun}
prog=$builddir/tests/sim_crash
to=${TIMEOUT:-timeout}
command -v "$to" >/dev/null 2>&1 || to=
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sim_crash.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
[ -x "$prog" ] || { echo "FAIL: $prog is not built"; exit 1; }

fail=0
ok() { echo "ok: $1"; }
bad() { echo "FAIL: $1"; fail=1; }

# crash MODE STATUS LINE-PATTERN [STACK]: the pattern (grep -E) is the whole line
crash() {
    mode=$1 want=$2 pat=$3 stack=${4:-8M}
    DSM_SIM_PROFILE=off DSM_SIM_STACK=$stack ${to:+$to 30} "$DSMRUN" --machine=uniform -n 4 \
        "$prog" "$mode" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ $rc -ne "$want" ]; then
        bad "$mode: status $rc, want $want; stderr: $(cat "$tmp/err")"
    elif [ "$(grep -c '^dsm: simulated processor' "$tmp/err")" -ne 1 ]; then
        bad "$mode: not one crash line: $(cat "$tmp/err")"
    elif ! grep -Eq "^$pat\$" "$tmp/err"; then
        bad "$mode: no line matching '$pat': $(cat "$tmp/err")"
    elif grep -q 'did not crash' "$tmp/out"; then
        bad "$mode: processor 2 went on"
    else
        ok "$mode -> $rc: $(grep '^dsm: simulated processor' "$tmp/err")"
    fi
}

crash segv 139 'dsm: simulated processor 2 \(in store_through\): SIGSEGV at 0x0'
crash fpe 136 'dsm: simulated processor 2 \(in divide\): SIGFPE at 0x[0-9a-f]+'
crash abort 134 'dsm: simulated processor 2 \(in give_up\): SIGABRT'
crash overflow 139 'dsm: simulated processor 2 \(in recurse\): SIGSEGV at 0x[0-9a-f]+' 256K
exit $fail
