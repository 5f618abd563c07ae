#!/bin/sh
# run-test.sh - LOG_COMPILER of the test suite (see Makefile.am).
#   run-test.sh TEST [ARGS...]
# Runs one test with a hard time limit so that a hang is a failure, never a
# stuck `make check`:
#   DSM_TEST_TIMEOUT  seconds before the test is sent SIGTERM (default 300,
#                     900 for tests/explore and tests/mutants.sh);
#                     10 s later it gets SIGKILL.  0 turns the limit off.
# A program runs as it is; a script (*.sh) runs with the interpreter named on
# its #! line (sh when it has none), so it needs no execute bit.  The exit
# status is the test's: 0 pass, 77 skip, 99 hard error, anything else fail;
# a test stopped by the limit exits 124 (137 if it needed SIGKILL) after a
# line saying so.
# Core dumps are turned off: a crash is reported by its signal.
set -u

if [ $# -lt 1 ]; then
    echo "usage: $0 TEST [ARGS...]" >&2
    exit 99
fi
test_prog=$1

limit=${DSM_TEST_TIMEOUT:-300}
case $limit in
    ''|*[!0-9]*) echo "run-test.sh: DSM_TEST_TIMEOUT=$limit is not a number of seconds" >&2; exit 99 ;;
esac
# The exhaustive exploration is one process (its coverage check is the union
# of all its runs) and takes about 4 CPU-minutes, more beside other tests on 2
# cores; the mutants' sample builds and explores 20 engines (about 3
# CPU-minutes): their own default limit.
case ${test_prog##*/} in
    explore|mutants.sh) [ -n "${DSM_TEST_TIMEOUT:-}" ] || limit=900 ;;
esac

# Scripts: start them with their own interpreter.
case $test_prog in
    *.sh)
        if [ ! -r "$test_prog" ]; then
            echo "run-test.sh: cannot read $test_prog" >&2
            exit 99
        fi
        interp=
        IFS= read -r first < "$test_prog" || first=
        case $first in
            '#!'*) interp=${first#??} ;;
        esac
        # "#!/usr/bin/env bash" -> "/usr/bin/env bash"; word splitting wanted.
        [ -n "$interp" ] || interp=/bin/sh
        # shellcheck disable=SC2086
        set -- $interp "$@"
        ;;
esac

# shellcheck disable=SC3045 # dash and bash both have ulimit -c
ulimit -c 0 2>/dev/null || :

timeout_cmd=${TIMEOUT:-timeout}
if [ "$limit" -eq 0 ] || ! command -v "$timeout_cmd" >/dev/null 2>&1; then
    exec "$@"
fi

# timeout puts the test in a process group of its own and signals the whole
# group, so the nodes started by dsmrun are ended too.
started=$(date +%s)
"$timeout_cmd" -k 10 "$limit" "$@"
rc=$?
# the suite's time budget (20 min on 2 cores) is spent test by test: say
# what this one cost, so the slow ones can be found in the logs
# (CPU: user + system time of the test and the processes it waited for)
# (`times` in this shell: in a pipe or $(...) it would see a subshell's)
tfile=${TMPDIR:-/tmp}/run-test.$$.times
cpu=
if times > "$tfile" 2>/dev/null; then
    cpu=$(awk 'NR == 2 { split($1, u, "m"); split($2, s, "m")
                         printf "%.1f", u[1] * 60 + u[2] + s[1] * 60 + s[2] }' "$tfile")
fi
rm -f "$tfile"
echo "run-test.sh: $test_prog took $(( $(date +%s) - started )) s, ${cpu:-?} s CPU (exit $rc)" >&2
# 124 and 137 are not special statuses for the harness: they count as FAIL.
case $rc in
    124) echo "run-test.sh: $test_prog did not finish within ${limit}s (DSM_TEST_TIMEOUT): killed, counted as a failure" >&2 ;;
    137) echo "run-test.sh: $test_prog ended by SIGKILL (after the ${limit}s limit and 10s grace, or by something else)" >&2 ;;
esac
exit $rc
