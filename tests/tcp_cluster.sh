#!/bin/sh
# tcp_cluster.sh - the multi-node tests across hosts on TCP: 3 hosts of the
# network test bed (tests/netns.sh; ranks round robin, so 2 and 3 nodes are
# on different hosts and 4 nodes put two on host 0), MPI on its TCP
# transport only.  The programs and scripts are those of the test matrix and
# of the profile's tests, on fewer rounds (each step crosses the network):
#   litmus   mp, sb, lb, 2+2w on 2 nodes, iriw on 4: sequential consistency
#   counter  lock-protected counters add up exactly (2 and 4 nodes)
#   counts   tests/mn_counts.sh: the exact event counts of the DSM_STATS
#            file on 2 and 4 nodes
#   apps     hello, jacobi, matmul on 2, 3 and 4 nodes verify their results
#   profile  tests/mn_profile.sh: the profile file and dsmprof on it
#   advice   the profile of tests/mn_profile across hosts: dsmprof advice
#            finds the false sharing of its "pair" (as on one host; with no
#            thresholds on the shares of memory blocking time, which depend
#            on how busy the machine was)
# and no process is left in any host at the end.  The timeslices run across
# hosts in tests/tcp_clock.sh, on clocks forced apart.
srcdir=${srcdir:-.}
top=${top_builddir:-.}
. "$srcdir/tests/netns.sh"
netns_setup 3
fail=0
mn() { sh "$srcdir/tests/run_mn.sh" -t 90 "$@" || fail=1; }
mn -n 2 tests/mn_litmus -t mp -i 500
mn -n 2 tests/mn_litmus -t sb -i 500
mn -n 2 tests/mn_litmus -t lb -i 300
mn -n 2 tests/mn_litmus -t 2+2w -i 300
mn -n 4 tests/mn_litmus -t iriw -i 200
mn -n "2 4" tests/mn_counter 300
mn -n "2 3 4" -e "hello: result OK" apps/hello
mn -n "2 3 4" -e "jacobi: result OK" apps/jacobi 256 40
mn -n "2 3 4" -e "matmul: result OK" apps/matmul 128 16
sh "$srcdir/tests/mn_counts.sh" || fail=1
sh "$srcdir/tests/mn_profile.sh" || fail=1

dir=$(mktemp -d "${TMPDIR:-/tmp}/tcp_cluster.XXXXXX") || exit 99
trap 'rm -rf "$dir"; netns_cleanup' EXIT
echo "=== advice: tests/mn_profile on 2 hosts, its profile"
src=$(cd "$srcdir" && pwd) build=$(cd "$top" && pwd)
if (cd "$dir" && DSM_PROFILE="$dir/p.json" DSM_PROFILE_SUMMARY=off sh "$src/tests/mpirun_dsm.sh" -n 2 \
        --timeout 60 "$build/tests/mn_profile") > "$dir/out" 2>&1 &&
    "$top/dsmprof" advice "$dir/p.json" --threshold-memory-blocking=0 --threshold-refine=0 \
        --threshold-structure-min=0 > "$dir/advice" 2>&1 &&
    grep -q '^[0-9]*\. FalseSharing (structure pair)' "$dir/advice"; then
    echo "ok   advice: $(grep 'FalseSharing (structure pair)' "$dir/advice" | cut -c1-100)"
else
    echo "FAIL advice:"; cat "$dir/out" "$dir/advice" 2>/dev/null; fail=1
fi
left=$(netns_pids)
[ -z "$left" ] || { echo "FAIL: processes left in the hosts: $left"; fail=1; }
[ $fail = 0 ] && echo "tcp_cluster.sh: OK"
exit $fail
