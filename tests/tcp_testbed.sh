#!/bin/sh
# tcp_testbed.sh - the network test bed itself (tests/netns.sh):
#   hosts     on 3 hosts, mpirun places rank r on host r mod 3 (each rank
#             sees its own host's address only), forwards DSM_* settings
#             with -x and nothing else of this environment to the other
#             hosts (their ranks start with the empty environment of a
#             remote login; those of host 0 are mpirun's children)
#   agent     the rsh agent refuses an address that is no host of the bed
#   fail      a test that fails (exit 1) with a process left running in a
#             host, outside its process group: the exit trap ends it and
#             removes the namespaces and files
#   term      the same for a test stopped by SIGTERM (run-test.sh's time
#             limit)
#   stale     a test killed by SIGKILL (no trap runs) leaves namespaces
#             named for its pid: the next setup removes them
#   skip      not root: skipped (exit 77) with the reason
srcdir=${srcdir:-.}
. "$srcdir/tests/netns.sh"
netns_setup 3
fail=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; fail=1; }
root=--allow-run-as-root

echo "=== hosts"
DSM_TESTBED_PROBE=forwarded NOT_DSM_PROBE=here timeout -k 5 60 "$MPIRUN" $root --oversubscribe -np 3 \
    sh -c 'echo "rank $OMPI_COMM_WORLD_RANK: $(ip -4 -o addr show | grep -o "10\.213\.[0-9]*\.[0-9]*/" | tr -d /) ${DSM_TESTBED_PROBE:-unset} ${NOT_DSM_PROBE:-unset}"' \
    > "$NETNS_DIR/hosts" 2>&1
for r in 0 1 2; do
    eval "a=\$NETNS_ADDR_$r"
    other=unset
    [ $r = 0 ] && other=here
    grep -qx "rank $r: $a forwarded $other" "$NETNS_DIR/hosts" &&
        ok "hosts: rank $r on host $r ($a), DSM_* forwarded, another variable: $other" ||
        { bad "hosts: rank $r is not 'rank $r: $a forwarded $other':"; cat "$NETNS_DIR/hosts"; }
done

echo "=== agent"
agent=$NETNS_DIR/agent
if "$agent" 192.0.2.1 true 2> "$NETNS_DIR/agent.err"; then
    bad "agent: ran a command on 192.0.2.1"
else
    grep -q 'no host of this test bed' "$NETNS_DIR/agent.err" && ok "agent: $(cat "$NETNS_DIR/agent.err")" ||
        { bad "agent: no reason given:"; cat "$NETNS_DIR/agent.err"; }
fi

# bed PID_FILE DIR_FILE END: in a child shell, a test bed of 2 hosts with a
# process in host 1 in a session of its own (so only the bed's clean-up can
# end it), then END: "exit 1", "sleep 60" (to be stopped), ...
bed() {
    sh -c '. "$1/tests/netns.sh"; netns_setup 2 > /dev/null
        echo $$ > "$2"; echo "$NETNS_DIR" > "$3"
        setsid ip netns exec "$NETNS_HOST_1" sleep 300 < /dev/null > /dev/null 2>&1 &
        echo $! > "$2.sleep"
        while [ -z "$(ip netns pids "$NETNS_HOST_1")" ]; do sleep 0.1; done
        echo > "$2.ready"
        eval "$4"' bed "$srcdir" "$1" "$2" "$3"
}
# gone NAME PID DIR SLEEP: nothing of the child's bed is left
gone() {
    left=$(ip netns list | awk '{ print $1 }' | grep "^$NETNS_PREFIX$2[hs]")
    # a killed process may take a moment to go (and a zombie is gone)
    i=0
    while kill -0 "$4" 2>/dev/null && [ "$(cut -d' ' -f3 "/proc/$4/stat" 2>/dev/null)" != Z ] &&
        [ $i -lt 30 ]; do sleep 0.1; i=$((i + 1)); done
    procs=
    kill -0 "$4" 2>/dev/null && [ "$(cut -d' ' -f3 "/proc/$4/stat" 2>/dev/null)" != Z ] && procs=$4
    [ -z "$left" ] && [ -z "$procs" ] && [ ! -e "$3" ] &&
        ok "$1: namespaces, the process in host 1 and $3 removed" ||
        bad "$1: left: namespaces '$left', process '$procs', $([ -e "$3" ] && echo "$3")"
}

echo "=== fail"
t=$NETNS_DIR/fail
bed "$t.pid" "$t.dir" "exit 1"
rc=$?
[ $rc = 1 ] && ok "fail: the test's status (1) kept" || bad "fail: status $rc, not 1"
gone fail "$(cat "$t.pid")" "$(cat "$t.dir")" "$(cat "$t.pid.sleep")"

# signalled NAME SIGNAL: a bed sent SIGNAL once ready; sets t, pid, rc
signalled() {
    t=$NETNS_DIR/$1
    bed "$t.pid" "$t.dir" "sleep 60" &
    i=0
    while [ ! -e "$t.pid.ready" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
    pid=$(cat "$t.pid")
    kill "-$2" "$pid"
    wait $! 2>/dev/null
    rc=$?
}

echo "=== term"
signalled term TERM
[ $rc = 143 ] && ok "term: status 143" || bad "term: status $rc, not 143"
gone term "$pid" "$(cat "$t.dir")" "$(cat "$t.pid.sleep")"

echo "=== stale"
signalled stale KILL
n=$(ip netns list | grep -c "^$NETNS_PREFIX${pid}[hs]")
[ "$n" = 3 ] && ok "stale: SIGKILL left its 3 namespaces" || bad "stale: $n namespaces of $pid after SIGKILL, not 3"
(netns_reap_stale)
rm -rf "$(cat "$t.dir")" # its files (in TMPDIR) are not the next run's to find
gone stale "$pid" "$(cat "$t.dir")" "$(cat "$t.pid.sleep")"

echo "=== skip"
if command -v setpriv >/dev/null 2>&1; then
    setpriv --reuid=65534 --regid=65534 --clear-groups sh -c '. "$1/tests/netns.sh"; netns_setup 2' skip "$srcdir" \
        > "$NETNS_DIR/skip" 2>&1
    rc=$?
    [ $rc = 77 ] && grep -q 'not root' "$NETNS_DIR/skip" && ok "skip: $(cat "$NETNS_DIR/skip") (status 77)" ||
        { bad "skip: status $rc:"; cat "$NETNS_DIR/skip"; }
else
    echo "tcp_testbed.sh: no setpriv: the non-root skip not checked"
fi
[ $fail = 0 ] && echo "tcp_testbed.sh: OK"
exit $fail
