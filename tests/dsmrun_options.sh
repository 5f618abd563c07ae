#!/bin/sh
# dsmrun_options.sh - the command line of dsmrun: usage errors (status 2),
# --help, --version, a program that cannot be executed (127), a bad DSM_*
# setting, the environment each node gets, and --prefix output.
# Run by `make check` from the build directory.
set -u
builddir=${top_builddir:-.}
DSMRUN=${DSMRUN:-$builddir/dsmrun}
to=${TIMEOUT:-timeout}
[ -n "$to" ] || to=timeout
tmp=$(mktemp -d "${TMPDIR:-/tmp}/dsmrun_options.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT

fail=0
ok() { echo "ok: $1"; }
bad() { echo "FAIL: $1"; fail=1; }

# expect STATUS PATTERN-IN-STDERR ARGS...
expect() {
    want=$1 pat=$2; shift 2
    "$to" 60 "$DSMRUN" "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ $rc != "$want" ]; then
        bad "dsmrun $*: status $rc, expected $want; stderr: $(cat "$tmp/err")"
    elif [ -n "$pat" ] && ! grep -q -e "$pat" "$tmp/err"; then
        bad "dsmrun $*: stderr lacks '$pat': $(cat "$tmp/err")"
    else
        ok "dsmrun $* -> $rc"
    fi
}

expect 2 'Usage: dsmrun'
expect 2 'number of nodes is missing' true
expect 2 'no program to run' -n 2
expect 2 'between 1 and 1024' -n 0 true
expect 2 'between 1 and 1024' -n 1025 true
expect 2 'between 1 and 1024' -n abc true
expect 2 'between 1 and 1024' --nodes=2x true
expect 2 "unknown option '--bogus'" --bogus -n 2 true
expect 2 "unknown option '-x'" -x -n 2 true
expect 2 'needs an argument' -n
expect 2 'positive number of seconds' -n 2 --timeout 0 true
expect 2 'positive number of seconds' -n 2 --timeout abc true
expect 127 "cannot execute '/nonexistent/prog'" -n 2 /nonexistent/prog
expect 127 "cannot execute 'no-such-program-dsm'" -n 2 no-such-program-dsm
expect 127 "cannot execute" -n 2 "$tmp"
expect 0 '' -n 1024 true
expect 0 '' --nodes=3 true
# Options after the program name are the program's.
expect 0 '' -n 2 sh -c 'exit 0' -n 5

"$to" 60 "$DSMRUN" --help >"$tmp/out" 2>&1 && grep -q 'Usage: dsmrun' "$tmp/out" \
    && ok "--help" || bad "--help: $(cat "$tmp/out")"
"$to" 60 "$DSMRUN" --version >"$tmp/out" 2>&1 && grep -q '^dsmrun ' "$tmp/out" \
    && ok "--version" || bad "--version: $(cat "$tmp/out")"

# Settings are checked by dsmrun with the library's messages.
DSM_BLOCK_SIZE=3 expect 2 'DSM_BLOCK_SIZE=3' -n 2 true
DSM_SHM_SLOTS=5 expect 2 'DSM_SHM_SLOTS=5' -n 2 true

# The environment of a node.
"$to" 60 "$DSMRUN" -n 3 sh -c 'echo "$DSM_NODE $DSM_NODES $DSM_JOB_ID $DSM_CLOCK_BASE_NS"
    [ -e "/proc/self/fd/$DSM_SHM_FD" ] && echo "fd ok"' >"$tmp/out" 2>&1
[ "$(sort "$tmp/out" | cut -d' ' -f1,2 | grep -c '^[012] 3$')" = 3 ] \
    && ok "DSM_NODE and DSM_NODES" || bad "node environment: $(cat "$tmp/out")"
[ "$(grep -c 'fd ok' "$tmp/out")" = 3 ] && ok "DSM_SHM_FD is open in every node" \
    || bad "DSM_SHM_FD: $(cat "$tmp/out")"
[ "$(grep -v 'fd ok' "$tmp/out" | cut -d' ' -f3,4 | sort -u | wc -l)" = 1 ] \
    && ok "same DSM_JOB_ID and DSM_CLOCK_BASE_NS everywhere" || bad "job ids: $(cat "$tmp/out")"

# --prefix: every line of stdout and stderr, a last line without newline too.
"$to" 60 "$DSMRUN" -n 3 --prefix sh -c 'echo "out $DSM_NODE"; echo "err $DSM_NODE" >&2
    echo "two words $DSM_NODE"; printf "tail $DSM_NODE"' >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc = 0 ] && ok "--prefix status 0" || bad "--prefix status $rc"
for k in 0 1 2; do
    grep -qx "\[$k\] out $k" "$tmp/out" && grep -qx "\[$k\] two words $k" "$tmp/out" \
        && grep -qx "\[$k\] tail $k" "$tmp/out" && grep -qx "\[$k\] err $k" "$tmp/err" \
        && ok "--prefix lines of node $k" || bad "--prefix node $k: $(cat "$tmp/out" "$tmp/err")"
done
[ "$(wc -l < "$tmp/out")" = 9 ] && [ "$(wc -l < "$tmp/err")" = 3 ] \
    && ok "--prefix line counts" || bad "--prefix line counts: $(cat "$tmp/out" "$tmp/err")"
# Long output is not lost.
"$to" 60 "$DSMRUN" -n 2 -p sh -c 'seq 1 20000' >"$tmp/out"
[ "$(grep -c '^\[1\] ' "$tmp/out")" = 20000 ] && [ "$(grep -c '^\[0\] 20000$' "$tmp/out")" = 1 ] \
    && ok "--prefix with 20000 lines per node" || bad "--prefix lost lines: $(wc -l < "$tmp/out")"
# Nor when the reader of dsmrun's output pauses while the nodes end with
# their last lines still in the pipes (dsmrun blocked in a write then): the
# grace for pipes held by the nodes' children must not cut flowing output.
"$to" 60 "$DSMRUN" -n 2 -p sh -c 'seq 1 10000' | { head -c 1000; sleep 1; cat; } >"$tmp/out"
[ "$(grep -c '^\[[01]\] ' "$tmp/out")" = 20000 ] \
    && ok "--prefix behind a slow reader" || bad "--prefix behind a slow reader lost lines: $(wc -l < "$tmp/out") of 20000"
# Without --prefix the nodes write straight to dsmrun's stdout.
"$to" 60 "$DSMRUN" -n 2 sh -c 'echo plain' >"$tmp/out"
[ "$(grep -cx plain "$tmp/out")" = 2 ] && ok "output without --prefix" || bad "plain output: $(cat "$tmp/out")"

exit $fail
