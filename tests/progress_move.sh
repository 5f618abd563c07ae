#!/bin/sh
# progress_move.sh - DSM_PROGRESS_MOVE (dsm/progress_place.c): a node bound
# to one core whose program spins on shared data without entering the
# runtime (tests/spin_lock, a test-and-set lock of its own) keeps its
# progress thread waiting to run; the thread moves to every core and the
# node says so once on standard error.  With DSM_PROGRESS_MOVE=off, or an
# unbound node (DSM_BIND=none), nothing moves and nothing is said.  The
# lock's count is checked in every run (tests/spin_lock).  A bad value is
# an error naming the setting.  Needs 2 cores (else skipped).
# Run by `make check` from the build directory.
set -u
builddir=${top_builddir:-.}
DSMRUN=${DSMRUN:-$builddir/dsmrun}
prog=$builddir/tests/spin_lock
to=${TIMEOUT:-timeout}
[ -n "$to" ] || to=timeout
tmp=$(mktemp -d "${TMPDIR:-/tmp}/progress_move.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
command -v nproc >/dev/null 2>&1 && [ "$(nproc)" -ge 2 ] || { echo "SKIP: fewer than 2 cores"; exit 77; }

fail=0
ok() { echo "ok: $1"; }
bad() { echo "FAIL: $1"; fail=1; }
moved='progress thread waited .* it runs on any core from now (DSM_PROGRESS_MOVE)'

# run NAME ENV...: the job's output in $tmp/NAME; 1 if it failed
run() {
    name=$1; shift
    if ! env DSM_PROFILE=off "$@" "$to" 60 "$DSMRUN" -n 2 --timeout 50 "$prog" 0.6 \
            >"$tmp/$name" 2>&1 </dev/null; then
        bad "$name: the job failed: $(cat "$tmp/$name")"
        return 1
    fi
    grep -q '^spin_lock: OK' "$tmp/$name" || { bad "$name: no OK line: $(cat "$tmp/$name")"; return 1; }
}

# Bound and spinning: the waits are long in every window, so both nodes
# (at least one, on a machine busy with other tests) move their threads.
# Up to 3 tries: a machine so busy that dsmrun cannot bind (another job
# holding a core) may also spread the waits.
tries=0 got=0
while [ $tries -lt 3 ] && [ $got = 0 ]; do
    tries=$((tries + 1))
    run bound DSM_BIND=core DSM_PROGRESS_MOVE=on || break
    got=$(grep -c "$moved" "$tmp/bound")
done
if [ "$got" -ge 1 ]; then
    ok "bound and spinning: $got node(s) moved their progress thread (try $tries)"
    grep -q 'dsm: node [01]: its progress thread waited [0-9.]* ms a turn' "$tmp/bound" ||
        bad "the line names no node and wait: $(grep "$moved" "$tmp/bound")"
    [ "$(grep -c "$moved" "$tmp/bound")" -le 2 ] || bad "a node said it more than once: $(cat "$tmp/bound")"
else
    bad "bound and spinning, no progress thread moved in $tries runs: $(cat "$tmp/bound")"
fi

if run off DSM_BIND=core DSM_PROGRESS_MOVE=off; then
    if grep -q "$moved" "$tmp/off"; then bad "DSM_PROGRESS_MOVE=off moved: $(cat "$tmp/off")"
    else ok "DSM_PROGRESS_MOVE=off: nothing moved"; fi
fi
if run unbound DSM_BIND=none; then
    if grep -q "$moved" "$tmp/unbound"; then bad "an unbound node moved: $(cat "$tmp/unbound")"
    else ok "DSM_BIND=none: not watched, nothing moved"; fi
fi

# a bad value: an error naming the setting, no job
if env DSM_PROGRESS_MOVE=sometimes "$to" 60 "$DSMRUN" -n 2 "$prog" 0.1 >"$tmp/badval" 2>&1 </dev/null; then
    bad "DSM_PROGRESS_MOVE=sometimes was accepted"
elif grep -q 'DSM_PROGRESS_MOVE' "$tmp/badval"; then
    ok "DSM_PROGRESS_MOVE=sometimes: $(head -1 "$tmp/badval")"
else
    bad "DSM_PROGRESS_MOVE=sometimes: the error does not name it: $(cat "$tmp/badval")"
fi
exit $fail
