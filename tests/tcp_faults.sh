#!/bin/sh
# tcp_faults.sh - faults of the network on 2 hosts of the network test bed
# (tests/netns.sh), each in the middle of a run of tests/mn_counter across
# them (once both nodes said "started": past dsm_init and a barrier).  For
# each fault it prints what it measured: the time from the fault to the
# end of mpirun and to the last process gone from the hosts, the status,
# the line naming the lost node.
#   down   host 1's link taken down (ip link set ... down): mpirun ends
#          within DOWN_S (9 s; about 7 s measured),
#          non-zero, with exactly one line "dsm: node 0: transport: lost
#          node 1: ..." (the heartbeats of the mpi transport), and no
#          process is left in any host
#   rank   the DSM process on host 1 killed (kill -9): within 10 s,
#          non-zero, exactly one line "dsm: node 0: transport: lost node 1:
#          its process ended ..." (the lifelines), nothing left
#   kill   every process of host 1 killed, OpenMPI's daemon too: within
#          10 s, non-zero, exactly one line naming node 1, nothing left
#   slow   host 1's link slowed for the whole run: 200 ms more each way
#          (tc netem), or where the kernel has no netem, 1 Mbit/s (tc tbf:
#          a 4 KiB block takes 33 ms, a round trip of one about 70 ms): the
#          job ends normally, its counters right, though it lasts several
#          times the heartbeats' 2 s
srcdir=${srcdir:-.}
top=${top_builddir:-.}
. "$srcdir/tests/netns.sh"
netns_setup 2
out=$NETNS_DIR/out
DOWN_S=${DOWN_S:-9}
# TCP_FAULTS: the cases to run (default all), e.g. TCP_FAULTS="down down"
cases=${TCP_FAULTS:-down rank kill slow}
fail=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; fail=1; }
ms() { echo $(( $(date +%s%N) / 1000000 )); }
secs() { printf '%d.%03d' $(($1 / 1000)) $(($1 % 1000)); }

# start NAME: mn_counter across the hosts in the background; returns once
# both nodes are in the job.
start() {
    : > "$out"
    sh "$srcdir/tests/mpirun_dsm.sh" -n 2 --timeout 90 "$top/tests/mn_counter" 100000000 started > "$out" 2>&1 &
    job=$!
    i=0
    while [ $i -lt 600 ]; do
        [ "$(grep -c '^mn_counter: node [01]: started' "$out")" = 2 ] && { sleep 1; return 0; }
        kill -0 $job 2>/dev/null || break
        sleep 0.1
        i=$((i + 1))
    done
    bad "$1: the job did not start on both hosts:"; cat "$out"
    return 1
}

# finish NAME LIMIT_S: waits for the job and for the hosts to empty, checks
# the status, the time from the fault (t0) and that nothing is left
finish() {
    wait $job
    rc=$?
    t_end=$(( $(ms) - t0 ))
    # the hosts' daemons leave after mpirun (at most 10 s after the fault)
    while [ -n "$(netns_pids)" ] && [ $(( $(ms) - t0 )) -lt 10000 ]; do sleep 0.1; done
    t_gone=$(( $(ms) - t0 ))
    left=$(netns_pids | tr '\n' ' ')
    [ -z "$left" ] && ok "$1: no process left in any host ($(secs $t_gone) s after the fault)" ||
        { bad "$1: processes left 10 s after the fault: $left"; ps -o pid,args -p "$(echo $left | tr ' ' ,)"; }
    [ $rc -ne 0 ] && ok "$1: exit status $rc" || bad "$1: exit status 0"
    [ $t_end -le $(($2 * 1000)) ] && ok "$1: mpirun ended $(secs $t_end) s after the fault (at most $2 s)" ||
        bad "$1: mpirun ended $(secs $t_end) s after the fault ($2 s allowed)"
}

# one_line NAME REGEX: exactly one line of the output names node 1
one_line() {
    n=$(grep -c "$2" "$out")
    [ "$n" = 1 ] && ok "$1: $(grep "$2" "$out")" || { bad "$1: $n lines naming the lost node 1:"; cat "$out"; }
}

down() {
echo "=== down: host 1's link down mid-run"
if start down; then
    t0=$(ms)
    ip -n "$NETNS_HOST_1" link set "$NETNS_LINK_1" down
    finish down "$DOWN_S"
    one_line down '^dsm: node 0: transport: lost node 1: '
    ip -n "$NETNS_HOST_1" link set "$NETNS_LINK_1" up
fi
}

rank() {
echo "=== rank: the DSM process of host 1 killed mid-run"
if start rank; then
    pids=
    for p in $(ip netns pids "$NETNS_HOST_1"); do
        tr '\0' ' ' < "/proc/$p/cmdline" 2>/dev/null | grep -q mn_counter && pids="$pids $p"
    done
    t0=$(ms)
    kill -9 $pids
    finish rank 10
    one_line rank '^dsm: node 0: transport: lost node 1: its process ended'
fi
}

kill_host() {
echo "=== kill: every process of host 1 killed mid-run"
if start kill; then
    pids=$(ip netns pids "$NETNS_HOST_1")
    t0=$(ms)
    kill -9 $pids 2>/dev/null
    finish kill 10
    one_line kill 'lost node 1\b'
fi
}

slow() {
echo "=== slow: host 1's link slowed"
if tc -n "$NETNS_HOST_1" qdisc add dev "$NETNS_LINK_1" root netem delay 200ms 2>/dev/null; then
    how="200 ms more on host 1's link (netem)"
    iters=20
elif tc -n "$NETNS_HOST_1" qdisc add dev "$NETNS_LINK_1" root tbf rate 1mbit burst 8kb latency 2s; then
    how="host 1's link at 1 Mbit/s (tbf; no netem in this kernel)"
    iters=60
else
    how=
    echo "tcp_faults.sh: tc cannot slow a link here: slow link skipped"
fi
if [ -n "$how" ]; then
    t0=$(ms)
    sh "$srcdir/tests/mpirun_dsm.sh" -n 2 --timeout 120 "$top/tests/mn_counter" $iters > "$out" 2>&1
    rc=$?
    t_end=$(( $(ms) - t0 ))
    expect="mn_counter: 2 nodes x $iters increments of 2 counters: $((2 * iters)) and $((2 * iters)) (expected $((2 * iters)))"
    [ $rc = 0 ] && grep -q "$expect" "$out" &&
        ok "slow: $how: the job ended normally after $(secs $t_end) s, counters right" ||
        { bad "slow: $how: exit status $rc:"; cat "$out"; }
    tc -n "$NETNS_HOST_1" qdisc del dev "$NETNS_LINK_1" root
fi
}

for c in $cases; do
    case $c in
        down|rank|slow) $c ;;
        kill) kill_host ;;
        *) echo "tcp_faults.sh: TCP_FAULTS: no case $c (down, rank, kill, slow)" >&2; exit 99 ;;
    esac
done
[ $fail = 0 ] && echo "tcp_faults.sh: OK"
exit $fail
