#!/bin/sh
# node_kill.sh - a node killed mid-run (kill -9) ends the whole job within
# 5 seconds, with a line naming the node, on every transport: shm (dsmrun:
# "dsmrun: node 1 killed by signal 9") and mpi (mpirun: "... rank 1 ...
# exited on signal 9"; skipped without mpirun).  tests/mn_kill.c is the job.
top=${top_builddir:-.}
prog=$top/tests/mn_kill
[ -x "$prog" ] || { echo "node_kill.sh: $prog is not built" >&2; exit 99; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/node_kill.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0
ms() { echo $(( $(date +%s%N) / 1000000 )); }

# kill_one NAME LAUNCHER PATTERN: 4 nodes, node 1 killed once all joined
kill_one() {
    name=$1 launcher=$2 pattern=$3
    rm -f "$tmp"/pid.*
    timeout -k 5 90 $launcher -n 4 --timeout 80 "$prog" "$tmp" >"$tmp/out" 2>&1 &
    job=$!
    i=0
    while [ "$(ls "$tmp" | grep -c '^pid\.')" -lt 4 ]; do
        i=$((i + 1))
        if [ $i -gt 600 ]; then
            echo "FAIL $name: the nodes did not start"; cat "$tmp/out"
            kill $job; wait $job; fail=1; return
        fi
        sleep 0.05
    done
    sleep 0.3 # mid-run: the nodes are in their lock/barrier loop
    t0=$(ms)
    kill -9 "$(cat "$tmp/pid.1")"
    wait $job
    rc=$?
    dt=$(( $(ms) - t0 ))
    line=$(grep -E "$pattern" "$tmp/out" | head -1)
    if [ $rc -eq 0 ] || [ $rc -eq 124 ]; then
        echo "FAIL $name: job status $rc after kill -9 of node 1"; cat "$tmp/out"; fail=1
    elif [ $dt -ge 5000 ]; then
        echo "FAIL $name: the job ended $dt ms after kill -9 of node 1 (limit 5000)"; fail=1
    elif [ -z "$line" ]; then
        echo "FAIL $name: no line matching /$pattern/:"; cat "$tmp/out"; fail=1
    else
        echo "ok   $name: kill -9 of node 1 ended the job in $dt ms, status $rc: $line"
    fi
    for f in "$tmp"/pid.*; do
        p=$(cat "$f")
        if [ -r "/proc/$p/stat" ] && [ "$(cut -d' ' -f3 "/proc/$p/stat")" != Z ]; then
            echo "FAIL $name: node process $p still runs"; fail=1
        fi
    done
}

kill_one shm "${DSMRUN:-$top/dsmrun}" '^dsmrun: node 1 killed by signal 9'
# block mode: the checked twin (tests/block.mk) at 64-byte blocks, on shm
if [ -x "$top/tests/blk_mn_kill" ]; then
    page_prog=$prog prog=$top/tests/blk_mn_kill
    export DSM_BLOCK_SIZE=64
    kill_one "shm block" "${DSMRUN:-$top/dsmrun}" '^dsmrun: node 1 killed by signal 9'
    unset DSM_BLOCK_SIZE
    prog=$page_prog
else
    echo "skip shm block: tests/blk_mn_kill is not built (no LLVM)"
fi
if command -v "${MPIRUN:-mpirun}" >/dev/null 2>&1; then
    kill_one mpi "sh ${srcdir:-.}/tests/mpirun_dsm.sh" 'rank 1 .*exited on signal 9'
else
    echo "skip mpi: no mpirun"
fi
exit $fail
