#!/bin/sh
# test.sh - every test from scratch, as CI runs it (.ci/run calls this):
# install what is missing, autoreconf -fi, ./configure --enable-werror,
# make -j2, make -j2 check, then one closing line
#     N passed, N failed[, N skipped][, N expected failures]
# computed from the harness's results.  Exit status 0 only when nothing
# failed (a build error counts as one failure).
#   ./scripts/test.sh
#   DSM_TEST_TIMEOUT=60 ./scripts/test.sh     per-test time limit (default 300 s)
#   JOBS=4 ./scripts/test.sh                  more parallel jobs (default 2)
#   CHECK_JOBS=2 ./scripts/test.sh            tests at once (default JOBS + 1)
set -u

cd "$(dirname "$0")/.." || exit 1
jobs=${JOBS:-2}
# One test more than cores: the tests over real network namespaces and the
# multi-node jobs spend much of their time waiting (timeouts by design,
# nodes blocked in the kernel), and the suite is built to pass beside
# another job anyway.
check_jobs=${CHECK_JOBS:-$((jobs + 1))}

./scripts/setup.sh || { echo "test: set-up failed"; echo "0 passed, 1 failed"; exit 1; }

# Results of an earlier run must not be counted again.
rm -f test-suite.log
find . -name .git -prune -o -name '*.trs' -type f -exec rm -f {} + 2>/dev/null

step() {
    echo "test: $*"
    if ! "$@"; then
        echo "test: '$*' failed; no tests were run"
        echo "0 passed, 1 failed"
        exit 1
    fi
}
step autoreconf -fi
step ./configure --enable-werror
step make -j"$jobs"

echo "test: make -j$check_jobs check"
make -j"$check_jobs" check
rc=$?

# On CI the logs are not kept: show the end of each failing test's log.
if [ "${CI:-}" = true ]; then
    for trs in $(find . -name .git -prune -o -name '*.trs' -type f -print | sort); do
        if grep -Eq '^:test-result: (FAIL|XPASS|ERROR)' "$trs"; then
            log=${trs%.trs}.log
            echo "----- last 40 lines of $log"
            tail -n 40 "$log" 2>/dev/null
        fi
    done
fi

exec ./scripts/test-summary.sh . "$rc"
