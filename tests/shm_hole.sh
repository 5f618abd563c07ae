#!/bin/sh
# shm_hole.sh - a hole in a shm queue (a slot reserved by a sender and never
# written, as when the sender dies in the middle of a send) ends the job with
# one line naming the receiving node, instead of hanging it: while the sender
# lives, after about 5 s (the line says the sender is one of the others and
# how many messages wait behind the hole); when the sender is dead, after
# about 1 s, naming it.  tests/shm_queue_test --hole / --hole-dead is the job.
top=${top_builddir:-.}
DSMRUN=${DSMRUN:-$top/dsmrun}
prog=$top/tests/shm_queue_test
for f in "$DSMRUN" "$prog"; do
    [ -x "$f" ] || { echo "shm_hole.sh: $f is not built" >&2; exit 99; }
done
fail=0
ms() { echo $(( $(date +%s%N) / 1000000 )); }
check() { # name mode nodes max_ms pattern
    t0=$(ms)
    out=$(timeout -k 5 60 "$DSMRUN" -n "$3" --timeout 40 "$prog" "$2" 2>&1)
    rc=$?
    dt=$(( $(ms) - t0 ))
    line=$(printf '%s\n' "$out" | grep -E "$5" | head -1)
    if [ $rc -eq 0 ] || [ $rc -eq 124 ] || [ $rc -eq 3 ]; then
        echo "FAIL $1: status $rc after $dt ms:"; printf '%s\n' "$out" | sed 's/^/    /'; fail=1
    elif [ -z "$line" ]; then
        echo "FAIL $1: no line matching /$5/:"; printf '%s\n' "$out" | sed 's/^/    /'; fail=1
    elif [ $dt -gt "$4" ]; then
        echo "FAIL $1: the job ended after $dt ms (limit $4)"; fail=1
    else
        echo "ok   $1: status $rc after $dt ms: $line"
    fi
}
check "stuck sender" --hole 3 15000 \
    '^dsm: node 0: transport: a message slot of this node.s queue \(position 0\) was reserved [0-9.]+ s ago and never written by its sender \(one of the other 2 nodes, all alive\); 3 later messages wait behind it$'
check "dead sender" --hole-dead 2 10000 \
    '^dsm: node 0: transport: a message slot of this node.s queue \(position 0\) was reserved and never written: node 1 died, maybe in the middle of a send; 3 later messages wait behind it$'
exit $fail
