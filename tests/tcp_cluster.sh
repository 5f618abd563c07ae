#!/bin/sh
# tcp_cluster.sh - the multi-node tests across hosts on TCP: 3 hosts of the
# network test bed (tests/netns.sh; ranks round robin, so 2 and 3 nodes are
# on different hosts and 4 nodes put two on host 0), MPI on its TCP
# transport only.  The programs are those of the test matrix, on fewer
# rounds and node counts (each step crosses the network, and the test must
# stay within the suite's time limit on a crowded machine):
#   litmus   mp, sb, lb, 2+2w on 2 nodes, iriw on 4: sequential consistency
#   counter  lock-protected counters add up exactly (2 and 4 nodes)
#   apps     hello on 4 nodes, jacobi on 3, matmul on 2 and 4 verify their
#            results
#   signals  handlers that touch shared memory while the program misses and
#            takes locks (tests/mn_signal.c), and handlers that miss while
#            their thread's own miss sleeps (tests/mn_sighold.c with
#            DSM_SPIN_US=0): across hosts a waiter that stops spinning
#            sleeps on its node's futex with the handlers open
#            (doc/cluster.md, "One caller in MPI at a time")
# and no process is left in any host at the end.  The statistics, the
# profile and its advice: tests/tcp_profile.sh; the timeslices:
# tests/tcp_clock.sh.
srcdir=${srcdir:-.}
top=${top_builddir:-.}
. "$srcdir/tests/netns.sh"
netns_setup 3
fail=0
mn() { sh "$srcdir/tests/run_mn.sh" -t 90 "$@" || fail=1; }
mn -n 2 tests/mn_litmus -t mp -i 300
mn -n 2 tests/mn_litmus -t sb -i 300
mn -n 2 tests/mn_litmus -t lb -i 200
mn -n 2 tests/mn_litmus -t 2+2w -i 200
mn -n 4 tests/mn_litmus -t iriw -i 100
mn -n "2 4" tests/mn_counter 300
mn -n 4 -e "hello: result OK" apps/hello
mn -n 3 -e "jacobi: result OK" apps/jacobi 256 40
mn -n "2 4" -e "matmul: result OK" apps/matmul 128 16
mn -n 2 -e "mn_signal: node 1: .*: OK" tests/mn_signal 1000
DSM_SPIN_US=0 mn -n 2 -e "mn_sighold: node 1: .*: OK" tests/mn_sighold 1
left=$(netns_pids)
[ -z "$left" ] || { echo "FAIL: processes left in the hosts: $left"; fail=1; }
[ $fail = 0 ] && echo "tcp_cluster.sh: OK"
exit $fail
