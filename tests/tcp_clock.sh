#!/bin/sh
# tcp_clock.sh - each host has its own clock: on 3 hosts of the network test
# bed (tests/netns.sh) whose clocks are forced apart by seconds
# (DSM_TEST_CLOCK_OFFSET_NS: host 1 +7 s, host 2 -4 s against host 0; the
# namespaces share the kernel's clock, so the offset must be forced),
#   - dsm_wtime has one base: tests/mn_clock (near 0 after dsm_init on every
#     node; a node taking a lock after another never reads an earlier time)
#   - the profile's timeslices: tests/mn_timeslices.sh (the misses of each
#     phase in the slices of that phase, the pause's slices empty)
# Both fail when dsm_init does not measure and correct the offset.
srcdir=${srcdir:-.}
top=${top_builddir:-.}
NETNS_CLOCK_OFFSET_1=7000000000
NETNS_CLOCK_OFFSET_2=-4000000000
. "$srcdir/tests/netns.sh"
netns_setup 3
fail=0
sh "$srcdir/tests/run_mn.sh" -n "3 6" -t 60 -e "mn_clock: node 2: OK" tests/mn_clock 200 || fail=1
sh "$srcdir/tests/mn_timeslices.sh" || fail=1
left=$(netns_pids)
[ -z "$left" ] || { echo "FAIL: processes left in the hosts: $left"; fail=1; }
[ $fail = 0 ] && echo "tcp_clock.sh: OK"
exit $fail
