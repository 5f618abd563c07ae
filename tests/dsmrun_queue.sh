#!/bin/sh
# dsmrun_queue.sh - the shm transport under load: tests/shm_queue_test on
# 4 nodes, each sending thousands of messages to every other node from
# 2 threads at once, with the default queues, with tiny queues (almost every
# message goes through the sender-side overflow) and with large blocks; also
# 8 nodes (more nodes than cores: nodes must sleep, not spin).
# Run by `make check` from the build directory.
set -u
builddir=${top_builddir:-.}
DSMRUN=${DSMRUN:-$builddir/dsmrun}
prog=$builddir/tests/shm_queue_test
to=${TIMEOUT:-timeout}
[ -n "$to" ] || to=timeout

fail=0
run() {
    desc=$1; shift
    echo "--- $desc"
    if "$to" 60 "$@"; then
        echo "ok: $desc"
    else
        echo "FAIL: $desc (exit status $?)"
        fail=1
    fi
}

run "4 nodes, default queues" \
    "$DSMRUN" -n 4 "$prog" --expect-overflow
run "4 nodes, queues of 4 slots" \
    env DSM_SHM_SLOTS=4 "$DSMRUN" -n 4 "$prog" --expect-overflow
run "4 nodes, queues of 2 slots, small bursts" \
    env DSM_SHM_SLOTS=2 "$DSMRUN" -n 4 "$prog" --count 2000 --burst 7 --expect-overflow
run "3 nodes, 64 KiB blocks" \
    env DSM_BLOCK_SIZE=64K "$DSMRUN" -n 3 "$prog" --count 1000
run "8 nodes" \
    "$DSMRUN" -n 8 "$prog" --count 1000
run "1 node (nothing to send)" \
    "$DSMRUN" -n 1 "$prog"

# Outside dsmrun, or with a segment that does not match, the transport
# refuses to start with one clear line.
echo "--- open checks"
out=$(DSM_NODE=0 DSM_NODES=2 DSM_SHM_FD=9 "$prog" --open 2>&1 9>&-)
case $out in
    *"DSM_SHM_FD=9 is not an open file descriptor"*) echo "ok: bad DSM_SHM_FD" ;;
    *) echo "FAIL: bad DSM_SHM_FD gave: $out"; fail=1 ;;
esac
out=$(DSM_BLOCK_SIZE=8K "$to" 60 "$DSMRUN" -n 2 env DSM_BLOCK_SIZE=16K "$prog" --open 2>&1)
case $out in
    *"payloads of 8192 bytes but the block size is 16384"*) echo "ok: block size mismatch" ;;
    *) echo "FAIL: block size mismatch gave: $out"; fail=1 ;;
esac
out=$("$to" 60 "$DSMRUN" -n 2 env DSM_NODES=3 "$prog" --open 2>&1)
case $out in
    *"segment is for 2 nodes but DSM_NODES=3"*) echo "ok: node count mismatch" ;;
    *) echo "FAIL: node count mismatch gave: $out"; fail=1 ;;
esac
exit $fail
