#!/bin/sh
# tcp_faults.sh - faults of the network on 2 hosts of the network test bed
# (tests/netns.sh), each during a run of tests/mn_counter across them:
#   down   host 1's link taken down (ip link set ... down): the job ends
#          within 10 s, non-zero, with one line "dsm: node 0: transport:
#          lost node 1: ..." (the heartbeats of the mpi transport, or the
#          timeout of its lifeline to node 1), and no
#          process is left in any host
#   rank   the DSM process on host 1 killed (kill -9): the job ends within
#          10 s, non-zero, with one line "dsm: node 0: transport: lost node
#          1: its process ended ..." (the lifelines of the mpi transport),
#          nothing left
#   kill   every process of host 1 killed, OpenMPI's daemon too: the job
#          ends within 10 s, non-zero, with a line naming node 1, or host 1
#          by its address: mpirun sees its daemon go, ends the job at once
#          and from then on forwards no output of the ranks, so its own
#          "Remote daemon ... on node ADDRESS" is often the only line
#   slow   200 ms more on host 1's link (tc netem), or where the kernel has
#          no netem, the link limited to 1 Mbit/s (tc tbf: a 4 KiB block
#          takes 33 ms): the job ends normally, its counters right
srcdir=${srcdir:-.}
top=${top_builddir:-.}
. "$srcdir/tests/netns.sh"
netns_setup 2
out=$NETNS_DIR/out
fail=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; fail=1; }

# start: mn_counter across the hosts in the background, returns once both
# ranks are in the job (its program runs on host 1 and 2 s more).
start() {
    : > "$out"
    sh "$srcdir/tests/mpirun_dsm.sh" -n 2 --timeout 60 "$top/tests/mn_counter" "$1" > "$out" 2>&1 &
    job=$!
    i=0
    while [ $i -lt 300 ]; do
        for p in $(ip netns pids "$NETNS_HOST_1" 2>/dev/null); do
            tr '\0' ' ' < "/proc/$p/cmdline" 2>/dev/null | grep -q mn_counter && { sleep 2; return 0; }
        done
        kill -0 $job 2>/dev/null || break
        sleep 0.1
        i=$((i + 1))
    done
    bad "$2: the job did not start on host 1:"; cat "$out"
    return 1
}

# finish NAME: waits for the job; sets rc and secs (since the fault)
finish() {
    wait $job
    rc=$?
    secs=$(( $(date +%s) - t0 ))
    sleep 1 # mpirun's children and the hosts' daemons have gone by now
    left=$(netns_pids | tr '\n' ' ')
    [ -z "$left" ] && ok "$1: no process left in any host" ||
        { bad "$1: processes left: $left"; ps -o pid,args -p "$(echo $left | tr ' ' ,)"; }
    [ $rc -ne 0 ] && ok "$1: exit status $rc" || bad "$1: exit status 0"
    [ $secs -le 10 ] && ok "$1: ended ${secs} s after the fault" || bad "$1: ended ${secs} s after the fault (10 s allowed)"
}

echo "=== down: host 1's link down mid-run"
if start 100000000 down; then
    t0=$(date +%s)
    ip -n "$NETNS_HOST_1" link set "$NETNS_LINK_1" down
    finish down
    n=$(grep -c '^dsm: node 0: transport: lost node 1: ' "$out")
    [ "$n" = 1 ] && ok "down: $(grep '^dsm: node 0: transport: lost node 1' "$out")" ||
        { bad "down: $n lines naming the lost node 1:"; cat "$out"; }
    ip -n "$NETNS_HOST_1" link set "$NETNS_LINK_1" up
fi

echo "=== rank: the DSM process of host 1 killed mid-run"
if start 100000000 rank; then
    t0=$(date +%s)
    for p in $(ip netns pids "$NETNS_HOST_1"); do
        tr '\0' ' ' < "/proc/$p/cmdline" 2>/dev/null | grep -q mn_counter && kill -9 "$p"
    done
    finish rank
    n=$(grep -c '^dsm: node 0: transport: lost node 1: ' "$out")
    [ "$n" = 1 ] && ok "rank: $(grep '^dsm: node 0: transport: lost node 1' "$out")" ||
        { bad "rank: $n lines naming the lost node 1:"; cat "$out"; }
fi

echo "=== kill: every process of host 1 killed mid-run"
if start 100000000 kill; then
    t0=$(date +%s)
    for p in $(ip netns pids "$NETNS_HOST_1"); do kill -9 "$p" 2>/dev/null; done
    finish kill
    grep -Eq "^dsm: node 0: transport: lost node 1: |Remote daemon: .* on node $NETNS_ADDR_1\$" "$out" &&
        ok "kill: $(grep -E "lost node 1|Remote daemon: .* on node $NETNS_ADDR_1\$" "$out" | head -1 | sed 's/^ *//')" ||
        { bad "kill: no line naming node 1 or host $NETNS_ADDR_1:"; cat "$out"; }
fi

echo "=== slow: host 1's link slowed"
if tc -n "$NETNS_HOST_1" qdisc add dev "$NETNS_LINK_1" root netem delay 200ms 2>/dev/null; then
    how="200 ms more on host 1's link (netem)"
elif tc -n "$NETNS_HOST_1" qdisc add dev "$NETNS_LINK_1" root tbf rate 1mbit burst 8kb latency 2s; then
    how="host 1's link at 1 Mbit/s (tbf; no netem in this kernel)"
else
    how=
    echo "tcp_faults.sh: tc cannot slow a link here: slow link skipped"
fi
if [ -n "$how" ]; then
    t0=$(date +%s)
    sh "$srcdir/tests/mpirun_dsm.sh" -n 2 --timeout 120 "$top/tests/mn_counter" 20 > "$out" 2>&1
    rc=$?
    [ $rc = 0 ] && grep -q 'mn_counter: 2 nodes x 20 increments of 2 counters: 40 and 40 (expected 40)' "$out" &&
        ok "slow: $how: the job ended normally after $(( $(date +%s) - t0 )) s, counters right" ||
        { bad "slow: $how: exit status $rc:"; cat "$out"; }
fi
[ $fail = 0 ] && echo "tcp_faults.sh: OK"
exit $fail
