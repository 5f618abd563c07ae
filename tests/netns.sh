# netns.sh - a test bed of several "hosts" on this machine, for the tests of
# cluster runs over a real network: sourced (. tests/netns.sh), it gives
#   netns_setup HOSTS     builds HOSTS (2-4) network namespaces, each one
#                         "host" with its own address, joined by veth links
#                         to a bridge in a switch namespace; skips (exit 77,
#                         with the reason) when not root or `ip netns` does
#                         not work.  Then:
#     NETNS_HOST_i, NETNS_ADDR_i   the namespace and address of host i (0..)
#     NETNS_LINK_i        host i's end of its link (ip link set ... down)
#     NETNS_NET           the hosts' network (10.213.X.0/24)
#     MPIRUN              a script that runs OpenMPI's mpirun in host 0 with
#                         a hostfile naming every host (ranks placed round
#                         robin: rank r on host r mod HOSTS), an rsh agent
#                         that runs `ip netns exec HOST`, the TCP transport
#                         of MPI on the hosts' network only, and every DSM_*
#                         variable forwarded with -x; tests/mpirun_dsm.sh
#                         (DSMRUN) calls it, so the multi-node test scripts
#                         run across the hosts unchanged
#     NETNS_CLOCK_OFFSET_i   (set before netns_setup) DSM_TEST_CLOCK_OFFSET_NS
#                         of host i's processes: its clock, off by that much
#   netns_pids            the processes left in the hosts, if any
#   netns_cleanup         ends them and removes everything netns_setup made;
#                         also run on exit, interrupt or termination (trap),
#                         so a failing or timed-out test leaves nothing.
# Each host's processes start with an empty environment but a default PATH
# (as sshd gives them): what a rank gets, mpirun gives it, the way it does
# on a real cluster.  Each host has a /tmp of its own (TMPDIR): the hosts
# share a host name, and OpenMPI's session directories are named by it.  Names carry this shell's pid (two runs side by side do
# not meet); the network number X is picked free on this machine; only the
# hosts' own addresses are used.  A run killed before it could clean up
# leaves namespaces named for a pid that no longer exists: the next setup
# removes them.
# The hosts share the machine's cores: each host's daemon would bind its
# first rank to core 0, every host's to the same core (two ranks and their
# threads on one core, a spinning MPI round trip of milliseconds): so
# --bind-to none, the ranks spread over the cores as the kernel sees fit.
# The namespaces share the kernel's clock: "own clocks" are forced with
# DSM_TEST_CLOCK_OFFSET_NS (dsm/futex.c), set per host by the agent.

NETNS_PREFIX=dsmnet
NETNS_COUNT=0
NETNS_DIR=

# netns_skip REASON: no test bed here.
netns_skip() {
    echo "netns.sh: $*: skipped"
    exit 77
}

# Namespaces of runs that ended without cleaning up (SIGKILL).
netns_reap_stale() {
    for ns in $(ip netns list 2>/dev/null | awk '{ print $1 }'); do
        case $ns in
            "$NETNS_PREFIX"[0-9]*) ;;
            *) continue ;;
        esac
        pid=${ns#"$NETNS_PREFIX"}
        pid=${pid%%[!0-9]*}
        [ -n "$pid" ] && ! kill -0 "$pid" 2>/dev/null || continue
        for p in $(ip netns pids "$ns" 2>/dev/null); do kill -9 "$p" 2>/dev/null; done
        ip netns del "$ns" 2>/dev/null
    done
}

netns_pids() {
    i=0
    while [ "$i" -le "$NETNS_COUNT" ]; do
        [ "$i" -lt "$NETNS_COUNT" ] && ns=$NETNS_PREFIX$$h$i || ns=$NETNS_PREFIX$$s
        ip netns pids "$ns" 2>/dev/null
        i=$((i + 1))
    done
}

netns_cleanup() {
    [ -n "$NETNS_DIR" ] || return 0
    # twice: a process may fork while the first pass kills
    for pass in 1 2; do
        for p in $(netns_pids); do kill -9 "$p" 2>/dev/null; done
        [ $pass = 1 ] && sleep 0.2
    done
    i=0
    while [ "$i" -lt "$NETNS_COUNT" ]; do
        ip netns del "$NETNS_PREFIX$$h$i" 2>/dev/null
        i=$((i + 1))
    done
    ip netns del "$NETNS_PREFIX$$s" 2>/dev/null
    rm -rf "$NETNS_DIR"
    NETNS_DIR=
}

# A network 10.213.X.0/24 that no interface or route of this machine uses.
netns_pick_net() {
    used=$(ip -4 addr show 2>/dev/null; ip -4 route show 2>/dev/null)
    x=$(( $$ % 200 + 20 ))
    tries=0
    while printf '%s\n' "$used" | grep -q "10\.213\.$x\."; do
        x=$(( (x + 1) % 250 + 1 ))
        tries=$((tries + 1))
        [ $tries -lt 250 ] || netns_skip "no free 10.213.X.0/24 network"
    done
    NETNS_X=$x
    NETNS_NET=10.213.$x.0/24
}

netns_setup() {
    hosts=${1:-2}
    [ "$hosts" -ge 2 ] && [ "$hosts" -le 4 ] || { echo "netns_setup: 2 to 4 hosts, not $hosts" >&2; exit 99; }
    [ "$(id -u)" = 0 ] || netns_skip "not root (network namespaces need CAP_SYS_ADMIN)"
    command -v ip >/dev/null 2>&1 || netns_skip "no ip command (iproute2, scripts/debian-packages)"
    command -v "${NETNS_MPIRUN:-mpirun}" >/dev/null 2>&1 || netns_skip "no mpirun on PATH"
    netns_reap_stale
    probe=$NETNS_PREFIX$$probe
    ip netns add "$probe" 2>/dev/null || netns_skip "ip netns add fails here (no network namespaces)"
    ok=1
    ip netns exec "$probe" ip link set lo up 2>/dev/null || ok=0
    ip netns del "$probe" 2>/dev/null
    [ $ok = 1 ] || netns_skip "ip netns exec fails here"
    NETNS_DIR=$(mktemp -d "${TMPDIR:-/tmp}/netns.XXXXXX") || exit 99
    trap 'netns_cleanup' EXIT
    trap 'netns_cleanup; exit 143' TERM
    trap 'netns_cleanup; exit 130' INT
    trap 'netns_cleanup; exit 129' HUP
    netns_pick_net
    sw=$NETNS_PREFIX$$s
    ip netns add "$sw" || netns_skip "ip netns add $sw failed"
    ip -n "$sw" link set lo up
    ip -n "$sw" link add br0 type bridge 2>/dev/null || { netns_cleanup; netns_skip "no bridge device in this kernel"; }
    ip -n "$sw" link set br0 up
    NETNS_COUNT=$hosts
    : > "$NETNS_DIR/hostfile"
    agent_map=
    i=0
    while [ "$i" -lt "$hosts" ]; do
        ns=$NETNS_PREFIX$$h$i
        addr=10.213.$NETNS_X.$((i + 1))
        link=dn$$h$i    # at most 15 characters: dn + 7 digits + h + 1
        ip netns add "$ns" || { netns_cleanup; exit 99; }
        ip link add "$link" netns "$ns" type veth peer name "dn$$p$i" netns "$sw" ||
            { netns_cleanup; netns_skip "no veth devices in this kernel"; }
        ip -n "$ns" addr add "$addr/24" dev "$link"
        ip -n "$ns" link set "$link" up
        ip -n "$ns" link set lo up
        # a connection to a cut-off host fails after about 1.4 s of
        # retransmissions, not 15 minutes (doc/cluster.md)
        ip netns exec "$ns" sh -c 'echo 2 > /proc/sys/net/ipv4/tcp_retries2' 2>/dev/null
        ip -n "$sw" link set "dn$$p$i" master br0
        ip -n "$sw" link set "dn$$p$i" up
        eval "NETNS_HOST_$i=\$ns NETNS_ADDR_$i=\$addr NETNS_LINK_$i=\$link"
        eval "off=\${NETNS_CLOCK_OFFSET_$i:-}"
        echo "$addr slots=8" >> "$NETNS_DIR/hostfile"
        mkdir "$NETNS_DIR/tmp$i"
        agent_map="$agent_map    $addr) ns=$ns off=$off tmp=$NETNS_DIR/tmp$i ;;
"
        i=$((i + 1))
    done
    # The rsh agent: mpirun calls it as "agent HOST COMMAND..." to start its
    # daemon there; the command is a shell command line, as ssh would run it.
    cat > "$NETNS_DIR/agent" <<EOF
#!/bin/sh
while [ \$# -gt 0 ]; do case \$1 in -*) shift ;; *) break ;; esac; done
host=\$1
shift
case \$host in
$agent_map    *) echo "netns agent: \$host is no host of this test bed" >&2; exit 255 ;;
esac
exec ip netns exec "\$ns" env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    HOME="\${HOME:-/}" TMPDIR="\$tmp" \${off:+DSM_TEST_CLOCK_OFFSET_NS=\$off} sh -c "\$*"
EOF
    # mpirun in host 0 (its daemon connects back to it over the hosts' network)
    cat > "$NETNS_DIR/mpirun" <<EOF
#!/bin/sh
fwd=
for v in \$(env | sed -n 's/^\(DSM_[A-Za-z0-9_]*\)=.*/\1/p'); do
    case \$v in DSM_TEST_*) continue ;; esac
    fwd="\$fwd -x \$v"
done
off0=${NETNS_CLOCK_OFFSET_0:-}
exec ip netns exec $NETNS_PREFIX$$h0 env TMPDIR=$NETNS_DIR/tmp0 \${off0:+DSM_TEST_CLOCK_OFFSET_NS=\$off0} \
    ${NETNS_MPIRUN:-mpirun} --hostfile $NETNS_DIR/hostfile --map-by node --bind-to none \
    --mca plm_rsh_agent $NETNS_DIR/agent \
    --mca routed direct --mca btl tcp,self --mca btl_tcp_if_include $NETNS_NET \
    --mca oob_tcp_if_include $NETNS_NET \
    --mca oob_tcp_keepalive_time 3 --mca oob_tcp_keepalive_intvl 1 --mca oob_tcp_keepalive_probes 3 \
    \$fwd "\$@"
EOF
    chmod +x "$NETNS_DIR/agent" "$NETNS_DIR/mpirun"
    MPIRUN=$NETNS_DIR/mpirun
    DSMRUN=${srcdir:-.}/tests/mpirun_dsm.sh
    [ "${DSM_TEST_TRANSPORT:-}" = verbs ] || DSM_TEST_TRANSPORT=mpi # verbs: MPI bootstraps it
    export MPIRUN DSMRUN DSM_TEST_TRANSPORT
    # the hosts reach each other (where ping is installed)
    i=1
    command -v ping >/dev/null 2>&1 || i=$hosts
    while [ "$i" -lt "$hosts" ]; do
        eval "a=\$NETNS_ADDR_$i"
        ip netns exec "$NETNS_PREFIX$$h0" ping -c 1 -W 2 "$a" >/dev/null 2>&1 ||
            { echo "netns.sh: host 0 does not reach $a" >&2; netns_cleanup; exit 99; }
        i=$((i + 1))
    done
    echo "netns.sh: $hosts hosts on $NETNS_NET: namespaces $NETNS_PREFIX$$h0..$((hosts - 1)), switch $sw"
}
